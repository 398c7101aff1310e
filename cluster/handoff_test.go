package cluster

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestARelayedSessionReadsTheBusWithNoGoroutineOfNATSBetween pins issue
// 27's relay cost: each side of a session takes the other side's messages
// from a channel that NATS's connection fills itself (a channel
// subscription), not through an asynchronous subscription, whose own
// goroutine would be one more hand-off per relayed frame (and one more
// goroutine per session side); the frames still arrive, in order.
func TestARelayedSessionReadsTheBusWithNoGoroutineOfNATSBetween(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, b, ma, mb, id := sessionPair(ctx, t, 8, false)
	for _, n := range []*Node{a, b} {
		n.mu.Lock()
		s := n.sessions[id]
		n.mu.Unlock()
		if got := s.sub.Type(); got != nats.ChanSubscription {
			t.Fatalf("node %s's side reads the bus through a subscription of type %v, want a channel subscription", n.cfg.ID, got)
		}
	}
	mb.reads <- memFrame{data: "one"}
	mb.reads <- memFrame{data: "two"}
	eventually(ctx, t, "both frames reach the client in order", func() bool {
		f := ma.writtenFrames()
		return len(f) == 2 && f[0] == "one" && f[1] == "two"
	})
}

// TestARelayedFrameIsMadeWithNoAllocation pins the owner's side of a
// relayed frame: pumpOut builds and seals each frame's message in the
// buffer of the frame before (NATS has copied that one out by the time
// Publish returns), sealed for a subject whose bytes the session made
// once, so a frame's message costs the garbage collector nothing.
func TestARelayedFrameIsMadeWithNoAllocation(t *testing.T) {
	c := newFakeClock()
	n := startNode(t, Config{ID: "a", Now: c.Now, Tick: c.Tick})
	if n.keys == nil {
		t.Fatal("the test node's bus has no secret: nothing would be sealed")
	}
	s, err := n.newSession("s1", "nobody", "a")
	if err != nil {
		t.Fatal(err)
	}
	frame := make([]byte, 300)
	var buf []byte
	var seq uint64
	allocs := testing.AllocsPerRun(200, func() {
		seq++
		s.message(&buf, kindText, seq, frame)
	})
	if d, ok := n.keys.open(s.pub, s.message(&buf, kindText, seq+1, frame)); !ok || len(d) != headerLen+len(frame) || d[0] != kindText {
		t.Fatal("the message does not open as the frame")
	}
	if allocs != 0 {
		t.Fatalf("%.1f allocations a relayed frame's message, want 0", allocs)
	}
}
