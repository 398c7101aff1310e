package postgres

import (
	"fmt"
	"testing"
	"time"

	"mafia/store"
	"mafia/store/storetest"
)

func openBench(b *testing.B) store.Store {
	db, err := Open(b.Context(), migratedURL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func BenchmarkRateGame(b *testing.B) { storetest.BenchRateGame(b, openBench) }

func BenchmarkLeaderboard(b *testing.B) { storetest.BenchLeaderboard(b, openBench) }

// BenchmarkRenewAll is one renewal round of a node holding 1,000 tables'
// leases (one RenewAll), against the same round made one Renew at a time
// (the node's round before RenewAll).
func BenchmarkRenewAll(b *testing.B) {
	db := openBench(b).(*DB)
	ctx := b.Context()
	ls := make([]store.Lease, 1000)
	for i := range ls {
		id := fmt.Sprintf("t%04d", i)
		storetest.CreateTable(b, db, id)
		l, err := db.Acquire(ctx, id, "node-a", time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		ls[i] = l
	}
	b.Run("one_write", func(b *testing.B) {
		for b.Loop() {
			got, err := db.RenewAll(ctx, ls, time.Minute)
			if err != nil || len(got) != len(ls) {
				b.Fatalf("%d renewed, %v", len(got), err)
			}
		}
	})
	b.Run("one_by_one", func(b *testing.B) {
		for b.Loop() {
			for _, l := range ls {
				if _, err := db.Renew(ctx, l, time.Minute); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkCommands is storetest.BenchCommands on PostgreSQL, its commits
// flushed (durable): this process's CPU per command (PostgreSQL's own
// processes are not in it), after 500 ended games.
func BenchmarkCommands(b *testing.B) {
	storetest.BenchCommands(b, func(b *testing.B) store.Store {
		db := openBench(b).(*DB)
		durable(b, db)
		return db
	}, 500)
}
