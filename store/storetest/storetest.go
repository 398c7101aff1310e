// Package storetest is the store contract suite: the behaviours of
// store.Store (and of the optional interfaces the server type-asserts)
// that the server relies on, pinned once and run against every store
// (store/sqlite, store/postgres) from each one's tests.
//
// A store's test calls a Run function with a func that opens a fresh,
// empty store for one test (and closes it when the test ends):
//
//	func TestContractCore(t *testing.T) {
//		storetest.RunCore(t, func(t *testing.T) store.Store { ... })
//	}
//
// What only one store can show (how SQLite's writer batches, a damaged
// page of its file, PostgreSQL's functions) stays in that store's own
// tests.
package storetest

import (
	"testing"

	"mafia/store"
)

// Open opens a fresh, empty store for the test t, closed when t ends.
type Open func(t *testing.T) store.Store

// RunCore runs the core contract: tables and their kinds, seats, the event
// log (order, conflicts, many tables at once, two writers at one place),
// the atomic appends with a clock or a table, rewrites, tables set aside,
// clocks, the heartbeat, the chat and its windows, the unrated tables, and
// the write counts and health, each a subtest named for what it pins.
func RunCore(t *testing.T, open Open) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, open Open)
	}{
		{"TableRoundTripsWithItsSeats", tableRoundTrip},
		{"TablesAreNewestFirstFilteredAndLimited", tablesNewestFirst},
		{"EachKindSeesOnlyItsOwnTables", kindsApart},
		{"NoneIsNotAKind", noneIsNotAKind},
		{"SaveSeatsReplacesTheSeats", saveSeatsReplaces},
		{"ASeatTwiceIsAConflictAndChangesNothing", seatTwice},
		{"TableIDsAreOldestFirstOfOneStatus", tableIDsOldestFirst},
		{"ASetAsideTableIsLeftOutAndRefused", setAside},
		{"AppendKeepsOrderAndRefusesWhatDoesNotContinue", appendOrder},
		{"AppendToAMissingTableIsNotFound", appendMissing},
		{"BotGamesReplayExactlyFromTheLog", botGamesReplay},
		{"ConcurrentAppendsToManyTablesAllLand", concurrentTables},
		{"OfTwoAppendsAtOnePlaceOneWins", twoWriters},
		{"AppendEventsClockSavesBothOrNeither", appendClock},
		{"AppendEventsTableSavesTheStatusWithTheEvents", appendTable},
		{"RewriteEventsCorrectsALog", rewrite},
		{"ClockRoundTrips", clockRoundTrip},
		{"HeartbeatRoundTrips", heartbeatRoundTrip},
		{"ChatIsKeptInOrder", chatInOrder},
		{"ChatRangeIsAWindowOfTheChat", chatRange},
		{"ChatOfAMissingTableIsNotFound", chatMissing},
		{"UnratedEndedListsTheRatedEndedTables", unratedEnded},
		{"WritesAreCountedAndHealthy", writesCounted},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, open) })
	}
}
