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

// memConn is a session's local connection in memory: what its peer sends
// is queued in reads (a frame with close set is the peer's close), and
// each Write waits for the gate while it is shut.
type memConn struct {
	reads     chan memFrame
	readCount atomic.Int64

	mu      sync.Mutex
	written []string
	gate    chan struct{} // nil: open; closed: open
	closed  chan struct{}
	once    sync.Once
	code    websocket.StatusCode
	reason  string
}

type memFrame struct {
	data   string
	close  bool
	code   websocket.StatusCode
	reason string
}

func newMemConn(gated bool) *memConn {
	c := &memConn{reads: make(chan memFrame, 1000), closed: make(chan struct{})}
	if gated {
		c.gate = make(chan struct{})
	}
	return c
}

func (c *memConn) Read(ctx context.Context) (websocket.MessageType, []byte, error) {
	select {
	case f := <-c.reads:
		c.readCount.Add(1)
		if f.close {
			c.end(f.code, f.reason)
			return 0, nil, websocket.CloseError{Code: f.code, Reason: f.reason}
		}
		return websocket.MessageText, []byte(f.data), nil
	case <-c.closed:
		return 0, nil, errors.New("memconn: closed")
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	}
}

func (c *memConn) Write(ctx context.Context, _ websocket.MessageType, p []byte) error {
	if c.gate != nil {
		select {
		case <-c.gate:
		case <-c.closed:
			return errors.New("memconn: closed")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	c.mu.Lock()
	c.written = append(c.written, string(p))
	c.mu.Unlock()
	return nil
}

func (c *memConn) end(code websocket.StatusCode, reason string) {
	c.once.Do(func() {
		c.mu.Lock()
		c.code, c.reason = code, reason
		c.mu.Unlock()
		close(c.closed)
	})
}

func (c *memConn) Close(code websocket.StatusCode, reason string) error {
	c.end(code, reason)
	return nil
}

func (c *memConn) CloseNow() error {
	c.end(websocket.StatusAbnormalClosure, "")
	return nil
}

func (c *memConn) closeOf() (websocket.StatusCode, string, bool) {
	select {
	case <-c.closed:
	default:
		return 0, "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.code, c.reason, true
}

func (c *memConn) writtenFrames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.written...)
}

// sessionPair opens both sides of one session between two met nodes over
// memConns and runs them until the test ends.
func sessionPair(ctx context.Context, t *testing.T, window int, gatedA bool) (a, b *Node, ma, mb *memConn, id string) {
	t.Helper()
	ca, cb := newFakeClock(), newFakeClock()
	a = startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick, Window: window})
	b = startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Window: window, Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
	id = "s1"
	sa, err := a.newSession(id, "b", "a")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.newSession(id, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	// The subscriptions must reach the other server before frames flow.
	for _, n := range []*Node{a, b} {
		if err := n.nc.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	eventually(ctx, t, "each side's subject is known to the other server", func() bool {
		return a.ns.NumSubscriptions() > 0 && b.ns.NumSubscriptions() > 0 && interest(b, sb.pub) && interest(a, sa.pub)
	})
	ma, mb = newMemConn(gatedA), newMemConn(false)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sa.run(ma) }()
	go func() { defer wg.Done(); sb.run(mb) }()
	t.Cleanup(func() {
		ma.Close(websocket.StatusNormalClosure, "")
		mb.Close(websocket.StatusNormalClosure, "")
		sa.fail(websocket.StatusNormalClosure, "")
		sb.fail(websocket.StatusNormalClosure, "")
		wg.Wait()
	})
	return a, b, ma, mb, id
}

// interest reports whether n's server knows of a subscriber to subj
// (its own client or across a route).
func interest(n *Node, subj string) bool {
	r := n.ns.GlobalAccount().Interest(subj)
	return r > 0
}

// TestRelayWindowBoundsFramesInFlight pins flow control: while the
// relaying side's client does not take frames, the owner's side publishes
// exactly Window frames and stops reading its server; once the client
// reads, every frame arrives in order, and then the server's close.
func TestRelayWindowBoundsFramesInFlight(t *testing.T) {
	ctx := within(t, 30*time.Second)
	const window, total = 8, 200
	a, b, ma, mb, id := sessionPair(ctx, t, window, true)
	a.mu.Lock()
	sa := a.sessions[id]
	a.mu.Unlock()
	// What reached a: the frames its session took (the first waits in the
	// stuck client's write) and those waiting for it in its subscription.
	arrived := func() int64 { return a.RelayStats().FramesIn + int64(len(sa.in)) }
	for i := range total {
		mb.reads <- memFrame{data: fmt.Sprintf("frame %d", i)}
	}
	mb.reads <- memFrame{close: true, code: websocket.StatusPolicyViolation, reason: "too_slow"}

	eventually(ctx, t, "a window's frames reach a", func() bool { return arrived() == window })
	eventually(ctx, t, "b holds the next frame", func() bool { return mb.readCount.Load() == window+1 })
	// Everything b published has reached a by now: the window held.
	for _, n := range []*Node{b, a} {
		if err := n.nc.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if got := arrived(); got != window {
		t.Fatalf("%d frames in flight to a stuck client, want the window, %d", got, window)
	}
	if got := b.RelayStats().FramesOut; got != window {
		t.Fatalf("b published %d frames to a stuck client, want %d", got, window)
	}

	close(ma.gate)
	eventually(ctx, t, "the client gets the server's close", func() bool { _, _, ok := ma.closeOf(); return ok })
	got := ma.writtenFrames()
	if len(got) != total {
		t.Fatalf("the client got %d frames, want %d", len(got), total)
	}
	for i, f := range got {
		if f != fmt.Sprintf("frame %d", i) {
			t.Fatalf("frame %d is %q: out of order", i, f)
		}
	}
	if code, reason, _ := ma.closeOf(); code != websocket.StatusPolicyViolation || reason != "too_slow" {
		t.Fatalf("the client's close is %d %q, want 1008 too_slow", code, reason)
	}
}

// TestRelayRefusesAGapInTheSequence pins ordering: a frame whose sequence
// number is not the next one ends the session on both sides with 1011
// relay_error, rather than passing frames out of order.
func TestRelayRefusesAGapInTheSequence(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, _, ma, mb, id := sessionPair(ctx, t, 8, false)
	mb.reads <- memFrame{data: "first"}
	eventually(ctx, t, "the first frame arrives", func() bool { return len(ma.writtenFrames()) == 1 })
	b := record(id, 'a', kindText, 3, []byte("third")) // the next is 2
	if err := a.publish(subjectBatch+"a", b); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*memConn{ma, mb} {
		eventually(ctx, t, "both sides close", func() bool { _, _, ok := c.closeOf(); return ok })
		if code, reason, _ := c.closeOf(); code != closeRelay || reason != reasonRelay {
			t.Fatalf("closed %d %q, want 1011 relay_error", code, reason)
		}
	}
	if got := ma.writtenFrames(); len(got) != 1 {
		t.Fatalf("the client got %q, want only the first frame", got)
	}
}

// TestRelaySessionWithAnUnheardPeerLastsMissedIntervals pins that a
// session whose other node this one has not heard of yet (it just
// started) is not ended at once, but after Missed intervals of silence,
// as a peer would be.
func TestRelaySessionWithAnUnheardPeerLastsMissedIntervals(t *testing.T) {
	c := newFakeClock()
	n := startNode(t, Config{ID: "a", Now: c.Now, Tick: c.Tick})
	if _, err := n.newSession("s1", "stranger", "a"); err != nil {
		t.Fatal(err)
	}
	c.Advance(2 * testInterval)
	n.endGone()
	if n.sessionCount() != 1 {
		t.Fatal("a session with a peer not yet heard of ended after 2 intervals")
	}
	c.Advance(testInterval)
	n.endGone()
	if n.sessionCount() != 0 {
		t.Fatal("a session with a peer silent for 3 intervals is still open")
	}
}
