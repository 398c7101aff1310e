package room_test

// The room under a table lease's fence (fence.go): every write carries the
// token, and the first one the store refuses (the lease passed to another
// node) lets the table go at once. The leases are the real SQLite store's;
// "another node" takes one over by the lease's own rules (the holder
// releases it, node b acquires it with a larger token), so nothing waits for
// a clock.

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafia/engine"
	"mafia/internal/sqlitetest"
	"mafia/locale"
	"mafia/room"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/store/storetest"
)

// fencedWrite is one write of the table's state the room asked of the
// store: what it was, the fence its context carried, and the answer.
type fencedWrite struct {
	kind   string
	token  int64
	fenced bool
	err    error
}

// fenceWatch is the fixture's real SQLite store (its chats and leases
// too), recording every write of a table's state with its fence.
type fenceWatch struct {
	*sqlite.DB
	mu     sync.Mutex
	writes []fencedWrite
}

func (w *fenceWatch) note(ctx context.Context, kind, table string, err error) error {
	tok, ok := storetest.FenceOf(ctx, table)
	w.mu.Lock()
	w.writes = append(w.writes, fencedWrite{kind: kind, token: tok, fenced: ok, err: err})
	w.mu.Unlock()
	return err
}

// since returns the writes from the n-th on.
func (w *fenceWatch) since(n int) []fencedWrite {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]fencedWrite(nil), w.writes[min(n, len(w.writes)):]...)
}

func (w *fenceWatch) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.writes)
}

func (w *fenceWatch) AppendEvents(ctx context.Context, id string, first int, evs []engine.Event) error {
	return w.note(ctx, "events", id, w.DB.AppendEvents(ctx, id, first, evs))
}

func (w *fenceWatch) AppendEventsClock(ctx context.Context, id string, first int, evs []engine.Event, c store.Clock) error {
	return w.note(ctx, "events+clock", id, w.DB.AppendEventsClock(ctx, id, first, evs, c))
}

func (w *fenceWatch) AppendEventsTable(ctx context.Context, t store.Table, first int, evs []engine.Event, c *store.Clock) error {
	return w.note(ctx, "events+table", t.ID, w.DB.AppendEventsTable(ctx, t, first, evs, c))
}

func (w *fenceWatch) RewriteEvents(ctx context.Context, id string, from int, evs []engine.Event) error {
	return w.note(ctx, "rewrite", id, w.DB.RewriteEvents(ctx, id, from, evs))
}

func (w *fenceWatch) UpdateTable(ctx context.Context, t store.Table) error {
	return w.note(ctx, "table", t.ID, w.DB.UpdateTable(ctx, t))
}

func (w *fenceWatch) SaveSeats(ctx context.Context, id string, seats []store.Seat) error {
	return w.note(ctx, "seats", id, w.DB.SaveSeats(ctx, id, seats))
}

func (w *fenceWatch) SaveClock(ctx context.Context, id string, c store.Clock) error {
	return w.note(ctx, "clock", id, w.DB.SaveClock(ctx, id, c))
}

func (w *fenceWatch) AppendChat(ctx context.Context, id string, l store.ChatLine) error {
	return w.note(ctx, "chat", id, w.DB.AppendChat(ctx, id, l))
}

// fencedTable is a fixture whose table is owned by node a: Config.Own
// takes its lease when Create has made it (own false: nobody owns it at
// the creation), and Config.Lost counts the losses.
type fencedTable struct {
	*fixture
	w      *fenceWatch
	lease  store.Lease // node a's
	owned  int         // writes made before Own was called
	lost   atomic.Int64
	lostID atomic.Pointer[string]
	mark   int // writes before the takeover
}

func newFencedTable(t *testing.T, set room.Settings, own bool, mods ...func(*room.Config)) *fencedTable {
	t.Helper()
	ft := &fencedTable{owned: -1}
	ft.fixture = newFixture(t, set, func(c *room.Config) {
		for _, mod := range mods {
			mod(c)
		}
		ft.w = &fenceWatch{DB: c.Store.(*sqlite.DB)}
		c.Store = ft.w
		if own {
			c.Own = func(ctx context.Context, table string) (int64, error) {
				ft.owned = ft.w.count()
				l, err := ft.w.Acquire(ctx, table, "node-a", time.Hour)
				ft.lease = l
				return l.Token, err
			}
		}
		c.Lost = func(table string) {
			ft.lost.Add(1)
			ft.lostID.Store(&table)
		}
	})
	return ft
}

// takeOver passes the table's lease to node b, as a takeover or a handover
// would (the lease released, then acquired by b with a larger token).
func (ft *fencedTable) takeOver(t *testing.T) store.Lease {
	t.Helper()
	if err := ft.w.Release(bg(), ft.lease); err != nil {
		t.Fatal(err)
	}
	b, err := ft.w.Acquire(bg(), ft.r.ID(), "node-b", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if b.Token <= ft.lease.Token {
		t.Fatalf("node b's token %d is not larger than node a's %d", b.Token, ft.lease.Token)
	}
	ft.mark = ft.w.count()
	return b
}

// stored is the table's state in the store, to compare before and after.
type storedState struct {
	table store.Table
	seats []store.Seat
	log   []engine.Event
	clock store.Clock
	chat  []store.ChatLine
}

func (ft *fencedTable) stored(t *testing.T) []byte {
	t.Helper()
	var s storedState
	s.table, s.seats = ft.storedTable()
	s.log = ft.events()
	var err error
	if s.clock, err = ft.w.Clock(bg(), ft.r.ID()); err != nil {
		t.Fatal(err)
	}
	if s.chat, err = ft.w.Chat(bg(), ft.r.ID(), 0); err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, s)
}

// roundTrip waits for the room to handle what is queued, or to have
// stopped; it reports whether the room still runs.
func (ft *fencedTable) roundTrip(t *testing.T) bool {
	t.Helper()
	switch err := ft.r.Leave(bg(), "a token nobody holds"); codeOf(err) {
	case room.CodeBadToken, room.CodeAlreadyStarted:
		return true
	case room.CodeMoved:
		return false
	default:
		t.Fatalf("a round trip: %v", err)
		return false
	}
}

// untilGone moves the clock by tick until the room has stopped, for at most
// limit of the clock.
func (ft *fencedTable) untilGone(t *testing.T, limit time.Duration) {
	t.Helper()
	for d := time.Duration(0); ft.roundTrip(t); d += tick {
		if d > limit {
			t.Fatalf("the room still runs %v after its table moved", limit)
		}
		ft.clk.Advance(tick)
	}
}

// checkGone checks that the room let the table go at the first write
// after the takeover, and at once: that write (of kind, if given) was
// refused as fenced, no other was tried, not even after a while; the
// store holds what it held at the takeover (before); every client was
// dropped with CodeMoved and sent nothing more; Lost was called once; the
// room is done and says it moved, and refuses with CodeMoved.
func (ft *fencedTable) checkGone(t *testing.T, before []byte, kind string, cs ...*client) {
	t.Helper()
	select {
	case <-ft.r.Done():
	case <-time.After(guard):
		t.Fatal("the room did not stop when its table moved")
	}
	for i := 0; i < 50; i++ { // whatever the room would have tried again, every second
		ft.clk.Advance(time.Second)
	}
	ws := ft.w.since(ft.mark)
	if len(ws) != 1 || !errors.Is(ws[0].err, store.ErrFenced) || (kind != "" && ws[0].kind != kind) {
		t.Errorf("writes after the takeover: %+v; want one %s, refused as fenced", ws, kind)
	}
	if after := ft.stored(t); string(after) != string(before) {
		t.Errorf("the store changed after the takeover:\n%s\n%s", before, after)
	}
	for _, c := range cs {
		if frs := c.drain(); len(frs) != 0 {
			t.Errorf("seat %d was sent %s after the table moved", c.seat, frs[0].raw)
		}
		if !c.closed || c.sub.Why() != room.CodeMoved {
			t.Errorf("seat %d: closed %v, why %q; want dropped with %s", c.seat, c.closed, c.sub.Why(), room.CodeMoved)
		}
	}
	if n := ft.lost.Load(); n != 1 {
		t.Errorf("Lost called %d times, want once", n)
	} else if id := ft.lostID.Load(); *id != ft.r.ID() {
		t.Errorf("Lost(%q), want the table %q", *id, ft.r.ID())
	}
	if !ft.r.Moved() {
		t.Error("the room does not say it moved")
	}
	if _, _, err := ft.r.Join(bg(), room.JoinRequest{Name: "late"}); codeOf(err) != room.CodeMoved {
		t.Errorf("a join after the move: %v, want %s", err, room.CodeMoved)
	}
	if _, err := ft.r.Attach(bg(), "", 0); codeOf(err) != room.CodeMoved {
		t.Errorf("an attach after the move: %v, want %s", err, room.CodeMoved)
	}
}

// aliveSeat is a living seat of the host's view.
func aliveSeat(t *testing.T, host *client) int {
	t.Helper()
	for _, st := range host.view.Seats {
		if st.Alive {
			return st.Seat
		}
	}
	t.Fatal("nobody alive")
	return 0
}

// clockedBots is a table of seven at fastTimings whose bots wait a tick
// before each move (a bot delay), so that its game moves only when the
// test moves the clock, and a second of it is far from the game's end. At
// the instant pace the bots play at once up to the next step that waits
// for its deadline: a second in, the game had now and then ended already
// (11 in 20,000 games; a first day whose every vote was cast at once),
// and a request that needs a game going was refused game_over.
func clockedBots(t *testing.T) room.Settings {
	set := settings(t, 7, fastTimings)
	set.BotDelay = tick
	return set
}

func TestAFencedRoomCarriesItsLeasesTokenOnEveryWrite(t *testing.T) {
	ft := newFencedTable(t, clockedBots(t), true)
	if ft.owned != 0 {
		t.Errorf("Own was called after %d writes of the table; want before any", ft.owned)
	}
	l, err := ft.w.Lease(bg(), ft.r.ID())
	if err != nil || l.Node != "node-a" || l.Token != ft.lease.Token || l.Token == 0 {
		t.Fatalf("the table's lease %+v, %v; want node-a's with the token Own returned (%d)", l, err, ft.lease.Token)
	}
	host := ft.hostClient()
	_, tok := ft.join("Nino", 1)
	p1 := ft.attach(tok)
	p1.must(chat("town", "hello"))
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	ft.ticks(time.Second)
	drainAll(host, p1)
	host.must(hostAction("pause", 0))
	host.must(hostAction("resume", 0))
	host.must(hostAction("foul", aliveSeat(t, host)))
	ft.runToEnd(host, time.Hour)
	ft.checkEnded(host)
	kinds := map[string]bool{}
	for _, w := range ft.w.since(0) {
		kinds[w.kind] = true
		if !w.fenced || w.token != ft.lease.Token || w.err != nil {
			t.Errorf("a %s write with fence %v %d (%v); want the lease's token %d, committed", w.kind, w.fenced, w.token, w.err, ft.lease.Token)
		}
	}
	for _, k := range []string{"seats", "chat", "events+table", "events+clock", "clock"} {
		if !kinds[k] {
			t.Errorf("no %s write seen (the game's writes: %v)", k, kinds)
		}
	}
	if ft.lost.Load() != 0 || ft.r.Moved() {
		t.Error("a room that kept its lease says it lost it")
	}
}

// TestTheRequestThatMeetsTheFenceIsRefusedAndTheRoomLetsGo: after the
// lease passed to another node, the next request that writes (whatever it
// writes) is refused with table_moved, nothing of it is stored or sent, and
// the room stops at once.
func TestTheRequestThatMeetsTheFenceIsRefusedAndTheRoomLetsGo(t *testing.T) {
	type table struct {
		ft      *fencedTable
		host    *client
		clients []*client
	}
	lobby := func(t *testing.T) table {
		ft := newFencedTable(t, clockedBots(t), true)
		host := ft.hostClient()
		_, tok := ft.join("Nino", 1)
		return table{ft, host, []*client{host, ft.attach(tok), ft.attach("")}}
	}
	playing := func(t *testing.T) table {
		tb := lobby(t)
		tb.host.must(hostAction("add_bots", 0))
		tb.host.must(hostAction("start", 0))
		tb.ft.ticks(time.Second)
		drainAll(tb.clients...)
		return tb
	}
	cases := []struct {
		name  string
		table func(*testing.T) table
		kind  string
		do    func(t *testing.T, tb table) error
	}{
		{"a host's foul (its events)", playing, "events", func(t *testing.T, tb table) error {
			return tb.host.send(hostAction("foul", aliveSeat(t, tb.host)))
		}},
		{"a pause (its clock)", playing, "clock", func(t *testing.T, tb table) error {
			return tb.host.send(hostAction("pause", 0))
		}},
		{"a chat line", lobby, "chat", func(t *testing.T, tb table) error {
			return tb.clients[1].send(chat("town", "still here?"))
		}},
		{"a join (the seats)", lobby, "seats", func(t *testing.T, tb table) error {
			_, tok, err := tb.ft.r.Join(bg(), room.JoinRequest{Name: "late", Seat: 2})
			if tok != "" {
				t.Error("a join the store refused gave a token")
			}
			return err
		}},
		{"the start (its events and the table)", func(t *testing.T) table {
			tb := lobby(t)
			tb.host.must(hostAction("add_bots", 0))
			return tb
		}, "events+table", func(t *testing.T, tb table) error {
			return tb.host.send(hostAction("start", 0))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := c.table(t)
			drainAll(tb.clients...)
			tb.ft.takeOver(t)
			before := tb.ft.stored(t)
			if err := c.do(t, tb); codeOf(err) != room.CodeMoved {
				t.Fatalf("after the takeover: %v, want %s", err, room.CodeMoved)
			}
			tb.ft.checkGone(t, before, c.kind, tb.clients...)
		})
	}
}

// TestAFencedBackgroundWriteStopsTheRoomAndIsNotTriedAgain: a write nobody
// asked for (a step's end on the clock, a freeze, a lobby's expiry) that
// meets the fence lets the table go as a request's does, and is neither
// retried nor kept to be written later.
func TestAFencedBackgroundWriteStopsTheRoomAndIsNotTriedAgain(t *testing.T) {
	t.Run("a step's end", func(t *testing.T) {
		ft := newFencedTable(t, clockedBots(t), true)
		host, watch := ft.hostClient(), ft.attach("")
		host.must(hostAction("add_bots", 0))
		host.must(hostAction("start", 0))
		ft.ticks(time.Second)
		drainAll(host, watch)
		ft.takeOver(t)
		before := ft.stored(t)
		ft.untilGone(t, time.Minute)
		ft.checkGone(t, before, "", host, watch)
	})
	t.Run("a freeze", func(t *testing.T) {
		// It freezes within the step it is in: no deadline comes first.
		ft := newFencedTable(t, settings(t, 7, slowTimings), true, func(c *room.Config) { c.FreezeAfter = 2 * time.Second })
		host, watch := ft.hostClient(), ft.attach("")
		_, tok := ft.join("Nino", 1)
		person := ft.attach(tok)
		host.must(hostAction("add_bots", 0))
		host.must(hostAction("start", 0))
		ft.ticks(3 * time.Second)
		ft.takeOver(t)
		before := ft.stored(t)
		ft.r.Detach(host.sub)
		ft.r.Detach(person.sub)
		ft.sync()
		drainAll(host, person, watch)
		ft.untilGone(t, time.Minute)
		ft.checkGone(t, before, "table", watch)
		if tb, _ := ft.storedTable(); tb.Status != store.StatusPlaying {
			t.Errorf("stored status %q: the next owner's game is %s", tb.Status, store.StatusPlaying)
		}
	})
	t.Run("a lobby's expiry", func(t *testing.T) {
		ft := newFencedTable(t, settings(t, 5, nil), true)
		watch := ft.attach("")
		ft.takeOver(t)
		before := ft.stored(t)
		ft.clk.Advance(room.DefaultEmptyLobbyExpiry)
		ft.checkGone(t, before, "table", watch)
	})
}

// TestAResumedRoomIsFencedWithConfigFence: a table loaded by a node that
// took its lease (Config.Fence) is written with that token, and let go when
// the lease passes on.
//
// Its bots move on the clock (clockedBots), which the test does not move
// after the restart: the host's fouls meet a game still going. At the
// instant pace a resumed room's bots (with a new seed of their own) play at
// once up to the next step that waits for its deadline, and from a vote
// where some had not voted before the crash that was now and then the
// game's end (a tie, both out by the all-vote, the mafia's win): the foul
// was refused game_over (about 1 run in 300, with or without -race).
func TestAResumedRoomIsFencedWithConfigFence(t *testing.T) {
	ft := newFencedTable(t, clockedBots(t), false)
	host := ft.hostClient()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	ft.ticks(time.Second)
	for _, w := range ft.w.since(0) {
		if w.fenced {
			t.Errorf("a %s write of a room without a fence carried token %d", w.kind, w.token)
		}
	}
	s := ft.crash(t0.Add(time.Second))
	l, err := ft.w.Acquire(bg(), s.table.ID, "node-a", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	ft.lease = l
	ft.cfg.Fence = l.Token
	ft.restart(s, t0.Add(2*time.Second))
	host, watch := ft.hostClient(), ft.attach("")
	mark := ft.w.count()
	host.must(hostAction("foul", aliveSeat(t, host)))
	ws := ft.w.since(mark)
	if len(ws) == 0 {
		t.Fatal("a foul wrote nothing")
	}
	for _, w := range ws {
		if !w.fenced || w.token != l.Token || w.err != nil {
			t.Errorf("a %s write of the resumed room: fence %v %d (%v); want %d, committed", w.kind, w.fenced, w.token, w.err, l.Token)
		}
	}
	drainAll(host, watch)
	ft.takeOver(t)
	before := ft.stored(t)
	if err := host.send(hostAction("foul", aliveSeat(t, host))); codeOf(err) != room.CodeMoved {
		t.Fatalf("a foul after the takeover: %v, want %s", err, room.CodeMoved)
	}
	ft.checkGone(t, before, "events", host, watch)
}

// TestCreateWhoseOwnFailsFailsWithItsError: Own is called once the store
// has the table and before anything else is written; its error is
// Create's, and no room runs.
func TestCreateWhoseOwnFailsFailsWithItsError(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w := &fenceWatch{DB: db}
	refused := errors.New("the lease is another node's")
	var calls int
	cfg := room.Config{Store: w, Clock: room.NewFakeClock(t0), Own: func(ctx context.Context, table string) (int64, error) {
		calls++
		if _, _, err := db.Table(ctx, store.KindOnline, table); err != nil {
			t.Errorf("Own(%q) before the store has the table: %v", table, err)
		}
		if n := w.count(); n != 0 {
			t.Errorf("Own called after %d writes", n)
		}
		return 0, refused
	}}
	r, host, err := room.Create(bg(), cfg, settings(t, 5, nil))
	if !errors.Is(err, refused) || r != nil || host != "" {
		t.Fatalf("Create with a failing Own: %v, %v, %q; want its error and no room", r, err, host)
	}
	if calls != 1 {
		t.Errorf("Own called %d times", calls)
	}
	if n := w.count(); n != 0 {
		t.Errorf("%d writes after Own failed", n)
	}
}

// TestTableMovedIsABusyCodeSaidInEveryLanguage: table_moved has its kind
// (a retry elsewhere, not the client's fault) and a sentence in each of
// the club's languages.
func TestTableMovedIsABusyCodeSaidInEveryLanguage(t *testing.T) {
	if k := room.Kinds[room.CodeMoved]; k != engine.KindBusy {
		t.Errorf("%s is of kind %v, want busy", room.CodeMoved, k)
	}
	for _, l := range locale.Langs() {
		p := locale.New(l)
		got := p.Refusal(&engine.Error{Code: room.CodeMoved})
		if got == p.T("error.generic", nil) || got == "" || got == "error.table_moved" {
			t.Errorf("%s: %s is said %q: the catalog lacks error.%s", l, room.CodeMoved, got, room.CodeMoved)
		}
	}
}

// TestAHandoverAfterMoveOrStopLosesNothing is a node letting a table go of
// its own accord (a drain's Move, or Stop): a background write kept while
// the store could not write (a freeze) is committed before it returns, so
// that once the lease is released the next owner loads the table as the
// room left it, and writes it with its own token. Move drops the table's
// connections with table_moved (they reconnect to the new owner at once),
// Stop with stopped; neither calls Lost.
func TestAHandoverAfterMoveOrStopLosesNothing(t *testing.T) {
	for _, c := range []struct {
		name  string
		move  bool
		why   engine.Code
		moved bool
	}{
		{"Move", true, room.CodeMoved, true},
		{"Stop", false, room.CodeStopped, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ft := newFencedTable(t, settings(t, 7, slowTimings), true, func(c *room.Config) { c.FreezeAfter = 2 * time.Second })
			host, watch := ft.hostClient(), ft.attach("")
			_, tok := ft.join("Nino", 1)
			person := ft.attach(tok)
			host.must(hostAction("add_bots", 0))
			host.must(hostAction("start", 0))
			ft.ticks(3 * time.Second)
			if err := ft.w.SetReadOnly(bg(), true); err != nil {
				t.Fatal(err)
			}
			ft.r.Detach(host.sub)
			ft.r.Detach(person.sub)
			for ft.r.Lobby().PauseReason != "no_players" {
				ft.advance(tick) // (its kept write is tried again a second later: not reached)
			}
			if tb, _ := ft.storedTable(); tb.Status != store.StatusPlaying {
				t.Fatalf("a read-only store holds the status %q", tb.Status)
			}
			if err := ft.w.SetReadOnly(bg(), false); err != nil {
				t.Fatal(err)
			}
			if c.move {
				ft.r.Move()
			} else {
				ft.r.Stop()
			}
			tb, seats := ft.storedTable()
			if tb.Status != store.StatusFrozen {
				t.Fatalf("stored status %q after %s; want the freeze kept before it, %s", tb.Status, c.name, store.StatusFrozen)
			}
			if watch.drain(); !watch.closed || watch.sub.Why() != c.why {
				t.Errorf("the spectator after %s: closed %v, why %q; want %s", c.name, watch.closed, watch.sub.Why(), c.why)
			}
			if _, err := ft.r.Attach(bg(), "", 0); codeOf(err) != c.why {
				t.Errorf("an attach after %s: %v, want %s", c.name, err, c.why)
			}
			if ft.r.Moved() != c.moved || ft.lost.Load() != 0 {
				t.Errorf("after %s: moved %v, Lost called %d times; want moved %v, Lost never", c.name, ft.r.Moved(), ft.lost.Load(), c.moved)
			}

			b := ft.takeOver(t)
			clk, err := ft.w.Clock(bg(), tb.ID)
			if err != nil {
				t.Fatal(err)
			}
			cfg := ft.cfg
			cfg.Own, cfg.Fence = nil, b.Token
			r, err := room.Resume(cfg, tb, seats, ft.events(), clk, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			ft.r = r
			if l := r.Lobby(); !l.Paused || l.PauseReason != "no_players" {
				t.Errorf("node b's room: paused %v %q; want frozen as it was left", l.Paused, l.PauseReason)
			}
			mark := ft.w.count()
			ft.attach(tok) // Nino is back: the game goes on, on node b
			ws := ft.w.since(mark)
			if len(ws) == 0 {
				t.Fatal("the thaw wrote nothing")
			}
			for _, w := range ws {
				if !w.fenced || w.token != b.Token || w.err != nil {
					t.Errorf("node b's %s write: fence %v %d (%v); want its token %d, committed", w.kind, w.fenced, w.token, w.err, b.Token)
				}
			}
			if tb, _ := ft.storedTable(); tb.Status != store.StatusPlaying {
				t.Errorf("stored status %q after the thaw on node b", tb.Status)
			}
		})
	}
}

// TestARoomFencedOutBeforeItRunsStopsAsItStarts: a table resumed with a
// token the lease no longer carries, whose first write comes before the
// room runs (its status repaired from its log), never runs a request: it
// stops as soon as it starts, moved, and refuses everyone with table_moved.
func TestARoomFencedOutBeforeItRunsStopsAsItStarts(t *testing.T) {
	ft := newFencedTable(t, settings(t, 7, fastTimings), true)
	host := ft.hostClient()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	ft.ticks(time.Second)
	s := ft.crash(t0.Add(time.Second))
	s.table.Status = store.StatusLobby // as an older server's crash between two writes left it
	ft.takeOver(t)
	before := ft.stored(t)
	cfg := ft.cfg
	cfg.Fence = ft.lease.Token // node a's, no longer the lease's
	r, err := room.Resume(cfg, s.table, s.seats, s.log, s.clock, s.alive)
	if err != nil {
		t.Fatal(err)
	}
	ft.r = r
	ft.checkGone(t, before, "table")
}
