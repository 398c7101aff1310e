package sqlite

import (
	"context"
	"testing"

	"mafia/store"
	"mafia/store/storetest"
)

// TestAppend_ABatchOfAppendsMakesNoDatabaseSQLTransaction appends one step
// at a time with its clock, as a room does for a command, and counts the
// allocations each takes, the caller's encoding and the writer's batch
// together: a database/sql transaction per batch (its context, its
// watcher, each kept statement bound to it, each argument converted
// through its layers) took 65 (Go 1.26, modernc.org/sqlite 1.62); the
// driver's connection with its statements kept takes 49.
func TestAppend_ABatchOfAppendsMakesNoDatabaseSQLTransaction(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	log, _ := storetest.BotGame(t, 77)
	storetest.CreateTable(t, db, "a")
	if err := db.AppendEvents(ctx, "a", 0, log[:1]); err != nil {
		t.Fatal(err)
	}
	pair := log[1:3]
	n := 1
	step := func() {
		if err := db.AppendEventsClock(ctx, "a", n, pair, store.Clock{Step: n}); err != nil {
			t.Fatal(err)
		}
		n += len(pair)
	}
	step() // the statements prepared
	allocs := testing.AllocsPerRun(200, step)
	t.Logf("%.1f allocations per append", allocs)
	if allocs > 57 {
		t.Errorf("an append takes %.1f allocations, more than 57: does each batch make a database/sql transaction again?", allocs)
	}
}
