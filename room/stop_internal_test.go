package room

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"mafia/engine"
	"mafia/internal/sqlitetest"
	"mafia/store"
	"mafia/store/sqlite"
)

// TestNothingQueuedBeginsAfterStop pins what Stop promises a node that lets
// a table go (and then releases its lease): a request still in the inbox
// when Stop is called is never begun, but refused with CodeStopped, and
// writes nothing.
func TestNothingQueuedBeginsAfterStop(t *testing.T) {
	ctx := context.Background()
	db, clk, setup := internalFixture(t, 5)
	r, _, err := Create(ctx, Config{Store: db, Clock: clk}, Settings{Name: "t", Setup: setup})
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

// stallingStore is the real store whose appends, once stall is set, wait
// as SQLite's do for a writer that is busy with a long commit: until their
// context ends, then they give up with its error, having written nothing.
type stallingStore struct {
	*sqlite.DB
	stall   atomic.Bool
	waiting chan struct{} // an append is waiting
}

func (s *stallingStore) wait(ctx context.Context) error {
	if !s.stall.Load() {
		return nil
	}
	s.waiting <- struct{}{}
	<-ctx.Done()
	return ctx.Err()
}

func (s *stallingStore) AppendEvents(ctx context.Context, id string, first int, evs []engine.Event) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.DB.AppendEvents(ctx, id, first, evs)
}

func (s *stallingStore) AppendEventsClock(ctx context.Context, id string, first int, evs []engine.Event, c store.Clock) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.DB.AppendEventsClock(ctx, id, first, evs, c)
}

func (s *stallingStore) AppendEventsTable(ctx context.Context, t store.Table, first int, evs []engine.Event, c *store.Clock) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.DB.AppendEventsTable(ctx, t, first, evs, c)
}

func (s *stallingStore) AppendChat(ctx context.Context, id string, l store.ChatLine) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.DB.AppendChat(ctx, id, l)
}

// TestAWriteCutShortByStopIsRefusedAsStopped pins what a client is told of
// a command whose write was still waiting for the store when the room was
// stopped (a server shutting down, a drain): not an internal error, since
// nothing failed, but the stopped room's refusal (stopped; table_moved for
// a table handed over), after which the protocol has it reconnect; nothing
// of it is written.
func TestAWriteCutShortByStopIsRefusedAsStopped(t *testing.T) {
	for _, c := range []struct {
		name string
		stop func(r *Room)
		want engine.Code
		act  func(r *Room) error
	}{
		{"a foul's events, stopped", (*Room).Stop, CodeStopped,
			func(r *Room) error { return r.hostAction("foul", 1) }},
		{"a foul's events, handed over", (*Room).Move, CodeMoved,
			func(r *Room) error { return r.hostAction("foul", 1) }},
		{"a chat line, stopped", (*Room).Stop, CodeStopped,
			func(r *Room) error { return r.storeChat(r.newChatLine("town", 1, "gg")) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			st := &stallingStore{DB: db, waiting: make(chan struct{}, 1)}
			setup, err := engine.Preset(5)
			if err != nil {
				t.Fatal(err)
			}
			r, host, err := Create(ctx, Config{Store: st, Clock: NewFakeClock(time.Unix(1_700_000_000, 0)), SendBuffer: 1 << 14},
				Settings{Name: "t", Setup: setup})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Stop()
			if _, err := r.Attach(ctx, host, 0); err != nil {
				t.Fatal(err)
			}
			if err := r.do(ctx, func() {
				if err := r.hostAction("add_bots", 0); err != nil {
					t.Error(err)
				}
				if err := r.hostAction("start", 0); err != nil {
					t.Error(err)
				}
			}); err != nil {
				t.Fatal(err)
			}
			// stored counts the table's events and chat lines in the store.
			stored := func() (int, int) {
				t.Helper()
				evs, err := db.Events(ctx, r.ID())
				if err != nil {
					t.Fatal(err)
				}
				lines, err := db.Chat(ctx, r.ID(), 0)
				if err != nil {
					t.Fatal(err)
				}
				return len(evs), len(lines)
			}
			evsBefore, linesBefore := stored()
			st.stall.Store(true)
			got := make(chan error, 1)
			go func() {
				var actErr error
				if err := r.do(ctx, func() { actErr = c.act(r) }); err != nil {
					got <- err
					return
				}
				got <- actErr
			}()
			<-st.waiting
			c.stop(r)
			if err := <-got; !isCode(err, c.want) {
				t.Errorf("the request waiting for the store when the room stopped: %v, want %s", err, c.want)
			}
			if evs, lines := stored(); evs != evsBefore || lines != linesBefore {
				t.Errorf("%d events and %d chat lines stored, %d and %d before: the given-up write was made",
					evs, lines, evsBefore, linesBefore)
			}
		})
	}
}
