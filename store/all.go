package store

// All is every capability a store offers: what both stores
// (store/sqlite's *DB and store/postgres's *DB) implement, each checked by
// the compiler where it is defined. cmd/mafia opens one of them as an All
// and hands each consumer the capabilities its Config names, typed, so
// that a store missing one fails to compile rather than a branch at run
// time finding it "not offered".
type All interface {
	Store
	Accounts
	Clubs
	ClubMembers
	Tournaments
	Ratings
	ChatPages // and Chats
	UnratedTables
	Leases
	EventFences
	WriteMonitor
	WriteCounter
	NameForms
	SeenAddrs
}
