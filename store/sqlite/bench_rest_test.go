package sqlite

import (
	"testing"

	"mafia/store"
	"mafia/store/storetest"
)

func openBench(b *testing.B) store.Store {
	db, _ := openTest(b)
	return db
}

func BenchmarkRateGame(b *testing.B) { storetest.BenchRateGame(b, openBench) }

func BenchmarkLeaderboard(b *testing.B) { storetest.BenchLeaderboard(b, openBench) }

// BenchmarkCommands is storetest.BenchCommands: the store's CPU per
// command at a server's pace, after 2,000 ended games.
func BenchmarkCommands(b *testing.B) { storetest.BenchCommands(b, openBench, 2000) }
