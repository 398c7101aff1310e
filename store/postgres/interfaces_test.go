package postgres

import (
	"reflect"
	"testing"

	"mafia/store"
	"mafia/store/sqlite"
)

// TestDB_ImplementsEverySQLiteInterface: the server finds what a store can
// do by type assertions (store.Chats, store.Ratings, ...), so a PostgreSQL
// store that lacks one of SQLite's interfaces would silently serve less. Each
// interface of package store that *sqlite.DB implements, *DB implements too.
func TestDB_ImplementsEverySQLiteInterface(t *testing.T) {
	ifaces := []reflect.Type{
		reflect.TypeFor[store.Store](),
		reflect.TypeFor[store.Accounts](),
		reflect.TypeFor[store.Chats](),
		reflect.TypeFor[store.ChatPages](),
		reflect.TypeFor[store.Clubs](),
		reflect.TypeFor[store.ClubMembers](),
		reflect.TypeFor[store.Ratings](),
		reflect.TypeFor[store.UnratedTables](),
		reflect.TypeFor[store.WriteCounter](),
		reflect.TypeFor[store.WriteMonitor](),
	}
	lite, pg := reflect.TypeFor[*sqlite.DB](), reflect.TypeFor[*DB]()
	for _, i := range ifaces {
		if !lite.Implements(i) {
			t.Errorf("*sqlite.DB no longer implements %v: update this list", i)
			continue
		}
		if !pg.Implements(i) {
			t.Errorf("*postgres.DB does not implement %v, which *sqlite.DB does", i)
		}
	}
}
