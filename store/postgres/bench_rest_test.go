package postgres

import (
	"testing"

	"mafia/internal/pgtest"
	"mafia/store"
	"mafia/store/storetest"
)

func openBench(b *testing.B) store.Store {
	db, err := Open(b.Context(), pgtest.URL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func BenchmarkRateGame(b *testing.B) { storetest.BenchRateGame(b, openBench) }

func BenchmarkLeaderboard(b *testing.B) { storetest.BenchLeaderboard(b, openBench) }
