package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"testing"
	"time"

	"mafia/engine"
	"mafia/store/internal/fence"
	"mafia/store/storetest"
)

// TestMigration_EventFencesComeAndGo: a file whose events carry their
// fences migrated down to 00010 loses the column and keeps the events;
// opened again it comes back up, the events from before carrying 0, the
// new ones their token.
func TestMigration_EventFencesComeAndGo(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	log, _ := storetest.BotGame(t, 21)
	storetest.CreateTable(t, db, "x")
	l, err := db.Acquire(ctx, "x", "node-a", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	fctx := fence.With(ctx, "x", l.Token)
	if err := db.AppendEvents(fctx, "x", 0, log[:3]); err != nil {
		t.Fatal(err)
	}
	if got, err := db.EventFences(ctx, "x"); err != nil || !slices.Equal(got, []int64{l.Token, l.Token, l.Token}) {
		t.Fatalf("the fences: %v, %v; want three %d", got, err, l.Token)
	}
	db.Close()
	c, err := sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider(t, c).DownTo(ctx, 10); err != nil {
		t.Fatalf("down to 10: %v", err)
	}
	var n int
	if err := c.QueryRow(`SELECT count(*) FROM pragma_table_info('events') WHERE name = 'fence'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after the migration down: %d fence columns, %v", n, err)
	}
	c.Close()
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.AppendEvents(fctx, "x", 3, log[3:5]); err != nil {
		t.Fatal(err)
	}
	if got, err := db.EventFences(ctx, "x"); err != nil || !slices.Equal(got, []int64{0, 0, 0, l.Token, l.Token}) {
		t.Errorf("the fences after down and up: %v, %v; want three 0s (from before), then %d twice", got, err, l.Token)
	}
	if d := storetest.SameEvents(mustEvents(t, db, "x"), log[:5]); d != "" {
		t.Errorf("the log after down and up: %s", d)
	}
}

func mustEvents(t *testing.T, db *DB, id string) []engine.Event {
	t.Helper()
	evs, err := db.Events(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestAnAppendOfTheMostEventsCarriesItsFenceInEveryRow: an append and a
// rewrite of maxAppend events, each one INSERT (its parameters: the table
// and the token once, three per event, within SQLite's 32766), store every
// event with the fence's token; one event more is refused.
func TestAnAppendOfTheMostEventsCarriesItsFenceInEveryRow(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	log, _ := storetest.BotGame(t, 22)
	var evs []engine.Event
	for len(evs) < maxAppend+1 {
		evs = append(evs, log[1:len(log)-1]...) // neither starts nor ends the game
	}
	storetest.CreateTable(t, db, "x")
	l, err := db.Acquire(ctx, "x", "node-a", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	fctx := fence.With(ctx, "x", l.Token)
	if err := db.AppendEvents(fctx, "x", 0, evs[:maxAppend+1]); err == nil {
		t.Fatalf("an append of %d events was taken", maxAppend+1)
	}
	if err := db.AppendEvents(fctx, "x", 0, evs[:maxAppend]); err != nil {
		t.Fatal(err)
	}
	want := slices.Repeat([]int64{l.Token}, maxAppend)
	if got, err := db.EventFences(ctx, "x"); err != nil || !slices.Equal(got, want) {
		t.Fatalf("after the append: %d fences, %v; want %d of %d", len(got), err, maxAppend, l.Token)
	}
	// Once the lease is let go, the table is written without a fence.
	if err := db.Release(ctx, l); err != nil {
		t.Fatal(err)
	}
	if err := db.RewriteEvents(ctx, "x", 0, evs[:maxAppend]); err != nil {
		t.Fatal(err)
	}
	if got, err := db.EventFences(ctx, "x"); err != nil || !slices.Equal(got, make([]int64, maxAppend)) {
		t.Errorf("after an unfenced rewrite: %d fences, %v; want %d of 0", len(got), err, maxAppend)
	}
}
