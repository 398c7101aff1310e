package cluster

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
)

// fakeClock is a node's clock in tests: time moves only when the test
// advances it, and each advance is one tick of the node's loop.
type fakeClock struct {
	mu   sync.Mutex
	now  time.Time
	tick chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), tick: make(chan time.Time)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Tick(time.Duration) (<-chan time.Time, func()) { return c.tick, func() {} }

// Advance moves the clock by d (no tick).
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Step advances the clock by d and hands the node's loop one tick.
func (c *fakeClock) Step(ctx context.Context, d time.Duration) {
	c.Advance(d)
	select {
	case c.tick <- c.Now():
	case <-ctx.Done():
	}
}

// ownedTables is an Owners a test fills.
type ownedTables struct {
	mu sync.Mutex
	ts []string
}

func (o *ownedTables) Owned() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.ts)
}

func (o *ownedTables) set(ts ...string) {
	o.mu.Lock()
	o.ts = ts
	o.mu.Unlock()
}

const testInterval = time.Second

// testSecrets is the cluster secret of the tests' nodes.
var testSecrets = [][]byte{[]byte("the tests' cluster secret, 32 bytes or more")}

// startNode starts a node on loopback with a fake clock, closed when the
// test ends.
func startNode(t testing.TB, cfg Config) *Node {
	t.Helper()
	if cfg.Interval == 0 {
		cfg.Interval = testInterval
	}
	if cfg.Secrets == nil && !cfg.Insecure {
		cfg.Secrets = testSecrets
	}
	n, err := NewNode(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

func within(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// eventually polls cond until it holds, failing the test with what when
// ctx ends first (a bound on a wait, not a timed assertion).
func eventually(ctx context.Context, t testing.TB, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("never: %s", what)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// heardOf is what n last heard from the node id, if it is live.
func heardOf(n *Node, id string) (NodeInfo, bool) {
	for _, info := range n.Nodes() {
		if info.ID == id {
			return info, true
		}
	}
	return NodeInfo{}, false
}

// selfBeat is how many announcements n has made.
func selfBeat(n *Node) uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.beat
}

// meet makes a and b hear each other's latest announcement: the routes
// and the interest across them come up asynchronously, so the first
// announcements may be lost; after meet, neither announces again until the
// test says so.
func meet(ctx context.Context, t testing.TB, nodes ...*Node) {
	t.Helper()
	embedded := 0
	for _, n := range nodes {
		if n.ns != nil {
			embedded++
		}
	}
	for _, n := range nodes {
		if n.ns != nil {
			if err := n.waitRoutes(ctx, embedded-1); err != nil {
				t.Fatalf("node %s: routes: %v", n.ID(), err)
			}
		}
	}
	eventually(ctx, t, "the nodes hear each other", func() bool {
		all := true
		for _, a := range nodes {
			for _, b := range nodes {
				if a == b {
					continue
				}
				if info, ok := heardOf(a, b.ID()); !ok || info.Beat != selfBeat(b) {
					all = false
				}
			}
		}
		if !all {
			for _, n := range nodes {
				n.Announce()
			}
			time.Sleep(20 * time.Millisecond)
		}
		return all
	})
}

// startNATS starts a plain NATS server on a free loopback port (an
// external server, or a stranger's), shut down when the test ends.
func startNATS(t testing.TB, o natsserver.Options) *natsserver.Server {
	t.Helper()
	o.Host, o.Port, o.NoSigs, o.NoLog = "127.0.0.1", natsserver.RANDOM_PORT, true, true
	ns, err := natsserver.NewServer(&o)
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	return ns
}
