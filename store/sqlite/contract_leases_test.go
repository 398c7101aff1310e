package sqlite

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"mafia/engine"
	"mafia/store"
	"mafia/store/storetest"
)

// TestContractLeases runs the store contract's leases and fencing (package
// storetest) on SQLite files: one node's, but the same contract as a
// cluster's on PostgreSQL.
func TestContractLeases(t *testing.T) {
	storetest.RunLeases(t, func(t *testing.T) store.Store {
		db, _ := openTest(t)
		return db
	})
}

// TestContractEventFences runs the store contract's events' fencing tokens
// (package storetest) on SQLite files.
func TestContractEventFences(t *testing.T) {
	storetest.RunEventFences(t, func(t *testing.T) store.Store {
		db, _ := openTest(t)
		return db
	})
}

// TestGroupCommitRefusesAStaleFenceAlone commits one batch by hand: an
// append fenced with a token the lease no longer carries is refused with
// store.ErrFenced, and the others of the batch, one fenced with the
// holder's token and one without a fence, are committed with it, each
// one's events with its own token (0 without a fence).
func TestGroupCommitRefusesAStaleFenceAlone(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	log, _ := storetest.BotGame(t, 12)
	storetest.CreateTable(t, db, "x")
	storetest.CreateTable(t, db, "z")
	old, err := db.Acquire(ctx, "x", "node-a", time.Nanosecond)
	if err != nil {
		t.Fatal(err)
	}
	var cur store.Lease
	for {
		if cur, err = db.Acquire(ctx, "x", "node-b", time.Hour); err == nil {
			break
		}
		time.Sleep(time.Millisecond) // until the clock passes node-a's ttl
	}
	mk := func(table string, evs []engine.Event, token int64, fenced bool) *appendReq {
		r := &appendReq{table: table, first: 0, token: token, fenced: fenced}
		if err := db.encode(ctx, r, evs, "append to"); err != nil {
			t.Fatal(err)
		}
		return r
	}
	stale, fresh, plain := mk("x", log[:2], old.Token, true), mk("x", log[:3], cur.Token, true), mk("z", log[:4], 0, false)
	before := db.WriteStats()
	db.commit([]*appendReq{stale, fresh, plain})
	if !errors.Is(stale.Err, store.ErrFenced) || fresh.Err != nil || plain.Err != nil {
		t.Errorf("stale %v (want ErrFenced), fresh %v, plain %v", stale.Err, fresh.Err, plain.Err)
	}
	if got := db.WriteStats(); got.Commits-before.Commits != 1 {
		t.Errorf("%d commits, want the batch in one", got.Commits-before.Commits)
	}
	for id, n := range map[string]int{"x": 3, "z": 4} {
		if got, err := db.Events(ctx, id); err != nil || len(got) != n {
			t.Errorf("%s: %d events, %v; want %d", id, len(got), err, n)
		}
	}
	// Each append's rows carry its own token, in one statement of rows
	// prepared for all.
	for id, want := range map[string][]int64{"x": {cur.Token, cur.Token, cur.Token}, "z": {0, 0, 0, 0}} {
		if got, err := db.EventFences(ctx, id); err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: fences %v, %v; want %v", id, got, err, want)
		}
	}
}
