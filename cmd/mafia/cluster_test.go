package main

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mafia/client"
	"mafia/internal/pgtest"
	"mafia/store"
	"mafia/store/postgres"
	"mafia/wire"
)

// clusterTTL is the tests' lease time: short, so that a takeover comes
// within seconds.
const clusterTTL = "2s"

// freeAddr is a free loopback port's address (for an embedded NATS
// server's routes, which the other nodes must know before it starts).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startCluster starts n nodes (`mafia serve --node`) as processes on one
// PostgreSQL database, each embedding a NATS server routed to the others,
// and returns them once every node hears every other (each one's lobby
// lists a table made on each node... checked by the tests that need it).
func startCluster(ctx context.Context, t *testing.T, db string, n int, extra ...string) []*servedProcess {
	t.Helper()
	routes := make([]string, n)
	for i := range routes {
		routes[i] = freeAddr(t)
	}
	nodes := make([]*servedProcess, n)
	for i := range nodes {
		var peers []string
		for j, r := range routes {
			if j != i {
				peers = append(peers, "nats-route://"+r)
			}
		}
		args := append([]string{"--db", db, "--node", fmt.Sprint("n", i+1), "--nats-listen", routes[i],
			"--nats-peers", strings.Join(peers, ","), "--lease-ttl", clusterTTL}, extra...)
		nodes[i] = startServe(ctx, t, args...)
	}
	return nodes
}

// sharedStore opens the cluster's database beside its nodes (the test's
// own look at the leases and logs).
func sharedStore(ctx context.Context, t *testing.T, db string) *postgres.DB {
	t.Helper()
	st, err := postgres.Open(ctx, db, postgres.Shared())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// awaitListed polls api's lobby until it lists table (the lobby of every
// node: the node and its peers hear each other).
func awaitListed(ctx context.Context, t *testing.T, api *client.API, table string) {
	t.Helper()
	for {
		ls, err := api.Tables(ctx)
		if err == nil {
			for _, l := range ls {
				if l.Table == table {
					return
				}
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the lobby at %s never listed %s", api.Base, table)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// holderOfTable is the node whose lease the table has now.
func holderOfTable(ctx context.Context, t *testing.T, st *postgres.DB, table string) string {
	t.Helper()
	l, err := st.Lease(ctx, table)
	if err != nil {
		return ""
	}
	return l.Node
}

// clusterGame makes a public table of seven on api, seats seven players
// through join (another node, perhaps), starts it and returns the
// connections, each dialled through join too.
func clusterGame(ctx context.Context, t *testing.T, maker, join *client.API) (string, []*client.Conn, []string) {
	t.Helper()
	timings := map[string]int64{"speech": 3000, "defence": 3000, "tie_speech": 3000, "last_words": 3000, "night": 300, "vote": 800}
	created, err := maker.Create(ctx, client.CreateRequest{Name: "cluster", Players: 7, Public: true, TimingsMS: timings})
	if err != nil {
		t.Fatal(err)
	}
	awaitListed(ctx, t, join, created.Table)
	conns := make([]*client.Conn, 7)
	tokens := make([]string, 7)
	for i := range conns {
		tok := ""
		if i == 0 {
			tok = created.HostToken
		}
		j, err := join.Join(ctx, created.Table, fmt.Sprint("p", i+1), 0, tok)
		if err != nil {
			t.Fatalf("join through %s: %v", join.Base, err)
		}
		tokens[i] = j.Token
		if conns[i], err = join.Dial(ctx, created.Table, j.Token, 0); err != nil {
			t.Fatalf("dial through %s: %v", join.Base, err)
		}
		t.Cleanup(func() { conns[i].CloseNow() })
	}
	if _, err := conns[0].Send(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	for conns[0].Lobby == nil || conns[0].Lobby.Status != "playing" {
		if _, err := conns[0].Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return created.Table, conns, tokens
}

// playAll plays every seat to the end of its game and returns the first
// error.
func playAll(ctx context.Context, conns []*client.Conn) error {
	var wg sync.WaitGroup
	errs := make([]error, len(conns))
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = playOut(ctx, c, uint64(i+1))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestCluster_APlayerOnNodeAPlaysATableOwnedByNodeB runs two nodes as
// processes on one PostgreSQL: a table made on node 2 is listed by node
// 1's lobby, seven players join it, connect and play it to its end
// entirely through node 1 (the joins passed on over NATS, the WebSockets
// relayed), and the table's lease is node 2's throughout.
func TestCluster_APlayerOnNodeAPlaysATableOwnedByNodeB(t *testing.T) {
	db := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	nodes := startCluster(ctx, t, db, 2)
	st := sharedStore(ctx, t, db)
	table, conns, _ := clusterGame(ctx, t, nodes[1].api, nodes[0].api)
	if h := holderOfTable(ctx, t, st, table); h != "n2" {
		t.Fatalf("the table's lease is %q's, want n2's", h)
	}
	if err := playAll(ctx, conns); err != nil {
		t.Fatalf("a seat playing through node 1: %v\nnode 1:\n%s\nnode 2:\n%s", err, nodes[0].log(), nodes[1].log())
	}
	if h := holderOfTable(ctx, t, st, table); h != "n2" {
		t.Errorf("after the game the table's lease is %q's, want n2's", h)
	}
	tb, _, err := st.Table(ctx, store.KindOnline, table)
	if err != nil || tb.Status != store.StatusEnded {
		t.Errorf("the stored table: %+v %v, want ended", tb.Status, err)
	}
	// Node 1 ran no room of it: every frame came from node 2.
	if strings.Contains(nodes[0].log(), `"msg":"table taken","table":"`+table) {
		t.Errorf("node 1 took the table:\n%s", nodes[0].log())
	}
}

// TestCluster_AStoppedNodeIsFencedOnceItsTableIsTakenOver stops node 2
// (SIGSTOP) with a game in play on it until node 1 has taken the table
// over (its lease ran out); the players reconnect through node 1 with
// since and play the game to its end there; node 2, continued, finds the
// table lost and never writes it again: every stored event after the
// takeover carries node 1's token, none node 2's.
func TestCluster_AStoppedNodeIsFencedOnceItsTableIsTakenOver(t *testing.T) {
	db := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	nodes := startCluster(ctx, t, db, 2)
	st := sharedStore(ctx, t, db)
	table, conns, tokens := clusterGame(ctx, t, nodes[1].api, nodes[1].api)
	before, err := st.Lease(ctx, table)
	if err != nil || before.Node != "n2" {
		t.Fatalf("the lease before: %+v %v", before, err)
	}
	if err := nodes[1].cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := true
	defer func() {
		if stopped {
			_ = nodes[1].cmd.Process.Signal(syscall.SIGCONT)
		}
	}()
	for holderOfTable(ctx, t, st, table) != "n1" {
		select {
		case <-ctx.Done():
			t.Fatalf("node 1 never took the table over:\n%s", nodes[0].log())
		case <-time.After(100 * time.Millisecond):
		}
	}
	// The players come back through node 1, each from what it saw.
	for i, c := range conns {
		since := c.Seq
		c.CloseNow()
		nc, err := nodes[0].api.Dial(ctx, table, tokens[i], since)
		if err != nil {
			t.Fatalf("seat %d reconnecting through node 1: %v", i+1, err)
		}
		conns[i] = nc
		t.Cleanup(func() { nc.CloseNow() })
	}
	if err := nodes[1].cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	stopped = false
	if err := playAll(ctx, conns); err != nil {
		t.Fatalf("after the takeover: %v\nnode 1:\n%s\nnode 2:\n%s", err, nodes[0].log(), nodes[1].log())
	}
	after, err := st.Lease(ctx, table)
	if err != nil || after.Node != "n1" || after.Token <= before.Token {
		t.Errorf("the lease after: %+v %v, want node 1's with a token above %d", after, err, before.Token)
	}
	checkOneOwnerAtATime(ctx, t, st, table)
	// Node 2 was told, by its renewal or its first write, that it lost it.
	for !strings.Contains(nodes[1].log(), "table lost to another node") {
		select {
		case <-ctx.Done():
			t.Fatalf("node 2 never found the table lost:\n%s", nodes[1].log())
		case <-time.After(100 * time.Millisecond):
		}
	}
	checkOneOwnerAtATime(ctx, t, st, table)
}

// checkOneOwnerAtATime fails when a table's log has an event written under
// an older token after one written under a newer (two owners writing in
// turn), or an event written without a fence.
func checkOneOwnerAtATime(ctx context.Context, t *testing.T, st *postgres.DB, table string) {
	t.Helper()
	fences, err := st.EventFences(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fences {
		if f == 0 {
			t.Errorf("table %s: event %d was written without a fence", table, i)
		}
		if i > 0 && f < fences[i-1] {
			t.Errorf("table %s: event %d was written under token %d after event %d under %d: two owners", table, i, f, i-1, fences[i-1])
		}
	}
}
