package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
	"mafia/store"
)

// openTest opens a fresh store in the test's temporary directory and closes
// it when the test ends.
func openTest(t testing.TB) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mafia.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

// botGame plays a complete game with random bots under random rules, as
// wire's round-trip test does, and returns its log and the live game.
func botGame(t testing.TB, seed uint64) ([]engine.Event, *engine.Game) {
	t.Helper()
	log, g, err := playBotGame(seed)
	if err != nil {
		t.Fatal(err)
	}
	return log, g
}

func playBotGame(seed uint64) ([]engine.Event, *engine.Game, error) {
	src := rng.New(seed)
	players := engine.PresetMin + src.Intn(engine.PresetMax-engine.PresetMin+1)
	setup, _ := engine.Preset(players)
	rules := engine.DefaultRules()
	for _, o := range engine.Options {
		if o.Values != nil {
			_ = rules.Set(o.Name, o.Values[src.Intn(len(o.Values))])
		}
	}
	g, start, err := engine.New(rules, setup.Deal(seed, nil), seed)
	if err != nil {
		return nil, nil, err
	}
	log := append([]engine.Event(nil), start...)
	bots := make([]bot.Bot, players+1)
	for s := 1; s <= players; s++ {
		bots[s] = bot.NewRandom(rng.Derive(seed, uint64(s)))
	}
	tb := &bot.Table{Game: g, Bots: bots, OnEvents: func(_ engine.Command, evs []engine.Event) {
		log = append(log, evs...)
	}}
	if !tb.Play(10000) {
		return nil, nil, fmt.Errorf("game of seed %d did not end", seed)
	}
	return log, g, nil
}

// createTable records a playing table with the given ID.
func createTable(t testing.TB, db *DB, id string) {
	t.Helper()
	err := db.CreateTable(context.Background(), store.Table{ID: id, Kind: store.KindOnline, Name: "table " + id, Status: store.StatusPlaying}, nil)
	if err != nil {
		t.Fatal(err)
	}
}

// appendInBatches appends a log in batches of 1-5 events, sized by src.
func appendInBatches(ctx context.Context, db *DB, id string, log []engine.Event, src *rng.Source) error {
	for i := 0; i < len(log); {
		n := min(1+src.Intn(5), len(log)-i)
		if err := db.AppendEvents(ctx, id, i, log[i:i+n]); err != nil {
			return fmt.Errorf("append %d..%d to %s: %w", i, i+n, id, err)
		}
		i += n
	}
	return nil
}

// sameEvents reports where two logs first differ, or "" if they are equal.
func sameEvents(got, want []engine.Event) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d events, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("event %d is %+v, want %+v", i, got[i], want[i])
		}
	}
	return ""
}

// holdWriter stalls the writer goroutine: it holds the one write connection
// and queues a dummy append, which the writer takes and then waits on.
// Appends queued meanwhile are committed together in the next batch, once
// release is called.
func holdWriter(t *testing.T, db *DB) (release func()) {
	t.Helper()
	tx, err := db.w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	dummy := &appendReq{table: "", done: make(chan struct{})}
	db.reqs <- dummy
	waitFor(t, func() bool { return dummy.state.Load() == reqTaken })
	return func() {
		tx.Rollback()
		<-dummy.done
	}
}

// waitFor polls cond until it holds, or fails the test after 10s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(time.Millisecond)
	}
}

// queue starts an append in its own goroutine and waits until it is in the
// writer's queue, so that appends queue in the order they are started. Its
// answer arrives on the returned channel.
func queue(t *testing.T, ctx context.Context, db *DB, id string, first int, evs []engine.Event) <-chan error {
	t.Helper()
	before := len(db.reqs)
	ch := make(chan error, 1)
	go func() { ch <- db.AppendEvents(ctx, id, first, evs) }()
	waitFor(t, func() bool { return len(db.reqs) == before+1 })
	return ch
}

// queueClock is queue for AppendEventsClock.
func queueClock(t *testing.T, ctx context.Context, db *DB, id string, first int, evs []engine.Event, c store.Clock) <-chan error {
	t.Helper()
	before := len(db.reqs)
	ch := make(chan error, 1)
	go func() { ch <- db.AppendEventsClock(ctx, id, first, evs, c) }()
	waitFor(t, func() bool { return len(db.reqs) == before+1 })
	return ch
}
