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
