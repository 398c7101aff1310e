package room_test

// The fixture every room test uses: a real SQLite store in a temporary
// directory, a fake clock, and clients that read what the room sends them.
//
// Synchronisation never sleeps. The room runs in its own goroutine, so a test
// waits for it with a round trip through its inbox (sync: a Leave with a token
// nobody holds, which changes nothing). Everything queued before that round
// trip has then been handled, and every frame it produced is already in the
// subscribers' queues, where drain reads it without blocking. Time passes only
// through FakeClock.Advance, after the room is idle (advance), and the clock
// waits for the room after each call it runs (settleClock), in ticks that
// land exactly on every deadline (all timings in these tests are multiples
// of the tick), so that each step's deadline is set from the instant the
// previous one ended.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"mafia/engine"
	"mafia/internal/sqlitetest"
	"mafia/rng"
	"mafia/room"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/wire"
)

// t0 is when every fake clock starts (a whole second).
var t0 = time.Unix(1_700_000_000, 0)

// tick is the step by which tests move the fake clock when they let a game
// run; every timing and bot delay below is a multiple of it.
const tick = 100 * time.Millisecond

// fastTimings make a game run in few ticks.
var fastTimings = map[string]int64{"speech": 1000, "defence": 500, "tie_speech": 500, "last_words": 500,
	"night": 1000, "vote": 500}

// guard bounds every wait on a channel: a deadlock guard, never a way to let
// time pass.
const guard = 10 * time.Second

func bg() context.Context { return context.Background() }

// settings returns a public table of a preset size.
func settings(t testing.TB, players int, timings map[string]int64) room.Settings {
	t.Helper()
	setup, err := engine.Preset(players)
	if err != nil {
		t.Fatal(err)
	}
	return room.Settings{Name: "test table", Public: true, Setup: setup, TimingMS: timings}
}

type fixture struct {
	t       testing.TB
	db      *sqlite.DB
	path    string
	clk     *room.FakeClock
	cfg     room.Config
	r       *room.Room
	host    string         // the host's token
	tokens  map[int]string // the seats' tokens, by seat (join)
	dropped atomic.Int64
}

// newFixture creates a table with set on a fresh store; mod may change the
// room's config.
func newFixture(t testing.TB, set room.Settings, mod func(*room.Config)) *fixture {
	t.Helper()
	f := &fixture{t: t, path: filepath.Join(t.TempDir(), "mafia.db"), tokens: map[int]string{}}
	db, err := sqlitetest.Open(f.path)
	if err != nil {
		t.Fatal(err)
	}
	f.db = db
	t.Cleanup(func() { db.Close() })
	f.clk = room.NewFakeClock(t0)
	f.cfg = room.Config{Store: db, Clock: f.clk, SendBuffer: 4096}
	f.cfg.Metrics.Dropped = func() { f.dropped.Add(1) }
	if mod != nil {
		mod(&f.cfg)
	}
	r, host, err := room.Create(bg(), f.cfg, set)
	if err != nil {
		t.Fatal(err)
	}
	f.r, f.host = r, host
	f.settleClock()
	t.Cleanup(func() { f.r.Stop() })
	return f
}

// settleClock makes the fixture's fake clock wait, after each call it runs,
// until the room has handled it and everything queued before it (Room.Idle):
// a call's work is done at the call's time, its own timers set, before the
// clock looks for the next call or moves on (FakeClock.SetSettle).
func (f *fixture) settleClock() {
	f.clk.SetSettle(func() { f.r.Idle() })
}

// sync waits until the room has handled everything queued so far.
func (f *fixture) sync() {
	f.t.Helper()
	err := f.r.Leave(bg(), "a token nobody holds")
	// A test that filled the inbox on purpose waits until the room has
	// worked through it (busy is the room's answer meanwhile).
	for deadline := time.Now().Add(guard); codeOf(err) == room.CodeBusy && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
		err = f.r.Leave(bg(), "a token nobody holds")
	}
	if c := codeOf(err); c != room.CodeBadToken && c != room.CodeAlreadyStarted {
		f.t.Fatalf("sync: %v", err)
	}
}

// advance moves the clock by d (which must not jump over a deadline) and
// waits for the room to handle what fell due. The room is idle first: what
// a test sent it without waiting for the answer (client.send) is handled
// at the time it was sent, never after the clock moved on.
func (f *fixture) advance(d time.Duration) {
	f.t.Helper()
	f.sync()
	f.clk.Advance(d)
	f.sync()
}

// ticks moves the clock by d in ticks, letting the room handle what falls
// due at each (bot turns scheduled on the way land on later ticks).
func (f *fixture) ticks(d time.Duration) {
	f.t.Helper()
	if d%tick != 0 {
		f.t.Fatalf("ticks(%v): not a multiple of %v", d, tick)
	}
	for ; d > 0; d -= tick {
		f.advance(tick)
	}
}

// nowMS is the fake clock's time in Unix milliseconds.
func (f *fixture) nowMS() int64 { return f.clk.Now().UnixMilli() }

// events returns the store's log.
func (f *fixture) events() []engine.Event {
	f.t.Helper()
	evs, err := f.db.Events(bg(), f.r.ID())
	if err != nil {
		f.t.Fatal(err)
	}
	return evs
}

// truth returns every seat's card, from the stored deal.
func (f *fixture) truth() []engine.Role {
	f.t.Helper()
	evs := f.events()
	if len(evs) == 0 || evs[0].Kind != engine.EvGameStarted {
		f.t.Fatal("no game in the store")
	}
	roles := make([]engine.Role, int(evs[0].Count)+1)
	for s := 1; s < len(roles); s++ {
		roles[s] = engine.Role(evs[0].PerSeat[s])
	}
	return roles
}

// replay rebuilds the stored game.
func (f *fixture) replay() *engine.Game {
	f.t.Helper()
	g, err := engine.Replay(f.events())
	if err != nil {
		f.t.Fatal(err)
	}
	return g
}

// join seats a person and returns their seat and token.
func (f *fixture) join(name string, seat int) (int, string) {
	f.t.Helper()
	s, tok, err := f.r.Join(bg(), room.JoinRequest{Name: name, Seat: seat})
	if err != nil {
		f.t.Fatalf("join %s at %d: %v", name, seat, err)
	}
	f.tokens[s] = tok
	return s, tok
}

// fillWithPeople seats a person in every seat, attaches each, and returns
// the clients by seat (index 0 unused).
func (f *fixture) fillWithPeople(n int) []*client {
	f.t.Helper()
	cs := make([]*client, n+1)
	for s := 1; s <= n; s++ {
		_, tok := f.join(fmt.Sprintf("player %d", s), s)
		cs[s] = f.attach(tok)
	}
	return cs
}

// attach connects a client with token ("" for a spectator).
func (f *fixture) attach(token string) *client {
	f.t.Helper()
	sub, err := f.r.Attach(bg(), token, 0)
	if err != nil {
		f.t.Fatalf("attach: %v", err)
	}
	c := &client{f: f, sub: sub, seat: int(sub.Seat)}
	c.drain()
	return c
}

// hostClient attaches the host (not seated).
func (f *fixture) hostClient() *client { return f.attach(f.host) }

// drainAll reads what every client has been sent.
func drainAll(cs ...*client) {
	for _, c := range cs {
		if c != nil {
			c.drain()
		}
	}
}

// frame is one frame a client received: decoded, and with its events and
// view kept as the exact JSON the room sent.
type frame struct {
	raw    []byte
	msg    wire.ServerMessage
	events []json.RawMessage
	view   json.RawMessage
}

// client is one connection's far end.
type client struct {
	f      *fixture
	sub    *room.Sub
	seat   int
	frames []frame // every frame but the pads
	// wire is every frame as it would go on the wire, pads included, in
	// order, each with the clock's time when the client read it.
	wire    []wireFrame
	replies []*room.Reply
	view    *wire.View // the latest view received
	fresh   bool       // a view came since the client last moved (randomMove)
	closed  bool       // the room closed Out
	nextID  int64
}

// wireFrame is one frame's length and kind, and when it was read.
type wireFrame struct {
	at    time.Duration // since t0
	size  int
	typ   string
	kinds []string // its events' kinds
}

// drain reads everything queued for the client without blocking and returns
// the new frames.
func (c *client) drain() []frame {
	c.f.t.Helper()
	start := len(c.frames)
	for !c.closed {
		o, ok, open := c.sub.Take()
		switch {
		case ok:
			c.take(o)
		case !open:
			c.closed = true
		default:
			return c.frames[start:]
		}
	}
	return c.frames[start:]
}

func (c *client) take(o room.Out) {
	c.f.t.Helper()
	if o.Reply != nil {
		c.replies = append(c.replies, o.Reply)
		return
	}
	fr, err := decodeFrame(o.Frame)
	if err != nil {
		c.f.t.Fatalf("seat %d: %v", c.seat, err)
	}
	wf := wireFrame{at: c.f.clk.Now().Sub(t0), size: len(o.Frame), typ: fr.msg.Type}
	for _, e := range fr.msg.Events {
		wf.kinds = append(wf.kinds, e.Kind)
	}
	c.wire = append(c.wire, wf)
	if fr.msg.Type == "pad" {
		if body := bytes.TrimRight(o.Frame, " "); string(body) != `{"v":1,"type":"pad"}` {
			c.f.t.Fatalf("seat %d: a pad with more than the pad: %q", c.seat, o.Frame)
		}
		return
	}
	if fr.msg.View != nil {
		c.view = fr.msg.View
		c.fresh = true
	}
	c.frames = append(c.frames, fr)
}

func decodeFrame(data []byte) (frame, error) {
	fr := frame{raw: data}
	// Padding is spaces after the closing brace, nothing else.
	if body := bytes.TrimRight(data, " "); len(body) == 0 || body[len(body)-1] != '}' {
		return fr, fmt.Errorf("a frame padded with more than spaces after its end: %q", data)
	}
	if err := json.Unmarshal(data, &fr.msg); err != nil {
		return fr, fmt.Errorf("bad frame %s: %v", data, err)
	}
	var raw struct {
		Events []json.RawMessage `json:"events"`
		View   json.RawMessage   `json:"view"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return fr, fmt.Errorf("bad frame %s: %v", data, err)
	}
	fr.events, fr.view = raw.Events, raw.View
	if fr.msg.V != wire.Version {
		return fr, fmt.Errorf("frame without version: %s", data)
	}
	return fr, nil
}

// send submits m and returns the room's answer to it. The answer comes
// after everything the request caused, so every frame it sent anyone is
// queued by then.
func (c *client) send(m wire.ClientMessage) error {
	c.f.t.Helper()
	c.nextID++
	m.V, m.ID = wire.Version, c.nextID
	if err := c.f.r.Submit(c.sub, m, c.f.clk.Now()); err != nil {
		c.f.t.Fatalf("submit %+v: %v", m, err)
	}
	for {
		for i, r := range c.replies {
			if r.ID == m.ID {
				c.replies = append(c.replies[:i], c.replies[i+1:]...)
				return r.Err
			}
		}
		if answer := map[string]string{"ping": "pong", "history": "history"}[m.Type]; answer != "" && len(c.frames) > 0 {
			if last := c.frames[len(c.frames)-1].msg; last.Type == answer && last.ID == m.ID {
				return nil // its frame is its answer
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), guard)
		o, ok := c.sub.Next(ctx)
		timedOut := ctx.Err() != nil
		cancel()
		switch {
		case ok:
			c.take(o)
		case timedOut:
			c.f.t.Fatalf("seat %d: no answer to %+v", c.seat, m)
		default:
			c.closed = true
			c.f.t.Fatalf("seat %d: dropped while waiting for the answer to %+v", c.seat, m)
		}
	}
}

// must sends m and fails the test if it is refused.
func (c *client) must(m wire.ClientMessage) {
	c.f.t.Helper()
	if err := c.send(m); err != nil {
		c.f.t.Fatalf("seat %d: %+v refused: %v", c.seat, m, err)
	}
}

func command(verb string, target int) wire.ClientMessage {
	return wire.ClientMessage{Type: "command", Verb: verb, Target: target}
}

func hostAction(action string, target int) wire.ClientMessage {
	return wire.ClientMessage{Type: "host", Action: action, Target: target}
}

func chat(channel, text string) wire.ClientMessage {
	return wire.ClientMessage{Type: "chat", Channel: channel, Text: text}
}

// codeOf is the code of a refusal ("" for nil, "?" for an error without one).
func codeOf(err error) engine.Code {
	if err == nil {
		return ""
	}
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return "?"
}

// phase is the phase the client last saw ("" before the game).
func (c *client) phase() string {
	if c.view == nil {
		return ""
	}
	return c.view.Phase
}

// ended reports whether the client has seen the end of the game.
func (c *client) ended() bool { return c.phase() == "ended" }

// lastDeadline is the deadline of the latest frame that carried one.
func (c *client) lastDeadline() int64 {
	for i := len(c.frames) - 1; i >= 0; i-- {
		if d := c.frames[i].msg.Deadline; d != 0 {
			return d
		}
	}
	return 0
}

// kinds lists the kinds of the events in frames.
func kinds(frames []frame) []string {
	var out []string
	for _, fr := range frames {
		for _, e := range fr.msg.Events {
			out = append(out, e.Kind)
		}
	}
	return out
}

func hasKind(frames []frame, kind string) bool {
	for _, k := range kinds(frames) {
		if k == kind {
			return true
		}
	}
	return false
}

// randomMove picks uniformly among the moves the client's view lists as
// legal, "nothing" included, once per view: a move waits for the view it
// leads to (at night, the next tick).
func (c *client) randomMove(src *rng.Source) (wire.ClientMessage, bool) {
	v := c.view
	if v == nil || v.Phase == "ended" || !c.fresh {
		return wire.ClientMessage{}, false
	}
	var opts []wire.ClientMessage
	add := func(verb string, targets []int) {
		for _, t := range targets {
			opts = append(opts, command(verb, t))
		}
	}
	add("kill", v.Legal.Kill)
	add("check", v.Legal.Check)
	add("shoot", v.Legal.Shoot)
	add("heal", v.Legal.Heal)
	add("nominate", v.Legal.Nominate)
	add("vote", v.Legal.Vote)
	if v.Legal.Skip {
		opts = append(opts, command("skip", 0))
	}
	if v.Legal.AllVote {
		yes := command("all_vote", 0)
		yes.Yes = true
		opts = append(opts, yes, command("all_vote", 0))
	}
	if v.Legal.Pass {
		opts = append(opts, command("pass", 0))
	}
	if len(opts) == 0 {
		return wire.ClientMessage{}, false
	}
	i := src.Intn(len(opts) + 1)
	if i == len(opts) {
		return wire.ClientMessage{}, false
	}
	c.fresh = false
	return opts[i], true
}

// seatsOf returns the seats holding a role.
func seatsOf(roles []engine.Role, want func(engine.Role) bool) []int {
	var out []int
	for s := 1; s < len(roles); s++ {
		if want(roles[s]) {
			out = append(out, s)
		}
	}
	return out
}

func is(r engine.Role) func(engine.Role) bool { return func(x engine.Role) bool { return x == r } }

// storedTable reads the table back from the store.
func (f *fixture) storedTable() (store.Table, []store.Seat) {
	f.t.Helper()
	t, seats, err := f.db.Table(bg(), store.KindOnline, f.r.ID())
	if err != nil {
		f.t.Fatal(err)
	}
	return t, seats
}
