package sqlite

import (
	"context"
	"mafia/store/storetest"
	"testing"
	"time"

	"mafia/store"
)

// TestAppendEventsTable_SavesTheStatusWithTheEvents: the events that start
// a game are committed with the table's new status, seed and clock, and
// those that end it with the result, each in one transaction; when the
// table's row cannot be written (here a trigger refuses it, as a full disk
// would refuse any write), neither the events nor the clock are.
func TestAppendEventsTable_SavesTheStatusWithTheEvents(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	log, g := storetest.BotGame(t, 11)
	if err := db.CreateTable(ctx, store.Table{ID: "x", Kind: store.KindOnline, Name: "x", Status: store.StatusLobby}, nil); err != nil {
		t.Fatal(err)
	}
	started := store.Table{ID: "x", Kind: store.KindOnline, Name: "x", Status: store.StatusPlaying, Seed: g.Seed(), Data: []byte(`{"a":1}`)}
	clk := store.Clock{Step: 1, Deadline: time.Unix(1_800_000_000, 0).UTC(), Left: time.Minute}

	// A row that cannot be written takes the events and the clock with it.
	if _, err := db.w.Exec(`CREATE TRIGGER refuse BEFORE UPDATE ON tables BEGIN SELECT RAISE(ABORT, 'refused'); END`); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEventsTable(ctx, started, 0, log[:3], &clk); err == nil {
		t.Fatal("an append whose table row was refused succeeded")
	}
	if evs, _ := db.Events(ctx, "x"); len(evs) != 0 {
		t.Errorf("the events of a refused append were committed: %d", len(evs))
	}
	if c, _ := db.Clock(ctx, "x"); c != (store.Clock{}) {
		t.Errorf("the clock of a refused append was committed: %+v", c)
	}
	if tb, _, _ := db.Table(ctx, store.KindOnline, "x"); tb.Status != store.StatusLobby {
		t.Errorf("status %q after a refused append", tb.Status)
	}
	if _, err := db.w.Exec(`DROP TRIGGER refuse`); err != nil {
		t.Fatal(err)
	}

	if err := db.AppendEventsTable(ctx, started, 0, log[:3], &clk); err != nil {
		t.Fatal(err)
	}
	tb, _, err := db.Table(ctx, store.KindOnline, "x")
	if err != nil || tb.Status != store.StatusPlaying || tb.Seed != g.Seed() || string(tb.Data) != `{"a":1}` || tb.UpdatedAt.IsZero() {
		t.Errorf("after the start: %+v, %v", tb, err)
	}
	if c, _ := db.Clock(ctx, "x"); c.Step != 1 || !c.Deadline.Equal(clk.Deadline) {
		t.Errorf("the clock after the start: %+v", c)
	}
	if err := db.AppendEvents(ctx, "x", 3, log[3:len(log)-1]); err != nil {
		t.Fatal(err)
	}
	ended := started
	ended.Status, ended.Winner = store.StatusEnded, g.Winner().String()
	if err := db.AppendEventsTable(ctx, ended, len(log)-1, log[len(log)-1:], nil); err != nil {
		t.Fatal(err)
	}
	tb, _, _ = db.Table(ctx, store.KindOnline, "x")
	evs, _ := db.Events(ctx, "x")
	if tb.Status != store.StatusEnded || tb.Winner != g.Winner().String() || storetest.SameEvents(evs, log) != "" {
		t.Errorf("after the end: status %q winner %q, %d events of %d", tb.Status, tb.Winner, len(evs), len(log))
	}
}
