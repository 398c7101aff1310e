package sqlite

import (
	"context"
	"errors"
	"mafia/store/storetest"
	"testing"

	"mafia/store"
)

// TestRewriteEventsCorrectsALog cuts a whole game's log and rewrites its
// tail, on a real file: the log reads back as rewritten, appends continue
// from the new length, and the file opened again holds the same log.
func TestRewriteEventsCorrectsALog(t *testing.T) {
	db, path := openTest(t)
	ctx := context.Background()
	log, _ := storetest.BotGame(t, 7)
	if len(log) < 40 {
		t.Fatalf("a short game: %d events", len(log))
	}
	other, _ := storetest.BotGame(t, 8)
	storetest.CreateTable(t, db, "a")
	storetest.CreateTable(t, db, "b")
	if err := db.AppendEvents(ctx, "a", 0, log); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(ctx, "b", 0, other[:10]); err != nil {
		t.Fatal(err)
	}

	// Cut the log at 20 (the game's end is gone), then append the rest.
	if err := db.RewriteEvents(ctx, "a", 20, nil); err != nil {
		t.Fatal(err)
	}
	got, err := db.Events(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if d := storetest.SameEvents(got, log[:20]); d != "" {
		t.Fatalf("after the cut: %s", d)
	}
	if err := db.AppendEvents(ctx, "a", 20, log[20:30]); err != nil {
		t.Fatalf("an append after the cut: %v", err)
	}
	// An append at the old length is refused now.
	if err := db.AppendEvents(ctx, "a", len(log), log[30:31]); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("an append at the old length: %v, want a conflict", err)
	}
	// Rewrite from 25 with the rest of the game: the log is whole again.
	if err := db.RewriteEvents(ctx, "a", 25, log[25:]); err != nil {
		t.Fatal(err)
	}
	if got, err = db.Events(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if d := storetest.SameEvents(got, log); d != "" {
		t.Fatalf("after the rewrite: %s", d)
	}
	// Another table's log is untouched.
	if got, err := db.Events(ctx, "b"); err != nil || storetest.SameEvents(got, other[:10]) != "" {
		t.Fatalf("the other table: %d events, %v", len(got), err)
	}

	// Refusals change nothing: beyond the end, a negative index, no table.
	if err := db.RewriteEvents(ctx, "a", len(log)+1, log[:1]); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("from beyond the end: %v, want a conflict", err)
	}
	if err := db.RewriteEvents(ctx, "a", -1, nil); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("from -1: %v, want a conflict", err)
	}
	if err := db.RewriteEvents(ctx, "nope", 0, log[:3]); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a missing table: %v, want not found", err)
	}
	if got, _ := db.Events(ctx, "a"); storetest.SameEvents(got, log) != "" {
		t.Fatal("a refused rewrite changed the log")
	}
	// A rewrite from the very start (the whole log replaced).
	if err := db.RewriteEvents(ctx, "b", 0, other); err != nil {
		t.Fatal(err)
	}

	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	for id, want := range map[string]int{"a": len(log), "b": len(other)} {
		got, err := db2.Events(ctx, id)
		if err != nil || len(got) != want {
			t.Fatalf("reopened, table %s: %d events, %v; want %d", id, len(got), err, want)
		}
	}
	if got, _ := db2.Events(ctx, "b"); storetest.SameEvents(got, other) != "" {
		t.Fatal("reopened: table b differs")
	}
}
