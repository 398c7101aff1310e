package sqlite

import (
	"context"
	"errors"
	"fmt"
	"mafia/store/storetest"
	"strings"
	"testing"
	"time"

	"mafia/engine"
	"mafia/rng"
	"mafia/store"
)

// TestEvents_BotGamesSurviveReopenExactly stores complete random bot games,
// reopens the file, and checks every event came back unchanged and the game
// replayed from the stored log equals the live one.
func TestEvents_BotGamesSurviveReopenExactly(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	ctx := context.Background()
	db, path := openTest(t)
	logs := make([][]engine.Event, games)
	lives := make([]*engine.Game, games)
	for i := range games {
		seed := rng.Derive(11, uint64(i))
		logs[i], lives[i] = storetest.BotGame(t, seed)
		id := fmt.Sprintf("g%d", i)
		storetest.CreateTable(t, db, id)
		src := rng.New(seed)
		if err := storetest.AppendInBatches(ctx, db, id, logs[i], &src); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range games {
		got, err := db.Events(ctx, fmt.Sprintf("g%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if d := storetest.SameEvents(got, logs[i]); d != "" {
			t.Fatalf("game %d: %s", i, d)
		}
		g, err := engine.Replay(got)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if !g.Equal(lives[i]) {
			t.Fatalf("game %d: the replay of the stored log differs from the live game", i)
		}
	}
}

// TestEvents_AreReadableJSON pins the row shape: one row per event, its
// kind, and wire's JSON.
func TestEvents_AreReadableJSON(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	storetest.CreateTable(t, db, "t")
	log, _ := storetest.BotGame(t, 5)
	if err := db.AppendEvents(ctx, "t", 0, log); err != nil {
		t.Fatal(err)
	}
	var n int
	var kind, js string
	if err := db.r.QueryRow(`SELECT COUNT(*) FROM events WHERE table_id = 't'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != len(log) {
		t.Errorf("%d rows for %d events", n, len(log))
	}
	if err := db.r.QueryRow(`SELECT kind, json FROM events WHERE table_id = 't' AND seq = 0`).Scan(&kind, &js); err != nil {
		t.Fatal(err)
	}
	if kind != "game_started" || !strings.HasPrefix(js, `{"kind":"game_started"`) {
		t.Errorf("first row: %s %s", kind, js)
	}
	// The game has ended: its length is forgotten, and read again if needed.
	if _, ok := db.players.Load("t"); ok {
		t.Errorf("an ended game's player count is still remembered")
	}
	if err := db.AppendEvents(ctx, "t", len(log)-1, log[:1]); !errors.Is(err, store.ErrConflict) {
		t.Errorf("append into an ended game's log: %v, want ErrConflict", err)
	}
}

func TestAppend_MissingTableIsNotFound(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	log, _ := storetest.BotGame(t, 3)
	if err := db.AppendEvents(ctx, "nope", 0, log[:2]); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("append to a missing table: %v", err)
	}
	if _, err := db.Events(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("events of a missing table: %v", err)
	}
	storetest.CreateTable(t, db, "empty")
	if evs, err := db.Events(ctx, "empty"); err != nil || len(evs) != 0 {
		t.Errorf("events of an empty log: %v, %v", evs, err)
	}
}

// TestAppend_ConflictIsRefusedAloneInItsBatch queues appends so that they
// are committed in one batch: a conflicting one and one to a missing table
// are refused, and the others, including two to the same table in a row,
// are all committed.
func TestAppend_ConflictIsRefusedAloneInItsBatch(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	log, _ := storetest.BotGame(t, 8)
	storetest.CreateTable(t, db, "x")
	storetest.CreateTable(t, db, "y")
	if err := db.AppendEvents(ctx, "x", 0, log[:2]); err != nil {
		t.Fatal(err)
	}

	release := holdWriter(t, db)
	okX1 := queue(t, ctx, db, "x", 2, log[2:4])
	badX := queue(t, ctx, db, "x", 2, log[2:3]) // the log has 4 events by now
	okY := queue(t, ctx, db, "y", 0, log[:3])
	okX2 := queue(t, ctx, db, "x", 4, log[4:5]) // continues okX1 within the batch
	badY := queue(t, ctx, db, "y", 5, log[5:6]) // a gap
	missing := queue(t, ctx, db, "z", 0, log[:1])
	release()

	for name, c := range map[string]struct {
		ch   <-chan error
		want error
	}{
		"okX1": {okX1, nil}, "okX2": {okX2, nil}, "okY": {okY, nil},
		"badX": {badX, store.ErrConflict}, "badY": {badY, store.ErrConflict}, "missing": {missing, store.ErrNotFound},
	} {
		if err := <-c.ch; !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	for id, want := range map[string][]engine.Event{"x": log[:5], "y": log[:3]} {
		got, err := db.Events(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if d := storetest.SameEvents(got, want); d != "" {
			t.Errorf("%s: %s", id, d)
		}
	}
}

// TestAppend_FailedInsertIsUndoneAlone: if a row collides although the
// remembered length said it was free (someone else wrote the file), the
// append is refused with ErrConflict, its rows already written in the
// transaction are undone, and the others in the batch are committed.
func TestAppend_FailedInsertIsUndoneAlone(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	log, _ := storetest.BotGame(t, 9)
	storetest.CreateTable(t, db, "x")
	storetest.CreateTable(t, db, "y")
	if err := db.AppendEvents(ctx, "x", 0, log[:1]); err != nil {
		t.Fatal(err)
	}
	// Behind the store's back: event 2 of x.
	if _, err := db.w.Exec(`INSERT INTO events (table_id, seq, kind, json) SELECT 'x', 2, kind, json FROM events WHERE table_id = 'x' AND seq = 0`); err != nil {
		t.Fatal(err)
	}
	release := holdWriter(t, db)
	okY1 := queue(t, ctx, db, "y", 0, log[:2])
	badX := queue(t, ctx, db, "x", 1, log[1:4]) // event 1 goes in, event 2 collides
	okY2 := queue(t, ctx, db, "y", 2, log[2:3])
	release()
	if err := <-badX; !errors.Is(err, store.ErrConflict) {
		t.Errorf("colliding append: %v, want ErrConflict", err)
	}
	for _, ch := range []<-chan error{okY1, okY2} {
		if err := <-ch; err != nil {
			t.Error(err)
		}
	}
	var seqs []int
	rows, err := db.r.Query(`SELECT seq FROM events WHERE table_id = 'x' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s int
		rows.Scan(&s)
		seqs = append(seqs, s)
	}
	rows.Close()
	if fmt.Sprint(seqs) != "[0 2]" {
		t.Errorf("x has events %v, want [0 2] (event 1 undone)", seqs)
	}
	if got, _ := db.Events(ctx, "y"); storetest.SameEvents(got, log[:3]) != "" {
		t.Errorf("y: %s", storetest.SameEvents(got, log[:3]))
	}
	if _, err := db.Events(ctx, "x"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a log with a gap reads as %v, want an error", err)
	}
}

// TestAppend_CancelledWhileQueuedWritesNothing: a caller that gives up
// before the writer takes its append gets ctx.Err() and nothing is written.
func TestAppend_CancelledWhileQueuedWritesNothing(t *testing.T) {
	db, _ := openTest(t)
	log, _ := storetest.BotGame(t, 4)
	storetest.CreateTable(t, db, "x")
	release := holdWriter(t, db)
	ctx, cancel := context.WithCancel(context.Background())
	ch := queue(t, ctx, db, "x", 0, log[:2])
	cancel()
	if err := <-ch; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled append: %v", err)
	}
	release()
	bg := context.Background()
	if got, err := db.Events(bg, "x"); err != nil || len(got) != 0 {
		t.Errorf("after a cancelled append: %d events, %v", len(got), err)
	}
	if err := db.AppendEvents(bg, "x", 0, log[:2]); err != nil {
		t.Errorf("append after a cancelled one: %v", err)
	}
}

// TestClose_CommitsWhatIsQueued: Close waits for queued appends to be
// committed, then refuses new ones.
func TestClose_CommitsWhatIsQueued(t *testing.T) {
	ctx := context.Background()
	db, path := openTest(t)
	log, _ := storetest.BotGame(t, 6)
	for i := range 5 {
		storetest.CreateTable(t, db, fmt.Sprint(i))
	}
	release := holdWriter(t, db)
	var chs []<-chan error
	for i := range 5 {
		chs = append(chs, queue(t, ctx, db, fmt.Sprint(i), 0, log[:i+1]))
	}
	closed := make(chan error, 1)
	go func() { closed <- db.Close() }()
	waitFor(t, db.wr.Closed)
	if err := db.AppendEvents(ctx, "0", 1, log[1:2]); !errors.Is(err, ErrClosed) {
		t.Errorf("append while closing: %v, want ErrClosed", err)
	}
	release()
	for i, ch := range chs {
		if err := <-ch; err != nil {
			t.Errorf("append %d: %v", i, err)
		}
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range 5 {
		got, err := db.Events(ctx, fmt.Sprint(i))
		if err != nil || storetest.SameEvents(got, log[:i+1]) != "" {
			t.Errorf("table %d after Close: %d events, %v", i, len(got), err)
		}
	}
}

// TestAppendEventsClock_SavesBothOrNeither: events that begin a step are
// committed with the step's clock; an append refused for a conflict or a
// missing table leaves the clock as it was, while an accepted one in the
// same batch saves its own.
func TestAppendEventsClock_SavesBothOrNeither(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	log, _ := storetest.BotGame(t, 5)
	storetest.CreateTable(t, db, "x")
	storetest.CreateTable(t, db, "y")
	first := store.Clock{Step: 1, Deadline: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Left: 30 * time.Second}
	if err := db.AppendEventsClock(ctx, "x", 0, log[:2], first); err != nil {
		t.Fatal(err)
	}

	release := holdWriter(t, db)
	refused := queueClock(t, ctx, db, "x", 1, log[1:3], store.Clock{Step: 2, Left: time.Second, Paused: true})
	paused := store.Clock{Step: 2, Left: 17 * time.Second, Paused: true}
	accepted := queueClock(t, ctx, db, "y", 0, log[:3], paused)
	missing := queueClock(t, ctx, db, "z", 0, log[:1], paused)
	release()

	if err := <-refused; !errors.Is(err, store.ErrConflict) {
		t.Errorf("an append at the wrong index: %v, want ErrConflict", err)
	}
	if err := <-accepted; err != nil {
		t.Errorf("an append beside a refused one: %v", err)
	}
	if err := <-missing; !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an append to a missing table: %v, want ErrNotFound", err)
	}
	for id, want := range map[string]store.Clock{"x": first, "y": paused} {
		got, err := db.Clock(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got.Step != want.Step || !got.Deadline.Equal(want.Deadline) || got.Left != want.Left || got.Paused != want.Paused {
			t.Errorf("%s: clock %+v, want %+v", id, got, want)
		}
	}
	if got, err := db.Events(ctx, "x"); err != nil || storetest.SameEvents(got, log[:2]) != "" {
		t.Errorf("x: %d events, %v; want the first 2 only", len(got), err)
	}
}
