package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"mafia/engine"
	"mafia/rng"
	"mafia/store"
)

// appendOrder: appends continue the log exactly; one at an index that is
// not the log's length (behind it, past it, negative) is ErrConflict and
// writes nothing, and an empty append does nothing.
func appendOrder(t *testing.T, open Open) {
	db := open(t)
	log, _ := BotGame(t, 8)
	CreateTable(t, db, "x")
	CreateTable(t, db, "empty")
	if got := events(t, db, "empty"); len(got) != 0 {
		t.Errorf("an empty log: %d events", len(got))
	}
	if err := db.AppendEvents(bg, "x", 0, log[:2]); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(bg, "x", 2, log[2:4]); err != nil {
		t.Fatal(err)
	}
	for _, first := range []int{0, 2, 3, 5, 100, -1} {
		if err := db.AppendEvents(bg, "x", first, log[4:6]); !errors.Is(err, store.ErrConflict) {
			t.Errorf("an append at %d of a 4-event log: %v, want ErrConflict", first, err)
		}
	}
	if err := db.AppendEvents(bg, "x", 4, nil); err != nil {
		t.Errorf("an empty append: %v", err)
	}
	if err := db.AppendEvents(bg, "x", 4, log[4:5]); err != nil {
		t.Fatal(err)
	}
	if d := SameEvents(events(t, db, "x"), log[:5]); d != "" {
		t.Error(d)
	}
	// The whole rest at once, up to the game's end; then nothing continues
	// at a place that is not the end.
	if err := db.AppendEvents(bg, "x", 5, log[5:]); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(bg, "x", len(log)-1, log[:1]); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an append into an ended game's log: %v, want ErrConflict", err)
	}
	if d := SameEvents(events(t, db, "x"), log); d != "" {
		t.Error(d)
	}
}

func appendMissing(t *testing.T, open Open) {
	db := open(t)
	log, _ := BotGame(t, 3)
	if err := db.AppendEvents(bg, "nope", 0, log[:2]); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("append to a missing table: %v, want ErrNotFound", err)
	}
	if _, err := db.Events(bg, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("events of a missing table: %v, want ErrNotFound", err)
	}
	if err := db.AppendEventsClock(bg, "nope", 0, log[:1], store.Clock{Step: 1}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("append with a clock to a missing table: %v, want ErrNotFound", err)
	}
}

// botGamesReplay: complete random bot games, appended in batches, come back
// event for event, and the game replayed from each stored log equals the
// live one.
func botGamesReplay(t *testing.T, open Open) {
	db := open(t)
	games := 20
	if testing.Short() {
		games = 6
	}
	for i := range games {
		seed := rng.Derive(11, uint64(i))
		log, live := BotGame(t, seed)
		id := fmt.Sprintf("g%d", i)
		CreateTable(t, db, id)
		src := rng.New(seed)
		if err := AppendInBatches(bg, db, id, log, &src); err != nil {
			t.Fatal(err)
		}
		got := events(t, db, id)
		if d := SameEvents(got, log); d != "" {
			t.Fatalf("game %d: %s", i, d)
		}
		g, err := engine.Replay(got)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if !g.Equal(live) {
			t.Fatalf("game %d: the replay of the stored log differs from the live game", i)
		}
	}
}

// concurrentTables: many goroutines, each appending one game to its own
// table, all at once: every append lands, in order.
func concurrentTables(t *testing.T, open Open) {
	n := 100
	if testing.Short() {
		n = 30
	}
	db := open(t)
	logs := make([][]engine.Event, n)
	for i := range n {
		CreateTable(t, db, fmt.Sprintf("c%d", i))
		logs[i], _ = BotGame(t, rng.Derive(21, uint64(i)))
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			src := rng.New(uint64(i))
			if err := AppendInBatches(bg, db, fmt.Sprintf("c%d", i), logs[i], &src); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range n {
		if d := SameEvents(events(t, db, fmt.Sprintf("c%d", i)), logs[i]); d != "" {
			t.Errorf("table %d: %s", i, d)
		}
	}
}

// twoWriters: appends at the same place of one log, from many goroutines at
// once (as two servers that both think they own a table): exactly one is
// committed, every other is ErrConflict, and the log holds the winner's
// events alone. Round after round, at the log's new end.
func twoWriters(t *testing.T, open Open) {
	db := open(t)
	log, _ := BotGame(t, 5)
	CreateTable(t, db, "x")
	const writers = 8
	at := 0
	for round := 0; round < 5 && at+writers <= len(log); round++ {
		var wg sync.WaitGroup
		errs := make([]error, writers)
		start := make(chan struct{})
		for w := range writers {
			wg.Go(func() {
				<-start
				// Writer w appends w+1 events: the log says who won.
				errs[w] = db.AppendEvents(bg, "x", at, log[at:at+w+1])
			})
		}
		close(start)
		wg.Wait()
		won := -1
		for w, err := range errs {
			switch {
			case err == nil && won >= 0:
				t.Fatalf("round %d: writers %d and %d were both committed at %d", round, won, w, at)
			case err == nil:
				won = w
			case !errors.Is(err, store.ErrConflict):
				t.Fatalf("round %d: writer %d: %v, want ErrConflict", round, w, err)
			}
		}
		if won < 0 {
			t.Fatalf("round %d: no writer was committed", round)
		}
		at += won + 1
		if d := SameEvents(events(t, db, "x"), log[:at]); d != "" {
			t.Fatalf("round %d: %s", round, d)
		}
	}
}

// appendClock: events that begin a step are committed with the step's
// clock; an append refused for a conflict or a missing table leaves the
// clock as it was.
func appendClock(t *testing.T, open Open) {
	db := open(t)
	log, _ := BotGame(t, 5)
	CreateTable(t, db, "x")
	CreateTable(t, db, "y")
	first := store.Clock{Step: 1, Deadline: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Left: 30 * time.Second}
	if err := db.AppendEventsClock(bg, "x", 0, log[:2], first); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEventsClock(bg, "x", 1, log[1:3], store.Clock{Step: 2, Left: time.Second, Paused: true}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an append at the wrong index: %v, want ErrConflict", err)
	}
	paused := store.Clock{Step: 2, Left: 17*time.Second + 3, Paused: true}
	if err := db.AppendEventsClock(bg, "y", 0, log[:3], paused); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEventsClock(bg, "x", 2, nil, paused); err != nil {
		t.Errorf("an empty append: %v", err)
	}
	for id, want := range map[string]store.Clock{"x": first, "y": paused} {
		got, err := db.Clock(bg, id)
		if err != nil {
			t.Fatal(err)
		}
		if !sameClock(got, want) {
			t.Errorf("%s: clock %+v, want %+v", id, got, want)
		}
	}
	if d := SameEvents(events(t, db, "x"), log[:2]); d != "" {
		t.Errorf("x: %s; want the first 2 only", d)
	}
}

// appendTable: the events that start a game are committed with the
// table's new status, seed, data and clock, and those that end it with the
// result; a refused append (a conflict) saves neither the table nor the
// clock.
func appendTable(t *testing.T, open Open) {
	db := open(t)
	log, g := BotGame(t, 11)
	if err := db.CreateTable(bg, store.Table{ID: "x", Kind: store.KindOnline, Name: "x", Status: store.StatusLobby}, nil); err != nil {
		t.Fatal(err)
	}
	started := store.Table{ID: "x", Kind: store.KindOnline, Name: "x", Status: store.StatusPlaying, Seed: g.Seed(), Data: []byte(`{"a":1}`)}
	clk := store.Clock{Step: 1, Deadline: time.Unix(1_800_000_000, 0).UTC(), Left: time.Minute}
	if err := db.AppendEventsTable(bg, started, 1, log[:3], &clk); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("an append at the wrong index: %v, want ErrConflict", err)
	}
	if tb, _, _ := db.Table(bg, store.KindOnline, "x"); tb.Status != store.StatusLobby {
		t.Errorf("status %q after a refused append", tb.Status)
	}
	if c, _ := db.Clock(bg, "x"); c != (store.Clock{}) {
		t.Errorf("the clock of a refused append was saved: %+v", c)
	}
	if err := db.AppendEventsTable(bg, started, 0, log[:3], &clk); err != nil {
		t.Fatal(err)
	}
	tb, _, err := db.Table(bg, store.KindOnline, "x")
	if err != nil || tb.Status != store.StatusPlaying || tb.Seed != g.Seed() || string(tb.Data) != `{"a":1}` || tb.UpdatedAt.IsZero() {
		t.Errorf("after the start: %+v, %v", tb, err)
	}
	if c, _ := db.Clock(bg, "x"); !sameClock(c, clk) {
		t.Errorf("the clock after the start: %+v", c)
	}
	if err := db.AppendEvents(bg, "x", 3, log[3:len(log)-1]); err != nil {
		t.Fatal(err)
	}
	ended := started
	ended.Status, ended.Winner = store.StatusEnded, g.Winner().String()
	if err := db.AppendEventsTable(bg, ended, len(log)-1, log[len(log)-1:], nil); err != nil {
		t.Fatal(err)
	}
	tb, _, _ = db.Table(bg, store.KindOnline, "x")
	if tb.Status != store.StatusEnded || tb.Winner != g.Winner().String() {
		t.Errorf("after the end: status %q winner %q", tb.Status, tb.Winner)
	}
	if d := SameEvents(events(t, db, "x"), log); d != "" {
		t.Errorf("after the end: %s", d)
	}
	if c, _ := db.Clock(bg, "x"); !sameClock(c, clk) {
		t.Errorf("an end without a clock changed the clock: %+v", c)
	}
}

// rewrite: a log cut and rewritten reads back as rewritten, appends go on
// from the new length, refusals change nothing, another log is untouched.
func rewrite(t *testing.T, open Open) {
	db := open(t)
	log, _ := BotGame(t, 7)
	if len(log) < 40 {
		t.Fatalf("a short game: %d events", len(log))
	}
	other, _ := BotGame(t, 8)
	CreateTable(t, db, "a")
	CreateTable(t, db, "b")
	if err := db.AppendEvents(bg, "a", 0, log); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(bg, "b", 0, other[:10]); err != nil {
		t.Fatal(err)
	}
	if err := db.RewriteEvents(bg, "a", 20, nil); err != nil {
		t.Fatal(err)
	}
	if d := SameEvents(events(t, db, "a"), log[:20]); d != "" {
		t.Fatalf("after the cut: %s", d)
	}
	if err := db.AppendEvents(bg, "a", 20, log[20:30]); err != nil {
		t.Fatalf("an append after the cut: %v", err)
	}
	if err := db.AppendEvents(bg, "a", len(log), log[30:31]); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("an append at the old length: %v, want a conflict", err)
	}
	if err := db.RewriteEvents(bg, "a", 25, log[25:]); err != nil {
		t.Fatal(err)
	}
	if d := SameEvents(events(t, db, "a"), log); d != "" {
		t.Fatalf("after the rewrite: %s", d)
	}
	if d := SameEvents(events(t, db, "b"), other[:10]); d != "" {
		t.Fatalf("the other table: %s", d)
	}
	if err := db.RewriteEvents(bg, "a", len(log)+1, log[:1]); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("from beyond the end: %v, want a conflict", err)
	}
	if err := db.RewriteEvents(bg, "a", -1, nil); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("from -1: %v, want a conflict", err)
	}
	if err := db.RewriteEvents(bg, "nope", 0, log[:3]); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a missing table: %v, want not found", err)
	}
	if d := SameEvents(events(t, db, "a"), log); d != "" {
		t.Fatalf("a refused rewrite changed the log: %s", d)
	}
	// The whole log replaced, by another game's (another player count).
	if err := db.RewriteEvents(bg, "b", 0, other); err != nil {
		t.Fatal(err)
	}
	if d := SameEvents(events(t, db, "b"), other); d != "" {
		t.Fatalf("the log replaced from 0: %s", d)
	}
	if err := db.RewriteEvents(bg, "a", 0, other[:5]); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(bg, "a", 5, other[5:]); err != nil {
		t.Fatal(err)
	}
	if d := SameEvents(events(t, db, "a"), other); d != "" {
		t.Fatalf("a log begun again with another game: %s", d)
	}
}
