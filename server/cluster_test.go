package server

// The server's part in a cluster (cluster.go), tested in process: two
// servers, each a node with its own connections to one real PostgreSQL
// (internal/pgtest), on loopback. The leases' time is an hour and the
// nodes look for expired leases every hour: whatever passes from one node
// to the other here passes because a node let it go and told the other
// (Cluster.Free, which nudges it), never because a lease ran out while the
// test waited.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/internal/pgtest"
	"mafia/room"
	"mafia/store"
	"mafia/store/postgres"
	"mafia/wire"
)

// clusterNode is one node of an in-process cluster.
type clusterNode struct {
	id   string
	srv  *Server
	db   *postgres.DB
	http *httptest.Server
	api  *client.API
	// elsewhere records the nodes the node passed requests on to.
	mu        sync.Mutex
	elsewhere []string
}

// inProcessCluster is n nodes on one fresh database: each tells the others
// when it lets a lease go, and passes a request for another node's table
// to Elsewhere, which records the node and answers 421.
func inProcessCluster(ctx context.Context, t *testing.T, n int) []*clusterNode {
	t.Helper()
	return inProcessClusterTTL(ctx, t, n, time.Hour)
}

// inProcessClusterTTL is inProcessCluster with leases of ttl (renewed every
// third of it).
func inProcessClusterTTL(ctx context.Context, t *testing.T, n int, ttl time.Duration) []*clusterNode {
	t.Helper()
	url := pgtest.URL(t)
	nodes := make([]*clusterNode, n)
	var mu sync.Mutex // guards nodes while they start
	for i := range nodes {
		cn := &clusterNode{id: "n" + string(rune('1'+i))}
		db, err := postgres.Open(ctx, url, postgres.Shared()) // the nodes of a cluster share the database
		if err != nil {
			t.Fatal(err)
		}
		cn.db = db
		cl := &Cluster{Node: cn.id, URL: "https://" + cn.id + ".mafia.test", TTL: ttl, Scan: time.Hour,
			Free: func(string) {
				mu.Lock()
				defer mu.Unlock()
				for _, o := range nodes {
					if o != nil && o != cn && o.srv != nil {
						o.srv.Nudge()
					}
				}
			},
			Elsewhere: func(w http.ResponseWriter, r *http.Request, node, client string) {
				cn.mu.Lock()
				cn.elsewhere = append(cn.elsewhere, node)
				cn.mu.Unlock()
				w.WriteHeader(http.StatusMisdirectedRequest)
			},
		}
		srv := New(Config{Store: db, SeatsPerAddress: -1, Pace: room.PaceInstant, Cluster: cl, Timeouts: Timeouts{WebSocket: unstarved}})
		if _, err := srv.Resume(ctx); err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewUnstartedServer(nil)
		hs.Config = srv.HTTPServer(srv.Handler())
		hs.Listener = srv.Listener(hs.Listener)
		hs.Start()
		cn.srv, cn.http, cn.api = srv, hs, &client.API{Base: hs.URL, Silence: unstarved}
		mu.Lock()
		nodes[i] = cn
		mu.Unlock()
		t.Cleanup(func() {
			hs.CloseClientConnections()
			hs.Close()
			srv.Close()
			db.Close()
		})
	}
	return nodes
}

// playingTable makes a public table of five on node at (the host in seat 1, the
// server's bots in the others), starts its game (long steps: it is still
// on when the test looks) and returns it, the host's token and the host's
// connection.
func playingTable(ctx context.Context, t *testing.T, at *clusterNode) (string, string, *client.Conn) {
	t.Helper()
	created, err := at.api.Create(ctx, client.CreateRequest{Name: "clustered", Public: true, Players: 5, TimingsMS: longTimings})
	if err != nil {
		t.Fatal(err)
	}
	// The create's answer names the owner too, so that a client goes
	// there for the table's WebSocket (mafia bench does).
	if want := (wire.TableOwner{Node: at.id, URL: "https://" + at.id + ".mafia.test"}); created.Lobby.Owner == nil || *created.Lobby.Owner != want {
		t.Errorf("the create's answer at %s: owner %+v, want %+v", at.id, created.Lobby.Owner, want)
	}
	if _, err := at.api.Join(ctx, created.Table, "Nino", 1, created.HostToken); err != nil {
		t.Fatal(err)
	}
	c, err := at.api.Dial(ctx, created.Table, created.HostToken, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	for _, a := range []string{"add_bots", "start"} {
		id, err := c.Send(ctx, wire.ClientMessage{Type: "host", Action: a})
		if err != nil {
			t.Fatal(err)
		}
		for {
			m, err := c.Read(ctx)
			if err != nil {
				t.Fatalf("%s: %v", a, err)
			}
			if m.ID == id {
				if m.Type == "error" {
					t.Fatalf("%s: %s", a, m.Code)
				}
				break
			}
		}
	}
	return created.Table, created.HostToken, c
}

// leaseOf is table's lease as the store has it.
func leaseOf(ctx context.Context, t *testing.T, n *clusterNode, table string) store.Lease {
	t.Helper()
	l, err := n.db.Lease(ctx, table)
	if err != nil {
		t.Fatalf("lease of %s: %v", table, err)
	}
	return l
}

// ownedBy waits until node n runs table (its Owned lists it), or ctx ends.
func ownedBy(ctx context.Context, t *testing.T, n *clusterNode, table string) {
	t.Helper()
	for !slices.Contains(n.srv.Owned(), table) {
		select {
		case <-ctx.Done():
			t.Fatalf("%s never took table %s (it holds %v)", n.id, table, n.srv.Owned())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestCluster_ADrainHandsEachTableOverAtOnce pins Handover: a draining
// node stops each live table's room, lets its lease go and tells the
// others, and returns once a peer runs every one of them. The lease's time
// is an hour: only a lease let go at the hand-over can pass before the
// guard ends the wait (a hand-over that left the lease to run out would
// wait that hour). The peer holds the lease under a new token, the drained
// node holds nothing, the table is still in play, and the host comes back
// through the peer with since and finds the game as it was.
func TestCluster_ADrainHandsEachTableOverAtOnce(t *testing.T) {
	ctx := within(t, 60*time.Second)
	nodes := inProcessCluster(ctx, t, 2)
	n1, n2 := nodes[0], nodes[1]
	var tables []string
	var hosts []string
	var seqs []int
	for i := 0; i < 2; i++ {
		id, host, c := playingTable(ctx, t, n1)
		tables, hosts, seqs = append(tables, id), append(hosts, host), append(seqs, c.Seq)
	}
	before := map[string]store.Lease{}
	for _, id := range tables {
		if l := leaseOf(ctx, t, n1, id); l.Node != "n1" {
			t.Fatalf("table %s is %q's, want n1's", id, l.Node)
		}
		before[id] = leaseOf(ctx, t, n1, id)
	}
	if got := n1.srv.Owned(); !slices.Equal(got, sortedCopy(tables)) {
		t.Fatalf("n1 owns %v, want %v", got, sortedCopy(tables))
	}
	n1.srv.Drain()
	hctx, cancel := context.WithTimeout(ctx, 30*time.Second) // a guard: the lease's time is an hour
	err := n1.srv.Handover(hctx)
	cancel()
	if err != nil {
		t.Fatalf("the hand-over did not end with every table on a peer: %v (n2 owns %v)", err, n2.srv.Owned())
	}
	for i, id := range tables {
		l := leaseOf(ctx, t, n2, id)
		if l.Node != "n2" || l.Token == before[id].Token {
			t.Errorf("table %s after the hand-over: lease %+v, want n2's under a new token (was %d)", id, l, before[id].Token)
		}
		// The lease is n2's once it is written; n2 counts the table as
		// its own a moment later, once its room runs (Handover waits
		// for the first only).
		eventually(ctx, t, "n2 runs table "+id, func() bool { return slices.Contains(n2.srv.Owned(), id) })
		tb, _, err := n2.db.Table(ctx, store.KindOnline, id)
		if err != nil || tb.Status != store.StatusPlaying {
			t.Errorf("table %s after the hand-over: %v %v, want still playing", id, tb.Status, err)
		}
		c, err := n2.api.Dial(ctx, id, hosts[i], seqs[i])
		if err != nil {
			t.Fatalf("the host back through n2: %v", err)
		}
		if c.View == nil || c.View.Phase == "ended" || c.Seat != 1 {
			t.Errorf("the host back through n2: seat %d, view %+v", c.Seat, c.View)
		}
		c.CloseNow()
	}
	if got := n1.srv.Owned(); len(got) != 0 {
		t.Errorf("the drained node still holds %v", got)
	}
	// A drained node takes no table: one asked for there is moving.
	resp, err := http.Get(n1.http.URL + "/api/tables/" + tables[0])
	if err == nil {
		resp.Body.Close()
	}
	if err != nil || resp.StatusCode == http.StatusOK {
		t.Errorf("a table asked for at the drained node: %v %v, want it refused or passed on", resp, err)
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// ownerNamed fails the test unless node at names n as table's owner, in its
// list of tables and in the table's API.
func ownerNamed(ctx context.Context, t *testing.T, at, n *clusterNode, table string) {
	t.Helper()
	want := wire.TableOwner{Node: n.id, URL: "https://" + n.id + ".mafia.test"}
	l, err := at.api.Table(ctx, table)
	if err != nil || l.Owner == nil || *l.Owner != want {
		t.Errorf("GET /api/tables/%s at %s: owner %+v (%v), want %+v", table, at.id, l.Owner, err, want)
	}
	list, err := at.api.Tables(ctx)
	found := false
	for _, l := range list {
		if l.Table == table {
			found = true
			if l.Owner == nil || *l.Owner != want {
				t.Errorf("the list of tables at %s: owner %+v, want %+v", at.id, l.Owner, want)
			}
		}
	}
	if !found {
		t.Errorf("the list of tables at %s lacks %s (%v)", at.id, table, err)
	}
}

// TestCluster_ALeaseLetGoIsTakenByAPeerAndItsRequestsGoThere pins the rest
// of the leases' life in process: a table made on a node is that node's
// (its lease), the lists and the table's API name that node as its owner
// with its public URL (and the node that takes it over, after), a request at the other node for it is passed on to its
// holder (Cluster.Elsewhere, naming it), and a node that stops lets its
// live tables go at once (stopped, letGo, Free): the peer takes each over
// under a new token (takeOverExpired, take) and runs it, its game still
// on.
func TestCluster_ALeaseLetGoIsTakenByAPeerAndItsRequestsGoThere(t *testing.T) {
	ctx := within(t, 60*time.Second)
	nodes := inProcessCluster(ctx, t, 2)
	n1, n2 := nodes[0], nodes[1]
	live, host, _ := playingTable(ctx, t, n1)
	held := leaseOf(ctx, t, n1, live)
	if held.Node != "n1" || held.Token == 0 {
		t.Fatalf("the table made on n1: lease %+v", held)
	}
	ownerNamed(ctx, t, n1, n1, live)

	// Asked for at n2, the table is n1's: passed on, naming n1.
	resp, err := http.Get(n2.api.Base + "/api/tables/" + live)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	n2.mu.Lock()
	passed := slices.Clone(n2.elsewhere)
	n2.mu.Unlock()
	if resp.StatusCode != http.StatusMisdirectedRequest || !slices.Equal(passed, []string{"n1"}) {
		t.Errorf("a request at n2 for n1's table: %d, passed on to %v; want it passed to n1", resp.StatusCode, passed)
	}
	if slices.Contains(n2.srv.Owned(), live) {
		t.Error("n2 took a table n1 holds")
	}

	// n1 stops: its live table is let go and taken over by n2 at once.
	n1.http.CloseClientConnections()
	n1.srv.Close()
	ownedBy(ctx, t, n2, live)
	now := leaseOf(ctx, t, n2, live)
	if now.Node != "n2" || now.Token <= held.Token {
		t.Errorf("the live table after n1 stopped: lease %+v, want n2's under a token after %d", now, held.Token)
	}
	ownerNamed(ctx, t, n2, n2, live)
	c, err := n2.api.Dial(ctx, live, host, 0)
	if err != nil {
		t.Fatalf("the host through n2: %v", err)
	}
	if c.View == nil || c.View.Phase == "ended" {
		t.Errorf("the live table on n2: %+v", c.View)
	}
	c.CloseNow()
}

// TestCluster_AnOwnerWhoseLeaseRanOutIsTakenOverAndFenced pins the
// takeover of a node that stopped renewing (paused, cut off from the
// database): once its lease has run out (made to run out here, in the
// store, as the database's clock would), the peer takes the table over
// at its next scan (takeOverExpired) under a new token and runs it; the
// old owner's next write of the table is refused by the fence, its room
// stops and drops its connections with table_moved, and it no longer
// counts the table as its own (lost). Nothing it tried is in the log.
func TestCluster_AnOwnerWhoseLeaseRanOutIsTakenOverAndFenced(t *testing.T) {
	ctx := within(t, 60*time.Second)
	nodes := inProcessCluster(ctx, t, 2)
	n1, n2 := nodes[0], nodes[1]
	id, host, hc := playingTable(ctx, t, n1)
	old := leaseOf(ctx, t, n1, id)
	// n1 stops renewing: its lease runs out, its token kept.
	if _, err := n2.db.Renew(ctx, old, time.Microsecond); err != nil {
		t.Fatal(err)
	}
	n2.srv.Nudge()
	ownedBy(ctx, t, n2, id)
	now := leaseOf(ctx, t, n2, id)
	if now.Node != "n2" || now.Token <= old.Token {
		t.Fatalf("after the takeover: lease %+v, want n2's under a token after %d", now, old.Token)
	}
	logBefore, err := n2.db.Events(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// n1 still runs its room; the host's pause there is its next write.
	pause, err := hc.Send(ctx, wire.ClientMessage{Type: "host", Action: "pause"})
	if err != nil {
		t.Fatal(err)
	}
	var closed error
	for closed == nil {
		m, err := hc.Read(ctx)
		switch {
		case err != nil:
			closed = err
		case m.ID == pause && m.Type != "error":
			t.Fatalf("n1 paused a table whose lease n2 holds: %+v", m)
		case m.ID == pause && m.Code != "table_moved":
			t.Errorf("n1's answer to the pause: %s, want the table moved", m.Code)
		}
	}
	var ce websocket.CloseError
	if !errors.As(closed, &ce) || ce.Code != 1012 || ce.Reason != "table_moved" {
		t.Errorf("the host's connection to n1 ended with %v, want 1012 table_moved", closed)
	}
	// The room lets the table go as it stops, after it has closed the
	// connections: wait for that, not for a time.
	for slices.Contains(n1.srv.Owned(), id) {
		if ctx.Err() != nil {
			t.Fatalf("n1 still counts table %s as its own", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if l := leaseOf(ctx, t, n2, id); l != now && (l.Node != "n2" || l.Token != now.Token) {
		t.Errorf("n1's refused write changed the lease: %+v, was %+v", l, now)
	}
	// The game goes on at n2, not paused by n1, and the host comes back
	// through n2.
	c, err := n2.api.Dial(ctx, id, host, 0)
	if err != nil {
		t.Fatalf("the host through n2: %v", err)
	}
	defer c.CloseNow()
	if c.Lobby == nil || c.Lobby.Paused || c.View == nil || c.View.Phase == "ended" {
		t.Errorf("the table on n2: lobby %+v, view %+v; want the game going on, not paused", c.Lobby, c.View)
	}
	logAfter, err := n2.db.Events(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(logAfter) < len(logBefore) {
		t.Errorf("the log shrank from %d to %d events", len(logBefore), len(logAfter))
	}
}

// TestCluster_ANodeRenewsItsLeasesAndLetsGoOfOneFoundLost pins the
// renewals (renewLeases, renewRound): the node extends each of its leases
// every third of their time, keeping the token; a lease it finds taken by
// another node (here: given up and taken in the store, as a node that
// took the table over would) is lost: the node's room of that table
// stops, its connections are closed 1012 table_moved, and the node no
// longer holds the table or renews its lease.
func TestCluster_ANodeRenewsItsLeasesAndLetsGoOfOneFoundLost(t *testing.T) {
	ctx := within(t, 60*time.Second)
	n1 := inProcessClusterTTL(ctx, t, 1, 900*time.Millisecond)[0]
	id, _, hc := playingTable(ctx, t, n1)
	first := leaseOf(ctx, t, n1, id)
	// Renewed: a later expiry, the same token (waited for, not timed).
	for l := first; !l.Expires.After(first.Expires); l = leaseOf(ctx, t, n1, id) {
		if l.Node != "n1" || l.Token != first.Token {
			t.Fatalf("renewed, the lease is %+v, want n1's with token %d", l, first.Token)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the lease %+v was never renewed", first)
		case <-time.After(20 * time.Millisecond):
		}
	}
	// Another node takes the table.
	if err := n1.db.Release(ctx, leaseOf(ctx, t, n1, id)); err != nil {
		t.Fatal(err)
	}
	other, err := n1.db.Acquire(ctx, id, "n9", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	var closed error
	for closed == nil {
		_, closed = hc.Read(ctx)
	}
	var ce websocket.CloseError
	if !errors.As(closed, &ce) || ce.Code != 1012 || ce.Reason != "table_moved" {
		t.Errorf("the host's connection ended with %v, want 1012 table_moved", closed)
	}
	for slices.Contains(n1.srv.Owned(), id) {
		select {
		case <-ctx.Done():
			t.Fatalf("n1 still holds table %s", id)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if l := leaseOf(ctx, t, n1, id); l.Node != "n9" || l.Token != other.Token {
		t.Errorf("the lease after n1 found it lost: %+v, want n9's %+v", l, other)
	}
}
