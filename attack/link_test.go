package attack

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"mafia/client"
	"mafia/cluster"
)

// TestAttack_RelayLinkHelloReplayedIsRefused (issue 27): two cluster
// nodes with a secret and relay links, b in front of a real server, a
// relaying a real player's game to it. A stranger on the wire records
// the link b dials to a (its hello and the batches after it) and sends
// the recording again on a connection of its own to a's link port: a
// answers relay_link_refused stale (the hello carries another
// connection's challenge), closes it and counts it, and the player's game
// ends as if nothing happened.
func TestAttack_RelayLinkHelloReplayedIsRefused(t *testing.T) {
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 90*time.Second)
	secret := [][]byte{[]byte(strings.Repeat("1e7", 16))}
	var tp wireTap
	owned := &ownedTables{}
	b := startClusterNode(t, cluster.Config{ID: "b", PublicURL: tg.base, Secrets: secret, Owners: owned, Local: tg.srv.Handler(),
		LinkListen: "127.0.0.1:0", DialLink: tp.dial})
	a := startClusterNode(t, cluster.Config{ID: "a", Secrets: secret, Peers: []string{b.RouteURL()}, LinkListen: "127.0.0.1:0"})
	aHTTP := httptest.NewServer(a.Handler(http.NotFoundHandler()))
	t.Cleanup(func() { aHTTP.CloseClientConnections(); aHTTP.Close() })

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

	// The recording: b's link to a, its hello and at least one batch.
	var addr string
	var wire []byte
	for {
		addr, wire = tp.first()
		if len(wire) > 4 {
			if l := int(binary.BigEndian.Uint32(wire)); len(wire) > 4+l {
				break
			}
		}
		select {
		case <-ctx.Done():
			t.Fatal("b never sent a batch on a link to a")
		case <-time.After(20 * time.Millisecond):
		}
	}
	before := counter(t, a, "mafia_cluster_bus_dropped_total")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // a bound: a link that opened would answer nothing
	r := bufio.NewReader(c)
	challenge := make([]byte, 16)
	if _, err := io.ReadFull(r, challenge); err != nil {
		t.Fatalf("a's link port sent no challenge: %v", err)
	}
	if _, err := c.Write(wire); err != nil {
		t.Fatal(err)
	}
	line, err := r.ReadString('\n')
	if strings.TrimSpace(line) != "relay_link_refused stale" {
		t.Fatalf("the replayed link was answered %q (%v), want relay_link_refused stale", line, err)
	}
	if _, err := r.ReadByte(); err != io.EOF {
		t.Fatalf("the refused link was not closed: %v", err)
	}
	if got := counter(t, a, "mafia_cluster_bus_dropped_total"); got <= before {
		t.Errorf("the refused link was not counted: %v -> %v", before, got)
	}
	if err := <-played; err != nil {
		t.Fatalf("the real player, while the link was replayed: %v", err)
	}
}

// wireTap records what the links a node dials write (cluster.Config's
// DialLink), as a stranger on the wire would see it.
type wireTap struct {
	mu    sync.Mutex
	addr  string
	bytes []byte // the first link's
	n     int    // links dialled
}

func (tp *wireTap) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.n++
	if tp.n > 1 {
		return c, nil
	}
	tp.addr = addr
	return &tappedConn{Conn: c, tp: tp}, nil
}

// first is the first link's address and its bytes so far.
func (tp *wireTap) first() (string, []byte) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.addr, bytes.Clone(tp.bytes)
}

type tappedConn struct {
	net.Conn
	tp *wireTap
}

func (c *tappedConn) Write(p []byte) (int, error) {
	c.tp.mu.Lock()
	c.tp.bytes = append(c.tp.bytes, p...)
	c.tp.mu.Unlock()
	return c.Conn.Write(p)
}

// counter is one of n's counters without labels.
func counter(t *testing.T, n *cluster.Node, name string) float64 {
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
		if f.GetName() == name && len(f.GetMetric()) == 1 {
			return f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	return 0
}
