package sqlite

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"mafia/store"
)

// readPrepared returns the reader's prepared statements by query.
func readPrepared(db *DB) map[string]any {
	db.rd.mu.Lock()
	defer db.rd.mu.Unlock()
	out := make(map[string]any, len(db.rd.m))
	for q, st := range db.rd.m {
		out[q] = st
	}
	return out
}

// TestReads_EachQueryIsPreparedOnceAndReused pins what a restart's reads
// cost: reading a table (its row and seats in a read transaction), its log,
// its clock and its chat prepares each query once; reading them again, and
// reading another table, reuses the same statements, with the same answers
// (refusals included).
func TestReads_EachQueryIsPreparedOnceAndReused(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	seats := []store.Seat{{Seat: 1, Name: "a"}, {Seat: 2, Name: "b"}}
	for _, id := range []string{"t1", "t2"} {
		if err := db.CreateTable(ctx, store.Table{ID: id, Kind: store.KindOnline, Name: id, Status: store.StatusLobby}, seats); err != nil {
			t.Fatal(err)
		}
	}
	read := func(id string) {
		t.Helper()
		tb, got, err := db.Table(ctx, store.KindOnline, id)
		if err != nil || tb.ID != id || len(got) != 2 || got[1].Name != "b" {
			t.Fatalf("table %q: %+v %+v %v", id, tb, got, err)
		}
		if _, _, err := db.Table(ctx, store.KindInPerson, id); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("table %q of another kind: %v, want not found", id, err)
		}
		if evs, err := db.Events(ctx, id); err != nil || len(evs) != 0 {
			t.Fatalf("events of %q: %v %v", id, evs, err)
		}
		if _, err := db.Events(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("events of a missing table: %v", err)
		}
		if _, err := db.Clock(ctx, id); err != nil {
			t.Fatalf("clock of %q: %v", id, err)
		}
		if lines, err := db.Chat(ctx, id, 50); err != nil || len(lines) != 0 {
			t.Fatalf("chat of %q: %v %v", id, lines, err)
		}
	}
	read("t1")
	first := readPrepared(db)
	if len(first) < 6 {
		t.Fatalf("%d read statements prepared after reading a table, want its row, seats, log, clock and chat's", len(first))
	}
	read("t1")
	read("t2")
	again := readPrepared(db)
	if len(again) != len(first) {
		t.Fatalf("%d read statements after reading again, %d after the first: a query was prepared twice or per table", len(again), len(first))
	}
	for q, st := range first {
		if again[q] != st {
			t.Fatalf("query %q prepared again", q)
		}
	}
}

// TestReads_PastTheBoundAQueryRunsUnprepared: a store whose reader holds
// its bound of statements answers a new query all the same, unprepared,
// and keeps no more; after Close a read is refused with an error, never a
// panic.
func TestReads_PastTheBoundAQueryRunsUnprepared(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	if err := db.CreateTable(ctx, store.Table{ID: "t1", Kind: store.KindOnline, Name: "one", Status: store.StatusLobby}, []store.Seat{{Seat: 1, Name: "a"}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; len(readPrepared(db)) < maxReadStmts; i++ {
		var n int
		if err := db.rd.QueryRowContext(ctx, fmt.Sprintf("SELECT %d", i)).Scan(&n); err != nil || n != i {
			t.Fatalf("filler %d: %d %v", i, n, err)
		}
	}
	if _, got, err := db.Table(ctx, store.KindOnline, "t1"); err != nil || len(got) != 1 {
		t.Fatalf("a table read past the bound: %+v %v", got, err)
	}
	if n := len(readPrepared(db)); n != maxReadStmts {
		t.Fatalf("%d statements kept, want the bound %d", n, maxReadStmts)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.Table(ctx, store.KindOnline, "t1"); err == nil {
		t.Fatal("a read after Close answered")
	}
	if _, err := db.Events(ctx, "t1"); err == nil {
		t.Fatal("a read after Close answered")
	}
}

// TestReads_ManyReadTransactionsAtOnceNeverWaitForEachOther: more read
// transactions at once than the read pool has connections, on a store
// whose statements are not prepared yet, all answer. (A read transaction
// once prepared its statement on the pool while holding one of the pool's
// connections: with every connection held so, each waited for another,
// for ever; the assistant's eight concurrent creations of one game hung
// its tests past go test's 10 minutes.)
func TestReads_ManyReadTransactionsAtOnceNeverWaitForEachOther(t *testing.T) {
	for round := 0; round < 5; round++ {
		db, _ := openTest(t)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		if err := db.CreateTable(ctx, store.Table{ID: "t1", Kind: store.KindOnline, Name: "one", Status: store.StatusLobby}, []store.Seat{{Seat: 1, Name: "a"}}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make(chan error, 64)
		for range 64 {
			wg.Go(func() {
				<-start
				if _, _, err := db.Table(ctx, store.KindOnline, "t1"); err != nil {
					errs <- err
				}
			})
		}
		close(start)
		wg.Wait()
		cancel()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: a read transaction among 64 at once: %v", round, err)
		}
		db.Close()
	}
}
