package room_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
	"mafia/wire"
)

// shareOf is what seat s may see of a log, each event as the JSON a frame
// carries it in.
func shareOf(t testing.TB, log []engine.Event, s int) [][]byte {
	t.Helper()
	if len(log) == 0 {
		return nil
	}
	g, err := engine.Replay(log)
	if err != nil {
		t.Errorf("the stored log does not replay: %v", err)
		return nil
	}
	var out [][]byte
	for _, e := range log {
		if v, ok := g.EventFor(e, engine.Seat(s)); ok {
			b, err := json.Marshal(wire.FromEvent(v, g.Players()))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

// sameEvents compares events as sent with events as expected, in order.
func sameEvents(got []json.RawMessage, want [][]byte) (int, bool) {
	if len(got) != len(want) {
		return min(len(got), len(want)), false
	}
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			return i, false
		}
	}
	return 0, true
}

// durableReader reads a subscriber's queue in its own goroutine as frames
// arrive, and checks at each frame, at that moment, that every event it
// carries is already in the store, at the place the seat's share of the
// log has it.
type durableReader struct {
	seat   int
	events []json.RawMessage
	last   *frame
	done   chan struct{}
}

func startDurableReader(t *testing.T, db store.Store, table string, sub *room.Sub) *durableReader {
	rd := &durableReader{seat: int(sub.Seat), done: make(chan struct{})}
	go func() {
		defer close(rd.done)
		for {
			o, ok := sub.Next(context.Background())
			if !ok {
				break
			}
			if o.Reply != nil {
				continue
			}
			stored, err := db.Events(bg(), table)
			if err != nil {
				t.Errorf("seat %d: reading the log: %v", rd.seat, err)
				return
			}
			fr, err := decodeFrame(o.Frame)
			if err != nil {
				t.Errorf("seat %d: %v", rd.seat, err)
				return
			}
			if n := len(fr.events); n > 0 {
				k := len(rd.events)
				share := shareOf(t, stored, rd.seat)
				if len(share) < k+n {
					t.Errorf("seat %d saw events %d..%d before the store had them (it has %d of the seat's): %s",
						rd.seat, k, k+n-1, len(share), o.Frame)
				} else if i, ok := sameEvents(fr.events, share[k:k+n]); !ok {
					t.Errorf("seat %d: event %d is %s, the store has %s", rd.seat, k+i, fr.events[i], share[k+i])
				}
				if fr.msg.Seq != k+n {
					t.Errorf("seat %d: frame seq %d after %d events", rd.seat, fr.msg.Seq, k+n)
				}
			}
			rd.events = append(rd.events, fr.events...)
			if fr.msg.View != nil {
				rd.last = &fr
			}
		}
	}()
	return rd
}

func (rd *durableReader) wait(t *testing.T) {
	t.Helper()
	select {
	case <-rd.done:
	case <-time.After(guard):
		t.Fatalf("seat %d: the reader did not finish", rd.seat)
	}
}

// TestEveryEventIsStoredBeforeAnyoneSeesIt plays games with bots, two
// silent people and a spectator: every frame's events, and every deadline,
// are in the store before the frame is queued; a step's clock is written
// with its events (no write of its own: one wait for the store per
// command). Between steps the deadline shown is the stored one.
func TestEveryEventIsStoredBeforeAnyoneSeesIt(t *testing.T) {
	for game := 0; game < 2; game++ {
		f, counter := newWatchedFixture(t)
		// People in seats 2 and 5 (they never act: their time runs out),
		// bots in the others; a spectator.
		var subs []*room.Sub
		for _, s := range []int{2, 5} {
			_, tok := f.join("person", s)
			sub, err := f.r.Attach(bg(), tok, 0)
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, sub)
		}
		spec, err := f.r.Attach(bg(), "", 0)
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, spec)
		var readers []*durableReader
		for _, sub := range subs {
			readers = append(readers, startDurableReader(t, f.db, f.r.ID(), sub))
		}
		host := f.hostClient()
		host.must(hostAction("add_bots", 0))
		host.must(hostAction("start", 0))
		for d := time.Duration(0); ; d += tick {
			host.drain()
			if host.ended() {
				break
			}
			if d > time.Hour {
				t.Fatalf("no end after an hour of play (%q)", host.phase())
			}
			// The room is idle: the deadline the host was shown last is
			// the one a restart would resume with.
			if dl := host.lastDeadline(); dl != 0 {
				if c, err := f.db.Clock(bg(), f.r.ID()); err != nil || c.Deadline.UnixMilli() != dl {
					t.Fatalf("the host was shown the deadline %d, the store has %d (step %d, %v)",
						dl, c.Deadline.UnixMilli(), c.Step, err)
				}
			}
			f.advance(tick)
		}

		// Stopping the room closes every queue: the readers have then seen
		// everything the room sent.
		f.r.Stop()
		for _, rd := range readers {
			rd.wait(t)
		}
		log := f.events()
		g := f.replay()
		if !g.Ended() {
			t.Fatal("the stored game has not ended")
		}
		if n := counter.clocks.Load(); n != 0 {
			t.Errorf("the clock was written on its own %d times, not with the step's events", n)
		}
		for _, rd := range readers {
			// Everything the seat was sent, in order, is exactly its share of
			// the stored log, and its last view is the stored game's.
			share := shareOf(t, log, rd.seat)
			if i, ok := sameEvents(rd.events, share); !ok {
				t.Errorf("seat %d was sent %d events, its share of the store is %d; first difference at %d",
					rd.seat, len(rd.events), len(share), i)
			}
			v := g.ViewFor(engine.Seat(rd.seat))
			want, _ := json.Marshal(wire.FromView(&v))
			if rd.last == nil || !bytes.Equal(rd.last.view, want) {
				t.Errorf("seat %d: the last view sent differs from the stored game's", rd.seat)
			}
		}
		hostShare := shareOf(t, log, 0)
		var hostEvents []json.RawMessage
		for _, fr := range host.frames {
			hostEvents = append(hostEvents, fr.events...)
		}
		if _, ok := sameEvents(hostEvents, hostShare); !ok {
			t.Errorf("the host (not seated) was sent %d events, the public log has %d", len(hostEvents), len(hostShare))
		}
	}
}

// watchedStore refuses every append while fail is set, as a full disk
// would, and counts the clocks written on their own.
type watchedStore struct {
	room.Store
	fail    atomic.Bool
	refused atomic.Int64
	clocks  atomic.Int64
}

func (s *watchedStore) AppendEvents(ctx context.Context, id string, first int, evs []engine.Event) error {
	if s.fail.Load() {
		s.refused.Add(1)
		return errors.New("disk full")
	}
	return s.Store.AppendEvents(ctx, id, first, evs)
}

func (s *watchedStore) AppendEventsClock(ctx context.Context, id string, first int, evs []engine.Event, c store.Clock) error {
	if s.fail.Load() {
		s.refused.Add(1)
		return errors.New("disk full")
	}
	return s.Store.AppendEventsClock(ctx, id, first, evs, c)
}

func (s *watchedStore) AppendEventsTable(ctx context.Context, t store.Table, first int, evs []engine.Event, c *store.Clock) error {
	if s.fail.Load() {
		s.refused.Add(1)
		return errors.New("disk full")
	}
	return s.Store.AppendEventsTable(ctx, t, first, evs, c)
}

func (s *watchedStore) SaveClock(ctx context.Context, id string, c store.Clock) error {
	s.clocks.Add(1)
	return s.Store.SaveClock(ctx, id, c)
}

// newWatchedFixture is a 7-seat table whose room writes through a
// watchedStore.
func newWatchedFixture(t *testing.T) (*fixture, *watchedStore) {
	ws := &watchedStore{}
	f := newFixture(t, settings(t, 7, fastTimings), func(c *room.Config) {
		ws.Store = c.Store
		c.Store = ws
	})
	return f, ws
}

// TestAnAppendTheStoreRefusesChangesNothing: while the store refuses
// appends, a start, a host's foul and the clock's timeouts are refused or
// retried, and the game stays as it was; once the store is back, the game
// goes on from there to its end, and a spectator was sent exactly the
// public share of what is stored.
func TestAnAppendTheStoreRefusesChangesNothing(t *testing.T) {
	for game := 0; game < 4; game++ {
		f, fs := newWatchedFixture(t)
		// Two people who never act: the clock moves the game.
		f.join("person", 2)
		f.join("person", 5)
		host := f.hostClient()
		spec := f.attach("")
		rd := startDurableReader(t, fs, f.r.ID(), spec.sub)
		host.must(hostAction("add_bots", 0))

		fs.fail.Store(true)
		if err := host.send(hostAction("start", 0)); codeOf(err) != room.CodeInternal {
			t.Fatalf("a start the store refused: %v, want %s", err, room.CodeInternal)
		}
		host.drain()
		if host.view != nil || len(f.events()) != 0 {
			t.Fatalf("after a refused start the game has started (%d events stored)", len(f.events()))
		}
		fs.fail.Store(false)
		host.must(hostAction("start", 0))
		for i := 0; i < 3+game*4; i++ {
			f.advance(tick)
		}
		host.drain()
		if host.ended() {
			t.Fatal("the game ended too soon for the test")
		}
		before, stored := host.view, len(f.events())

		fs.fail.Store(true)
		target := 0
		for _, st := range before.Seats {
			if st.Alive {
				target = st.Seat
				break
			}
		}
		if err := host.send(hostAction("foul", target)); codeOf(err) != room.CodeInternal {
			t.Fatalf("a foul the store refused: %v, want %s", err, room.CodeInternal)
		}
		for i := 0; i < 20; i++ { // deadlines fall due and are retried
			f.advance(tick)
		}
		host.drain()
		if n := len(f.events()); n != stored {
			t.Fatalf("the log grew from %d to %d events while the store refused them", stored, n)
		}
		if got, _ := json.Marshal(host.view); !bytes.Equal(got, mustJSON(t, before)) {
			t.Fatalf("the host's view changed while the store refused everything:\n%s\n%s", mustJSON(t, before), got)
		}
		if fs.refused.Load() < 2 {
			t.Fatalf("%d appends refused: the timeouts were not retried", fs.refused.Load())
		}

		fs.fail.Store(false)
		f.runToEnd(host, time.Hour)
		f.r.Stop()
		rd.wait(t)
		g := f.replay()
		if !g.Ended() {
			t.Fatal("the stored game has not ended")
		}
		// The room played on from the game as stored, not from one that
		// kept a refused command.
		v := g.ViewFor(0)
		if want := mustJSON(t, wire.FromView(&v)); rd.last == nil || !bytes.Equal(rd.last.view, want) {
			t.Errorf("the spectator's last view differs from the stored game's")
		}
		if i, ok := sameEvents(rd.events, shareOf(t, f.events(), 0)); !ok {
			t.Errorf("the spectator was sent %d events, not its share of the store; first difference at %d", len(rd.events), i)
		}
	}
}
