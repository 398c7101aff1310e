package room_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
)

// countingStore is the fixture's real SQLite store, counting every write a
// room asks of it.
type countingStore struct {
	room.Store
	writes atomic.Int64
}

func (c *countingStore) CreateTable(ctx context.Context, t store.Table, seats []store.Seat) error {
	c.writes.Add(1)
	return c.Store.CreateTable(ctx, t, seats)
}

func (c *countingStore) UpdateTable(ctx context.Context, t store.Table) error {
	c.writes.Add(1)
	return c.Store.UpdateTable(ctx, t)
}

func (c *countingStore) SaveSeats(ctx context.Context, id string, seats []store.Seat) error {
	c.writes.Add(1)
	return c.Store.SaveSeats(ctx, id, seats)
}

func (c *countingStore) AppendEvents(ctx context.Context, id string, first int, evs []engine.Event) error {
	c.writes.Add(1)
	return c.Store.AppendEvents(ctx, id, first, evs)
}

func (c *countingStore) AppendEventsClock(ctx context.Context, id string, first int, evs []engine.Event, clk store.Clock) error {
	c.writes.Add(1)
	return c.Store.AppendEventsClock(ctx, id, first, evs, clk)
}

func (c *countingStore) RewriteEvents(ctx context.Context, id string, from int, evs []engine.Event) error {
	c.writes.Add(1)
	return c.Store.RewriteEvents(ctx, id, from, evs)
}

func (c *countingStore) SaveClock(ctx context.Context, id string, clk store.Clock) error {
	c.writes.Add(1)
	return c.Store.SaveClock(ctx, id, clk)
}

func (c *countingStore) Heartbeat(ctx context.Context, at time.Time) error {
	c.writes.Add(1)
	return c.Store.Heartbeat(ctx, at)
}

// slowTimings keep a game going for minutes (every one a multiple of tick).
var slowTimings = map[string]int64{"speech": 120000, "defence": 60000, "tie_speech": 60000, "last_words": 60000,
	"night": 30000, "vote": 60000}

// abandoned is a game of a person (seat 1), the seatless host and bots,
// watched by a spectator, on a store that counts its writes.
type abandoned struct {
	f      *fixture
	store  *countingStore
	host   *client
	person *client
	watch  *client
	token  string
}

func newAbandoned(t *testing.T) *abandoned {
	t.Helper()
	a := &abandoned{}
	// Its bots wait a minute before each move (capped by each step's
	// time): whatever the deal, and even with its one person killed or
	// voted out early, the game is still on minutes later, when the tests
	// check that it froze. With bots that moved at once, such a game
	// ended within two minutes in about one run in eighty, and the test
	// of a person who comes back and leaves again found it ended, not
	// frozen.
	set := settings(t, 7, slowTimings)
	set.BotDelay = time.Minute
	a.f = newFixture(t, set, func(c *room.Config) {
		a.store = &countingStore{Store: c.Store}
		c.Store = a.store
	})
	a.host = a.f.hostClient()
	_, a.token = a.f.join("Nino", 1)
	a.person = a.f.attach(a.token)
	a.watch = a.f.attach("")
	a.host.must(hostAction("add_bots", 0))
	a.host.must(hostAction("start", 0))
	a.f.ticks(3 * time.Second)
	return a
}

// leave detaches the game's people (the spectator stays).
func (a *abandoned) leave() {
	a.f.r.Detach(a.host.sub)
	a.f.r.Detach(a.person.sub)
	a.f.sync()
	drainAll(a.host, a.person, a.watch)
}

// checkFrozen checks that the table says it is frozen, in the lobby and in
// the store, with left on its stopped clock.
func (a *abandoned) checkFrozen(t *testing.T, left time.Duration, hostPaused bool) {
	t.Helper()
	l := a.f.r.Lobby()
	if !l.Paused || l.PauseReason != "no_players" || l.Status != "playing" {
		t.Errorf("the lobby of a frozen game: paused %v, reason %q, status %q", l.Paused, l.PauseReason, l.Status)
	}
	tb, _ := a.f.storedTable()
	if tb.Status != store.StatusFrozen {
		t.Errorf("stored status %q, want frozen", tb.Status)
	}
	clk, err := a.f.db.Clock(bg(), tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if clk.Left != left || !clk.Deadline.IsZero() || clk.Paused != hostPaused {
		t.Errorf("stored clock %+v, want %v left, no deadline, host's pause %v", clk, left, hostPaused)
	}
}

// standsStill moves the clock by d and checks that nothing is written,
// nothing happens and nobody is sent anything.
func (a *abandoned) standsStill(t *testing.T, d time.Duration) {
	t.Helper()
	a.watch.drain() // what it was sent when it froze
	w, n := a.store.writes.Load(), len(a.f.events())
	for ; d > 0; d -= time.Minute {
		a.f.advance(time.Minute)
	}
	if got := a.store.writes.Load(); got != w {
		t.Errorf("a frozen game wrote %d times", got-w)
	}
	if got := len(a.f.events()); got != n {
		t.Errorf("a frozen game went on: %d events", got-n)
	}
	if frs := a.watch.drain(); len(frs) != 0 {
		t.Errorf("a frozen game sent %s", frs[0].raw)
	}
}

// leftNow is the time left of the current step, as the spectator's last
// deadline says.
func (a *abandoned) leftNow() time.Duration {
	return time.Duration(a.watch.lastDeadline()-a.f.nowMS()) * time.Millisecond
}

func TestAGameNobodyIsAtFreezesCostsNothingAndGoesOnWhenSomeoneComesBack(t *testing.T) {
	a := newAbandoned(t)
	f := a.f
	a.leave()
	// The grace time: the game goes on, on the clock and with its bots.
	w0 := a.store.writes.Load()
	f.ticks(room.DefaultFreezeAfter - tick)
	if a.store.writes.Load() == w0 {
		t.Fatal("the game stood still before the grace time was over")
	}
	if l := f.r.Lobby(); l.Paused {
		t.Fatal("frozen before the grace time was over")
	}
	a.watch.drain()
	f.advance(tick)
	frs := a.watch.drain()
	if len(frs) == 0 {
		t.Fatal("nothing was sent when the grace time ran out: the game did not freeze")
	}
	last := frs[len(frs)-1].msg
	if !last.Paused || last.Deadline != 0 || last.Lobby == nil || last.Lobby.PauseReason != "no_players" {
		t.Fatalf("freezing sent %d frames, the last not a lobby paused for no_players", len(frs))
	}
	left := a.leftNow() // what the step had left when it froze
	a.checkFrozen(t, left, false)
	a.standsStill(t, 10*time.Hour)

	// The person comes back: the step goes on with the time it had left.
	back := f.attach(a.token)
	welcome := back.frames[0].msg
	if welcome.Paused || welcome.Deadline != f.nowMS()+left.Milliseconds() {
		t.Errorf("the welcome back: paused %v, deadline %d, want now+%v", welcome.Paused, welcome.Deadline, left)
	}
	if l := f.r.Lobby(); l.Paused || l.PauseReason != "" {
		t.Errorf("the lobby after the return: paused %v %q", l.Paused, l.PauseReason)
	}
	if tb, _ := f.storedTable(); tb.Status != store.StatusPlaying {
		t.Errorf("stored status %q after the return", tb.Status)
	}
	if frs := a.watch.drain(); len(frs) == 0 || frs[len(frs)-1].msg.Paused {
		t.Errorf("the spectator was not told the game goes on")
	}
	n := len(f.events())
	f.ticks(left)
	if len(f.events()) == n {
		t.Error("the game did not go on at the end of its step")
	}
}

func TestAGameStaysFrozenAcrossARestartAndCostsNothing(t *testing.T) {
	a := newAbandoned(t)
	f := a.f
	a.leave()
	f.ticks(room.DefaultFreezeAfter)
	tb, _ := f.storedTable()
	clk, _ := f.db.Clock(bg(), tb.ID)
	if tb.Status != store.StatusFrozen {
		t.Fatalf("not frozen: %q", tb.Status)
	}
	s := f.crash(f.clk.Now())
	f.restart(s, f.clk.Now().Add(3*time.Hour))
	a.watch = f.attach("") // a spectator does not wake it
	a.checkFrozen(t, clk.Left, false)
	a.standsStill(t, 2*time.Hour)
	// Left alone, the frozen room stops after its linger time (a server
	// loads it again when asked).
	f.r.Detach(a.watch.sub)
	f.sync()
	f.clk.Advance(2 * time.Minute)
	select {
	case <-f.r.Done():
	case <-time.After(guard):
		t.Fatal("a frozen room with nobody connected did not stop")
	}
	if got, _ := f.storedTable(); got.Status != store.StatusFrozen {
		t.Errorf("stopped, the table is %q", got.Status)
	}
	// Loaded again (as a server does on a request) and rejoined by its person.
	s = f.crash(f.clk.Now())
	f.restart(s, f.clk.Now())
	back := f.attach(a.token)
	if m := back.frames[0].msg; m.Paused || m.Deadline != f.nowMS()+clk.Left.Milliseconds() {
		t.Errorf("after the restart, the welcome back: paused %v, deadline %d, want now+%v", m.Paused, m.Deadline, clk.Left)
	}
}

func TestAHostsPauseOutlastsAFreeze(t *testing.T) {
	a := newAbandoned(t)
	f := a.f
	a.watch.drain()
	left := a.leftNow()
	a.host.must(hostAction("pause", 0))
	a.leave()
	f.ticks(room.DefaultFreezeAfter)
	a.checkFrozen(t, left, true)
	a.standsStill(t, time.Hour)
	// The host comes back: paused by the host still; resumed, the time left.
	host := f.hostClient()
	if l := f.r.Lobby(); !l.Paused || l.PauseReason != "host" {
		t.Errorf("the host is back: paused %v, reason %q", l.Paused, l.PauseReason)
	}
	host.must(hostAction("resume", 0))
	a.watch.drain()
	if got := a.leftNow(); got != left {
		t.Errorf("resumed with %v left, want %v", got, left)
	}
}

func TestAPersonBackWithinTheGraceTimeKeepsTheGameGoing(t *testing.T) {
	a := newAbandoned(t)
	f := a.f
	a.leave()
	f.ticks(room.DefaultFreezeAfter - time.Second)
	back := f.attach(a.token)
	f.ticks(5 * time.Second) // past the freeze the first leave would have brought
	if l := f.r.Lobby(); l.Paused {
		t.Error("frozen with a person connected")
	}
	// A spectator alone is nobody: the game freezes a grace time after the
	// person leaves again.
	f.r.Detach(back.sub)
	f.sync()
	f.ticks(room.DefaultFreezeAfter)
	if l := f.r.Lobby(); l.PauseReason != "no_players" {
		t.Errorf("with only a spectator: paused %v %q, status %q", l.Paused, l.PauseReason, l.Status)
	}
}

// expiresAfter moves the clock by d in one step and reports whether the
// room stopped (expired) then.
func (f *fixture) stoppedAfter(d time.Duration) bool {
	f.t.Helper()
	f.clk.Advance(d)
	err := f.r.Leave(bg(), "a token nobody holds") // a round trip, or the refusal of a stopped room
	switch codeOf(err) {
	case room.CodeBadToken:
		return false
	case room.CodeExpired:
		return true
	}
	f.t.Fatalf("after %v: %v", d, err)
	return false
}

func TestALobbyNobodyIsAtExpires(t *testing.T) {
	t.Run("no seat taken: after EmptyLobbyExpiry", func(t *testing.T) {
		f := newFixture(t, settings(t, 5, nil), nil)
		spect := f.attach("") // a spectator is nobody
		if f.stoppedAfter(room.DefaultEmptyLobbyExpiry - time.Second) {
			t.Fatal("expired early")
		}
		if !f.stoppedAfter(time.Second) {
			t.Fatal("not expired")
		}
		checkExpired(t, f)
		if spect.drain(); !spect.closed {
			t.Error("the spectator's connection stays open")
		}
	})
	t.Run("a person seated, not connected: after LobbyExpiry since the join", func(t *testing.T) {
		f := newFixture(t, settings(t, 5, nil), nil)
		f.clk.Advance(5 * time.Minute)
		f.join("Nino", 1)
		if f.stoppedAfter(room.DefaultLobbyExpiry - time.Second) {
			t.Fatal("expired early")
		}
		if !f.stoppedAfter(time.Second) {
			t.Fatal("not expired")
		}
		checkExpired(t, f)
	})
	t.Run("the host connected: never; gone: after EmptyLobbyExpiry", func(t *testing.T) {
		f := newFixture(t, settings(t, 5, nil), nil)
		host := f.hostClient()
		for i := 0; i < 5; i++ {
			if f.stoppedAfter(time.Hour) {
				t.Fatal("expired with the host connected")
			}
		}
		f.r.Detach(host.sub)
		f.sync()
		if f.stoppedAfter(room.DefaultEmptyLobbyExpiry - time.Second) {
			t.Fatal("expired early")
		}
		if !f.stoppedAfter(time.Second) {
			t.Fatal("not expired")
		}
		checkExpired(t, f)
	})
	t.Run("restarted: counted again from the restart", func(t *testing.T) {
		f := newFixture(t, settings(t, 5, nil), nil)
		f.join("Nino", 1)
		s := f.crash(f.clk.Now())
		f.restart(s, f.clk.Now().Add(24*time.Hour))
		if f.stoppedAfter(room.DefaultLobbyExpiry - time.Second) {
			t.Fatal("expired early")
		}
		if !f.stoppedAfter(time.Second) {
			t.Fatal("not expired")
		}
		checkExpired(t, f)
	})
}

// checkExpired checks that an expired table says so: stored as expired, its
// room refusing with CodeExpired, and not loaded again.
func checkExpired(t *testing.T, f *fixture) {
	t.Helper()
	tb, seats := f.storedTable()
	if tb.Status != store.StatusExpired {
		t.Errorf("stored status %q, want expired", tb.Status)
	}
	if _, _, err := f.r.Join(bg(), room.JoinRequest{Name: "late"}); codeOf(err) != room.CodeExpired {
		t.Errorf("a join: %v", err)
	}
	if _, err := f.r.Attach(bg(), "", 0); codeOf(err) != room.CodeExpired {
		t.Errorf("an attach: %v", err)
	}
	if _, err := room.Resume(f.cfg, tb, seats, nil, store.Clock{}, time.Time{}); codeOf(err) != room.CodeExpired {
		t.Errorf("a resume: %v", err)
	}
}

// TestAFreezeTheStoreCannotWriteIsStoredOnceItCan: a freeze is nobody's
// request, so a store that cannot write it has nobody to refuse; the
// freeze's writes are kept and tried again, in order, and once the store
// writes again the table is stored frozen with the time that was left, as
// a restart must find it.
func TestAFreezeTheStoreCannotWriteIsStoredOnceItCan(t *testing.T) {
	a := newAbandoned(t)
	f := a.f
	a.leave()
	f.ticks(room.DefaultFreezeAfter - tick)
	readOnly := func(on bool) {
		t.Helper()
		if err := f.db.SetReadOnly(bg(), on); err != nil {
			t.Fatal(err)
		}
	}
	readOnly(true)
	a.watch.drain()
	f.advance(tick)
	a.watch.drain()
	left := a.leftNow() // what the step had left when it froze
	if l := f.r.Lobby(); !l.Paused || l.PauseReason != "no_players" {
		t.Fatalf("the game did not freeze: paused %v %q", l.Paused, l.PauseReason)
	}
	if tb, _ := f.storedTable(); tb.Status != store.StatusPlaying {
		t.Fatalf("a read-only store holds the status %q", tb.Status)
	}
	for i := 0; i < 5; i++ { // the store stays read-only for a while
		f.advance(time.Second)
	}
	if tb, _ := f.storedTable(); tb.Status != store.StatusPlaying {
		t.Fatalf("a read-only store holds the status %q", tb.Status)
	}
	readOnly(false)
	// The kept writes are tried again within one and a half seconds (a
	// second on average, jittered: persist.go).
	f.advance(2 * time.Second)
	a.checkFrozen(t, left, false)

	s := f.crash(f.clk.Now())
	f.restart(s, f.clk.Now().Add(time.Hour))
	a.watch = f.attach("")
	a.checkFrozen(t, left, false)
}
