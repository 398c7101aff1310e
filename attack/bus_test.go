package attack

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"

	"mafia/client"
	"mafia/cluster"
)

// TestAttack_BusStrangerReadsAndSendsNothing (issue 25, item 1): two
// cluster nodes with a secret, b in front of a real server, a relaying a
// real player's whole game to it. Meanwhile a stranger on loopback sends a
// plain CONNECT + SUB > to every NATS port of both nodes, and runs a NATS
// server of its own routed to both nodes' route ports, subscribed to
// everything and publishing forged mafia.http requests to b in a made-up
// client's name. The plain clients are refused (-ERR, closed), the rogue's
// routes are refused (counted by the nodes), it reads nothing, and no
// forged request reaches b's server; the player's game ends.
func TestAttack_BusStrangerReadsAndSendsNothing(t *testing.T) {
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 90*time.Second)
	secret := [][]byte{[]byte(strings.Repeat("b05", 16))}
	var seenMu sync.Mutex
	seen := map[string]bool{} // the peers b's server was given by the bus
	local := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		seenMu.Lock()
		seen[host] = true
		seenMu.Unlock()
		tg.srv.Handler().ServeHTTP(w, r)
	})
	owned := &ownedTables{}
	b := startClusterNode(t, cluster.Config{ID: "b", PublicURL: tg.base, Secrets: secret, Owners: owned, Local: local})
	a := startClusterNode(t, cluster.Config{ID: "a", Secrets: secret, Peers: []string{b.RouteURL()}})
	aHTTP := httptest.NewServer(a.Handler(http.NotFoundHandler()))
	t.Cleanup(func() { aHTTP.CloseClientConnections(); aHTTP.Close() })

	// The real player: its table on b, its connection through a.
	direct := &client.API{Base: tg.base}
	created, err := direct.Create(ctx, client.CreateRequest{Name: "relayed", Players: 5, TimingsMS: gameTimings, Options: map[string]string{"round_limit": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := direct.Join(ctx, created.Table, "Nino", 1, created.HostToken); err != nil {
		t.Fatal(err)
	}
	owned.set(created.Table)
	for a.Owner(created.Table) != "b" {
		select {
		case <-ctx.Done():
			t.Fatal("a never heard that b owns the table")
		case <-time.After(20 * time.Millisecond):
		}
	}
	p := &player{api: &client.API{Base: aHTTP.URL}, table: created.Table, host: created.HostToken}
	if p.conn, err = p.api.Dial(ctx, p.table, p.host, 0); err != nil {
		t.Fatalf("the real player could not connect through a: %v", err)
	}
	t.Cleanup(func() { p.conn.CloseNow() })
	played := make(chan error, 1)
	go func() { played <- p.playErr(ctx) }()

	// Plain clients at every NATS port of both nodes.
	for _, n := range []*cluster.Node{a, b} {
		cu, _ := url.Parse(n.ClientURL())
		ru, _ := url.Parse(n.RouteURL())
		for _, addr := range []string{cu.Host, ru.Host} {
			if got := plainNATS(ctx, t, addr); strings.Contains(got, "MSG ") || strings.Contains(got, "PONG") || !strings.Contains(got, "-ERR") {
				t.Errorf("a plain client at node %s's %s read %q: want a refusal and nothing else", n.ID(), addr, got)
			}
		}
	}

	// A rogue NATS server routed to both nodes, its spy and its forger.
	var routes []*url.URL
	for _, n := range []*cluster.Node{a, b} {
		u, _ := url.Parse(n.RouteURL())
		routes = append(routes, u)
	}
	rogue, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: natsserver.RANDOM_PORT, NoSigs: true, NoLog: true,
		Cluster: natsserver.ClusterOpts{Name: "mafia", Host: "127.0.0.1", Port: natsserver.RANDOM_PORT}, Routes: routes})
	if err != nil {
		t.Fatal(err)
	}
	go rogue.Start()
	if !rogue.ReadyForConnections(10 * time.Second) {
		t.Fatal("the rogue NATS server did not start")
	}
	t.Cleanup(rogue.Shutdown)
	spy, err := nats.Connect(rogue.ClientURL(), nats.NoEcho(), nats.Timeout(30*time.Second)) // a slow machine (-race) took over the 2 s default
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(spy.Close)
	heard, err := spy.SubscribeSync(">")
	if err != nil {
		t.Fatal(err)
	}
	forged, _ := json.Marshal(map[string]any{"from": "a", "method": "POST", "path": "/api/tables/" + created.Table + "/join",
		"header": map[string][]string{"Content-Type": {"application/json"}}, "body": []byte(`{"name":"Forged"}`), "client": "198.51.100.66"})
	for refusedRoutes(t, a)+refusedRoutes(t, b) < 4 { // each node refused the rogue twice
		_ = spy.Publish("mafia.http.b", forged)
		select {
		case <-ctx.Done():
			t.Fatal("the nodes never refused the rogue's routes")
		case err := <-played:
			played <- err
			time.Sleep(20 * time.Millisecond)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := <-played; err != nil {
		t.Fatalf("the real player, while the bus was attacked: %v", err)
	}
	if err := spy.Flush(); err != nil {
		t.Fatal(err)
	}
	if n, _, _ := heard.Pending(); n != 0 {
		m, _ := heard.NextMsg(0)
		t.Errorf("the rogue read %d messages off the bus (first on %s)", n, m.Subject)
	}
	seenMu.Lock()
	defer seenMu.Unlock()
	if seen["198.51.100.66"] {
		t.Error("a forged request reached b's server in the made-up client's name")
	}
}

// startClusterNode starts a cluster node on loopback, closed when the test
// ends (before the servers the test started earlier). Its nodes announce
// themselves every 100 ms, so that a node learns a table's owner at once,
// and take a peer for gone only after 3 s unheard, as production's
// defaults do (1 s, 3 missed): with 3 missed of 100 ms, a process held off
// the CPU for 300 ms by a busy machine lost its peer and the relayed
// player got 1012 node_gone (5 of 15 runs at load 22, and 3 of 8 with no
// stranger at all: the test's window, not the attack's doing; 30 missed:
// 15 of 15 passed). No test here is about a node going.
func startClusterNode(t *testing.T, cfg cluster.Config) *cluster.Node {
	t.Helper()
	cfg.Interval = 100 * time.Millisecond
	cfg.Missed = 30
	n, err := cluster.NewNode(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// ownedTables is a node's Owners the test sets.
type ownedTables struct {
	mu sync.Mutex
	ts []string
}

func (o *ownedTables) Owned() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.ts...)
}

func (o *ownedTables) set(ts ...string) {
	o.mu.Lock()
	o.ts = ts
	o.mu.Unlock()
}

// refusedRoutes is n's mafia_cluster_routes_refused_total.
func refusedRoutes(t *testing.T, n *cluster.Node) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	if err := reg.Register(n.Collector()); err != nil {
		t.Fatal(err)
	}
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == "mafia_cluster_routes_refused_total" && len(f.GetMetric()) == 1 {
			return f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	return 0
}

// plainNATS is a stranger's plain NATS client at addr: CONNECT with no
// credentials, SUB > and PING; it returns what it read until the server
// closed the connection (or 5 s passed).
func plainNATS(ctx context.Context, t *testing.T, addr string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	deadline := time.Now().Add(5 * time.Second)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = c.SetDeadline(deadline)
	if _, err := c.Write([]byte("CONNECT {\"verbose\":false}\r\nSUB > 1\r\nPING\r\n")); err != nil {
		return ""
	}
	var got strings.Builder
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		got.WriteString(line)
		if err != nil {
			return got.String()
		}
	}
}
