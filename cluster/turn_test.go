package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// turnConn is an owner's local connection in memory whose frames a room
// hands over at its turns' ends, as server.RelayedConn does (turnSource):
// queue adds a frame, as a room's turn does; turnRoom ends the turn.
// Written frames (the client's) go to the memConn.
type turnConn struct {
	*memConn

	mu     sync.Mutex
	queue  []string
	over   bool
	code   websocket.StatusCode
	reason string

	turn    atomic.Pointer[func()]
	done    atomic.Pointer[interface{ TurnDone() }]
	wake    chan struct{}
	waiting atomic.Int32 // pumpOut parked in Wait
	wakes   atomic.Int64 // Wake called
}

func newTurnConn() *turnConn {
	return &turnConn{memConn: newMemConn(false), wake: make(chan struct{}, 1)}
}

func (c *turnConn) queued(frame string) {
	c.mu.Lock()
	c.queue = append(c.queue, frame)
	c.mu.Unlock()
}

func (c *turnConn) end(code websocket.StatusCode, reason string) {
	c.mu.Lock()
	c.over, c.code, c.reason = true, code, reason
	c.mu.Unlock()
	c.Wake()
}

func (c *turnConn) pop() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		return "", false
	}
	f := c.queue[0]
	c.queue = c.queue[1:]
	return f, true
}

func (c *turnConn) Read(context.Context) (websocket.MessageType, []byte, error) {
	return 0, nil, errors.New("turnConn: read through Next")
}

func (c *turnConn) Next(ctx context.Context, f func(websocket.MessageType, []byte) error) error {
	for {
		if took, err := c.TryNext(f); took || err != nil {
			return err
		}
		if err := c.Wait(ctx); err != nil {
			return err
		}
	}
}

func (c *turnConn) TryNext(f func(websocket.MessageType, []byte) error) (bool, error) {
	if fr, ok := c.pop(); ok {
		return true, f(websocket.MessageText, []byte(fr))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.over {
		return false, websocket.CloseError{Code: c.code, Reason: c.reason}
	}
	return false, nil
}

func (c *turnConn) TakeQueued(f func(websocket.MessageType, []byte) error) (bool, error) {
	c.mu.Lock()
	over := c.over
	c.mu.Unlock()
	if over {
		c.Wake()
		return false, nil
	}
	if fr, ok := c.pop(); ok {
		return true, f(websocket.MessageText, []byte(fr))
	}
	return false, nil
}

func (c *turnConn) Wait(ctx context.Context) error {
	c.waiting.Add(1)
	defer c.waiting.Add(-1)
	select {
	case <-c.wake:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *turnConn) Wake() {
	c.wakes.Add(1)
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *turnConn) OnTurn(turn func(), done interface{ TurnDone() }) {
	c.done.Store(&done)
	c.turn.Store(&turn)
}

var _ turnSource = (*turnConn)(nil)

// turnRoom ends a room's turn that queued frames for cs, as the room
// does: each one's turn, then each group once.
func turnRoom(cs ...*turnConn) {
	var groups []interface{ TurnDone() }
	for _, c := range cs {
		(*c.turn.Load())()
		g := *c.done.Load()
		seen := false
		for _, h := range groups {
			seen = seen || h == g
		}
		if !seen {
			groups = append(groups, g)
		}
	}
	for _, g := range groups {
		g.TurnDone()
	}
}

// turnPairs opens k sessions between the linked nodes a (the clients'
// side, memConns; gated: clients that do not read until their gate is
// closed) and b (the owner's, turnConns), each given a first frame
// through its pumpOut (the welcome), which dials the link; running until
// the test ends.
func turnPairs(ctx context.Context, t *testing.T, a, b *Node, prefix string, k int, gated bool) (sa []*session, ma []*memConn, tb []*turnConn) {
	t.Helper()
	var wg sync.WaitGroup
	var all []*session
	for i := range k {
		id := fmt.Sprintf("%s%d", prefix, i)
		s1, err := a.newSession(id, b.ID(), "a")
		if err != nil {
			t.Fatal(err)
		}
		s2, err := b.newSession(id, a.ID(), "b")
		if err != nil {
			t.Fatal(err)
		}
		ca, cb := newMemConn(gated), newTurnConn()
		sa, ma, tb = append(sa, s1), append(ma, ca), append(tb, cb)
		all = append(all, s1, s2)
		wg.Add(2)
		go func() { defer wg.Done(); s1.run(ca) }()
		go func() { defer wg.Done(); s2.run(cb) }()
	}
	t.Cleanup(func() {
		for _, s := range all {
			s.fail(websocket.StatusNormalClosure, "")
		}
		wg.Wait()
	})
	o := b.outboxTo(a.ID())
	o.mu.Lock()
	if o.link == "" {
		o.link = a.linkAddr
	}
	o.mu.Unlock()
	for i, c := range tb {
		eventually(ctx, t, "b's pumpOut waits", func() bool { return c.waiting.Load() == 1 && c.turn.Load() != nil })
		c.queued(fmt.Sprintf("welcome %d", i))
		c.Wake()
	}
	if !gated {
		for i, c := range ma {
			eventually(ctx, t, fmt.Sprintf("client %d gets its welcome", i), func() bool { return len(c.writtenFrames()) == 1 })
		}
	}
	return sa, ma, tb
}

// TestATurnsFramesForSeatsRelayedThroughOneNodeAreOneLinkWriteOnTheRoomsGoroutine
// pins issue 27's last hand-offs taken away: the frames a room's turn
// queued for its seats relayed through one node are, when the turn's end
// returns, written to the link in one write made on the room's goroutine,
// with no session's pumpOut woken and no write by the outbox's sender;
// each client gets its own frame.
func TestATurnsFramesForSeatsRelayedThroughOneNodeAreOneLinkWriteOnTheRoomsGoroutine(t *testing.T) {
	ctx := within(t, 30*time.Second)
	const seats = 7
	a, b := linkedNodes(ctx, t, nil)
	_, ma, tb := turnPairs(ctx, t, a, b, "s", seats, false)
	eventually(ctx, t, "the welcomes' writes are done", func() bool { return b.outboxTo("a").wmu.TryLock() })
	b.outboxTo("a").wmu.Unlock()
	before := b.RelayStats()
	var wakes int64
	for i, c := range tb {
		wakes += c.wakes.Load()
		c.queued(fmt.Sprintf("update for seat %d", i))
	}
	turnRoom(tb...)
	after := b.RelayStats()
	if got := after.TurnWrites - before.TurnWrites; got != 1 {
		t.Fatalf("the turn's end made %d link writes, want 1", got)
	}
	if got := after.SenderWrites - before.SenderWrites; got != 0 {
		t.Fatalf("the sender made %d link writes for the turn, want none", got)
	}
	if got := after.TurnFrames - before.TurnFrames; got != seats {
		t.Fatalf("the turn put %d frames, want %d", got, seats)
	}
	for _, c := range tb {
		wakes -= c.wakes.Load()
	}
	if wakes != 0 {
		t.Fatalf("the turn woke pumpOut %d times, want none", -wakes)
	}
	for i, c := range ma {
		eventually(ctx, t, fmt.Sprintf("seat %d gets its frame", i), func() bool { return len(c.writtenFrames()) == 2 })
		if got, want := c.writtenFrames()[1], fmt.Sprintf("update for seat %d", i); got != want {
			t.Fatalf("seat %d got %q, want %q", i, got, want)
		}
	}
}

// TestRelayWindowBoundsFramesInFlightFromTheRoomsTurns pins flow control
// with the room's turns handing the frames over: while the client does not
// read, the turns never wait (a slow client never holds up the room),
// exactly Window frames are sent, the rest wait for pumpOut; once the
// client reads, every frame arrives in order, then the server's close.
func TestRelayWindowBoundsFramesInFlightFromTheRoomsTurns(t *testing.T) {
	ctx := within(t, 30*time.Second)
	const window, total = 8, 200
	a, b := linkedNodes(ctx, t, func(c *Config) { c.Window = window })
	sa, ma, tb := turnPairs(ctx, t, a, b, "s", 1, true)
	s, m, c := sa[0], ma[0], tb[0]
	arrived := func() int64 { return a.RelayStats().FramesIn + int64(len(s.in)) }
	for i := range total {
		c.queued(fmt.Sprintf("frame %d", i))
		turnRoom(c) // returns: the test would hang otherwise
	}
	c.end(websocket.StatusPolicyViolation, "too_slow")
	eventually(ctx, t, "a window's frames reach a", func() bool { return arrived() == window })
	if got := b.RelayStats().FramesOut; got != window {
		t.Fatalf("b sent %d frames to a stuck client, want %d", got, window)
	}
	close(m.gate)
	eventually(ctx, t, "the client gets the server's close", func() bool { _, _, ok := m.closeOf(); return ok })
	got := m.writtenFrames()
	if len(got) != total+1 {
		t.Fatalf("the client got %d frames, want %d", len(got), total+1)
	}
	for i, f := range got[1:] {
		if f != fmt.Sprintf("frame %d", i) {
			t.Fatalf("frame %d is %q: out of order", i, f)
		}
	}
	if code, reason, _ := m.closeOf(); code != websocket.StatusPolicyViolation || reason != "too_slow" {
		t.Fatalf("the client's close is %d %q, want 1008 too_slow", code, reason)
	}
}

// TestFramesOfOneTurnForTwoRelayedSessionsNeverCross pins that two
// sessions whose frames the same turns hand over each get their own, in
// order, and none of the other's, one of them stuck (its client not
// reading) without holding up the other.
func TestFramesOfOneTurnForTwoRelayedSessionsNeverCross(t *testing.T) {
	ctx := within(t, 30*time.Second)
	const window, total = 8, 50
	a, b := linkedNodes(ctx, t, func(c *Config) { c.Window = window })
	_, m1s, t1s := turnPairs(ctx, t, a, b, "one", 1, false)
	_, m2s, t2s := turnPairs(ctx, t, a, b, "two", 1, true)
	m1, m2, q1, q2 := m1s[0], m2s[0], t1s[0], t2s[0]
	for i := range total {
		q1.queued(fmt.Sprintf("one %d", i))
		q2.queued(fmt.Sprintf("two %d", i))
		turnRoom(q1, q2)
	}
	eventually(ctx, t, "the reading client gets its frames", func() bool { return len(m1.writtenFrames()) == total+1 })
	if got := len(m2.writtenFrames()); got != 0 {
		t.Fatalf("the stuck client wrote %d frames", got)
	}
	close(m2.gate)
	eventually(ctx, t, "the other client gets its frames", func() bool { return len(m2.writtenFrames()) == total+1 })
	for k, m := range map[string]*memConn{"one": m1, "two": m2} {
		for i, f := range m.writtenFrames()[1:] {
			if f != fmt.Sprintf("%s %d", k, i) {
				t.Fatalf("client %s's frame %d is %q", k, i, f)
			}
		}
	}
}
