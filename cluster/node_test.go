package cluster

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
)

// TestPresenceNodeUnheardForMissedIntervalsIsGone pins presence: a node
// lists every live peer with what it announced (its URL, readiness and
// tables); a peer stays listed until Missed intervals pass, by the
// lister's own clock, with nothing heard from it; it is back at its next
// announcement; and a node that closes is dropped at once.
func TestPresenceNodeUnheardForMissedIntervalsIsGone(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cb := newFakeClock(), newFakeClock()
	var ready atomic.Bool
	ready.Store(true)
	owned := &ownedTables{}
	owned.set("t1", "t2")
	a := startNode(t, Config{ID: "a", PublicURL: "http://a.example", Now: ca.Now, Tick: ca.Tick})
	b := startNode(t, Config{ID: "b", PublicURL: "http://b.example", Now: cb.Now, Tick: cb.Tick,
		Peers: []string{a.RouteURL()}, Ready: ready.Load, Owners: owned})
	meet(ctx, t, a, b)

	info, ok := heardOf(a, "b")
	if !ok || info.URL != "http://b.example" || !info.Ready || !slices.Equal(info.Tables, []string{"t1", "t2"}) {
		t.Fatalf("a hears b as %+v (live %v), want its URL, ready, tables t1 t2", info, ok)
	}
	if ids := nodeIDs(a); !slices.Equal(ids, []string{"a", "b"}) {
		t.Fatalf("a lists %v, want a and b", ids)
	}
	if got := a.Owner("t2"); got != "b" {
		t.Fatalf("owner of t2 on a: %q, want b", got)
	}

	// b says nothing more (its clock stands still); a's clock moves.
	ca.Advance(2 * testInterval)
	if _, ok := heardOf(a, "b"); !ok {
		t.Fatal("b is gone after 2 silent intervals; it must last 3")
	}
	ca.Advance(testInterval)
	if _, ok := heardOf(a, "b"); ok {
		t.Fatal("b is still listed after 3 silent intervals")
	}
	if got := a.Owner("t2"); got != "" {
		t.Fatalf("a gone node's table t2 has owner %q", got)
	}

	// b's next announcement brings it back, with what it says now.
	ready.Store(false)
	owned.set("t3")
	b.Announce()
	eventually(ctx, t, "a hears b again", func() bool {
		info, ok := heardOf(a, "b")
		return ok && info.Beat == selfBeat(b)
	})
	if info, _ := heardOf(a, "b"); info.Ready || !slices.Equal(info.Tables, []string{"t3"}) {
		t.Fatalf("b back as %+v, want not ready with table t3", info)
	}

	// A closing node says so: it is dropped with no interval passing.
	b.Close()
	eventually(ctx, t, "a drops b when b leaves", func() bool {
		_, ok := heardOf(a, "b")
		return !ok
	})
}

// TestPresenceRestartedNodeCountsAfresh pins that a node restarted under
// the same id is heard at once, though its count of announcements starts
// again below the old one.
func TestPresenceRestartedNodeCountsAfresh(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cb := newFakeClock(), newFakeClock()
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick})
	b := startNode(t, Config{ID: "b", PublicURL: "http://old", Now: cb.Now, Tick: cb.Tick, Peers: []string{a.RouteURL()}})
	for range 5 {
		b.Announce()
	}
	meet(ctx, t, a, b)
	// Dropped without its leaving announcement: the node died.
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	close(b.done)
	b.stopTick()
	b.wg.Wait()
	b.shutdownNATS()

	b2 := startNode(t, Config{ID: "b", PublicURL: "http://new", Now: cb.Now, Tick: cb.Tick, Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b2)
	if info, _ := heardOf(a, "b"); info.URL != "http://new" {
		t.Fatalf("a hears b as %+v, want the restarted node", info)
	}
}

// TestPresenceOverExternalNATS pins the external server: a node given a
// nats:// URL hears and is heard as an embedded one.
func TestPresenceOverExternalNATS(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cc := newFakeClock(), newFakeClock()
	ext := startNATS(t, natsserver.Options{})
	a := startNode(t, Config{ID: "a", NATS: ext.ClientURL(), Now: ca.Now, Tick: ca.Tick})
	c := startNode(t, Config{ID: "c", NATS: ext.ClientURL(), Now: cc.Now, Tick: cc.Tick})
	if c.RouteURL() != "" || c.Routes() != 0 {
		t.Fatalf("a node on an external server has route %q, %d routes", c.RouteURL(), c.Routes())
	}
	meet(ctx, t, a, c)
	if ids := nodeIDs(c); !slices.Equal(ids, []string{"a", "c"}) {
		t.Fatalf("c lists %v, want a and c", ids)
	}
}

// TestNodeIDMustBeASubjectToken pins that a node id that cannot be one
// token of a NATS subject is refused.
func TestNodeIDMustBeASubjectToken(t *testing.T) {
	for _, id := range []string{"", "a.b", "a b", "a*", ">"} {
		if _, err := NewNode(Config{ID: id}); err == nil {
			t.Errorf("node id %q accepted", id)
		}
	}
}

func nodeIDs(n *Node) []string {
	var ids []string
	for _, info := range n.Nodes() {
		ids = append(ids, info.ID)
	}
	return ids
}
