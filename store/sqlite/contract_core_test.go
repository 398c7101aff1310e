package sqlite

import (
	"testing"

	"mafia/store"
	"mafia/store/storetest"
)

// TestContractCore runs the store contract's core (package storetest) on
// SQLite files.
func TestContractCore(t *testing.T) {
	storetest.RunCore(t, func(t *testing.T) store.Store {
		db, _ := openTest(t)
		return db
	})
}
