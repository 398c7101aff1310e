package room

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"mafia/engine"
	"mafia/store"
	"mafia/store/sqlite"
)

// TestNothingQueuedBeginsAfterStop pins what Stop promises a node that lets
// a table go (and then releases its lease): a request still in the inbox
// when Stop is called is never begun, but refused with CodeStopped, and
// writes nothing.
func TestNothingQueuedBeginsAfterStop(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	setup, err := engine.Preset(5)
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := Create(ctx, Config{Store: db, Clock: NewFakeClock(time.Unix(1_700_000_000, 0))}, Settings{Name: "t", Setup: setup})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	// The room is held in a request until Stop has been called.
	busy, release := make(chan struct{}), make(chan struct{})
	if err := r.post(func() { close(busy); <-release }); err != nil {
		t.Fatal(err)
	}
	<-busy
	joined := make(chan error, 1)
	go func() {
		_, _, err := r.Join(ctx, JoinRequest{Name: "late"})
		joined <- err
	}()
	waitFor(t, "the join queued", func() bool { return len(r.inbox) == 1 })
	stopped := make(chan struct{})
	go func() { r.Stop(); close(stopped) }()
	waitFor(t, "Stop called", func() bool {
		select {
		case <-r.quit:
			return true
		default:
			return false
		}
	})
	close(release)
	<-stopped
	if err := <-joined; !isCode(err, CodeStopped) {
		t.Errorf("a join queued when Stop was called: %v, want %s", err, CodeStopped)
	}
	_, seats, err := db.Table(ctx, store.KindOnline, r.ID())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seats {
		if s.Name != "" {
			t.Errorf("seat %d stored as %q after Stop", s.Seat, s.Name)
		}
	}
}

// waitFor polls cond, bounded by a deadlock guard (never a measure of time).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: never", what)
		}
	}
}

// isCode reports whether err is a refusal with code c.
func isCode(err error, c engine.Code) bool {
	e, ok := errorsAs(err)
	return ok && e.Code == c
}
