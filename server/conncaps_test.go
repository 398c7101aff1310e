package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// TestConnCaps_EachRefusedWithItsCode opens real WebSockets from several
// loopback addresses until each cap refuses one, before the upgrade, with
// its HTTP status and code and a sentence in the client's language: a
// table's spectators (while its seats still connect), a seat's
// connections, an address's, and the server's in total. A closed
// connection gives its place back.
func TestConnCaps_EachRefusedWithItsCode(t *testing.T) {
	ts := startServerWith(t, "", both(localized, func(c *Config) {
		c.Limits.ConnsPerAddr, c.Limits.SpectatorsPerTable, c.Limits.ConnsPerSeat, c.Limits.MaxConns = 3, 3, 2, 14
	}))
	ctx := within(t, 60*time.Second)
	ka := url.Values{"lang": {"ka"}}
	from := func(ip string) dialOpts { return dialOpts{http: fromAddr(ip), query: ka} }
	req := client.CreateRequest{Name: "caps", Players: 5, TimingsMS: longTimings}
	a := newTable(ctx, t, ts.api, req, []int{1, 2}, 1)
	b := newTable(ctx, t, ts.api, req, []int{1}, 2)
	c := newTable(ctx, t, ts.api, req, nil, 3)
	d := newTable(ctx, t, ts.api, req, nil, 4)
	var conns []*wsConn
	keep := func(c *wsConn) { conns = append(conns, c) }
	defer func() {
		for _, c := range conns {
			c.close()
		}
	}()

	// A table's spectators: three from three addresses, then no more; a
	// seat still connects.
	for i := 1; i <= 3; i++ {
		keep(open(ctx, t, ts.api.Base, a.id, "", from(fmt.Sprintf("127.0.5.%d", i))))
	}
	_, resp, err := dialWS(ctx, ts.api.Base, a.id, "", 0, from("127.0.5.4"))
	refusedWith(t, "a fourth spectator", resp, err, http.StatusServiceUnavailable, "spectators_full", "ka")
	keep(open(ctx, t, ts.api.Base, a.id, a.players[0].token, from("127.0.5.5")))

	// A seat's connections: two, then no more, from any address.
	seat2 := a.players[1].token
	keep(open(ctx, t, ts.api.Base, a.id, seat2, from("127.0.6.1")))
	keep(open(ctx, t, ts.api.Base, a.id, seat2, from("127.0.6.2")))
	for _, c := range conns[:3] {
		drain(ctx, t, c) // the lobby news of the seats' connections
	}
	_, resp, err = dialWS(ctx, ts.api.Base, a.id, seat2, 0, from("127.0.6.3"))
	refusedWith(t, "a seat's third connection", resp, err, http.StatusTooManyRequests, "seat_connections", "ka")
	if l, _ := ts.api.Table(ctx, a.id); !l.Seats[1].Connected {
		t.Error("seat 2 shows disconnected after its third connection was refused")
	}

	// An address's connections: three across two tables, then no more.
	keep(open(ctx, t, ts.api.Base, b.id, "", from("127.0.7.1")))
	keep(open(ctx, t, ts.api.Base, b.id, "", from("127.0.7.1")))
	last := open(ctx, t, ts.api.Base, b.id, b.players[0].token, from("127.0.7.1"))
	_, resp, err = dialWS(ctx, ts.api.Base, a.id, a.players[0].token, 0, from("127.0.7.1"))
	refusedWith(t, "an address's fourth connection", resp, err, http.StatusTooManyRequests, "too_many_connections", "ka")
	last.close()
	if !waitFor(10*time.Second, func() bool { return ts.srv.guards.open() == len(conns) }) {
		t.Fatalf("a closed connection is still counted: %d open, want %d", ts.srv.guards.open(), len(conns))
	}
	keep(open(ctx, t, ts.api.Base, b.id, "", from("127.0.7.1"))) // its place came back

	// In total: fourteen.
	for i := 1; len(conns) < 14; i++ {
		tb := c
		if i > 3 {
			tb = d
		}
		keep(open(ctx, t, ts.api.Base, tb.id, "", from(fmt.Sprintf("127.0.8.%d", i))))
	}
	_, resp, err = dialWS(ctx, ts.api.Base, d.id, "", 0, dialOpts{http: fromAddr("127.0.9.1")})
	refusedWith(t, "the fifteenth connection", resp, err, http.StatusServiceUnavailable, "server_full", "en")

	// Every refusal left the tables as they were (nobody at table A heard
	// of the refused seat connection), and nothing is counted twice.
	if n := ts.srv.guards.open(); n != 14 {
		t.Errorf("%d WebSockets counted, 14 open", n)
	}
	for _, c := range conns[:3] {
		quiet(ctx, t, "a spectator", c)
	}
}

// rawConn opens a TCP connection to the public listener from a loopback
// address of its own.
func rawConn(t *testing.T, ts *testServer, ip string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", ts.http.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedByServer reads c until the server closes it (bounded by a guard,
// which is a failure); it returns what it read.
func closedByServer(t *testing.T, where string, c net.Conn) string {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(15 * time.Second))
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("%s: the server never closed the connection (read %q)", where, b)
	}
	return string(b)
}

// TestListenerCaps_RefuseTCPPastTheirCaps: past a peer's share of TCP
// connections, or past the total, a new connection is answered at once
// with the code (429 too_many_connections, 503 server_full) and closed.
func TestListenerCaps_RefuseTCPPastTheirCaps(t *testing.T) {
	ts := startServerWith(t, "", func(c *Config) { c.Limits.TCPPerAddr, c.Limits.MaxTCP = 3, 5 })
	for i := 0; i < 3; i++ {
		rawConn(t, ts, "127.0.10.1")
	}
	got := closedByServer(t, "a peer's fourth", rawConn(t, ts, "127.0.10.1"))
	if !strings.HasPrefix(got, "HTTP/1.1 429 ") || !strings.Contains(got, `"code":"too_many_connections"`) {
		t.Errorf("a peer's fourth connection: %q", got)
	}
	held := []net.Conn{rawConn(t, ts, "127.0.10.2"), rawConn(t, ts, "127.0.10.3")}
	got = closedByServer(t, "the sixth in total", rawConn(t, ts, "127.0.10.4"))
	if !strings.HasPrefix(got, "HTTP/1.1 503 ") || !strings.Contains(got, `"code":"server_full"`) {
		t.Errorf("the sixth connection: %q", got)
	}
	// A connection that ends gives its place back.
	held[0].Close()
	c := rawConn(t, ts, "127.0.10.4")
	ok := waitFor(10*time.Second, func() bool {
		_, _ = fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			c.Close()
			c = rawConn(t, ts, "127.0.10.4")
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	if !ok {
		t.Error("a place freed by a closed connection never came back")
	}
}

// TestTimeouts_SlowBodyAndIdleKeepAliveAreCut: a POST whose body comes a
// byte at a time and a keep-alive connection that sends nothing more are
// closed by the server (here after two seconds, as tuned: short enough
// for a test, long enough for the table's own requests on a loaded
// machine, which half a second was not), and a WebSocket, upgraded from
// such a request, lives on past both timeouts.
func TestTimeouts_SlowBodyAndIdleKeepAliveAreCut(t *testing.T) {
	t.Parallel() // about 7 s of the server's timeouts on the wall clock, its own server (main_test.go)
	ts := startServerWith(t, "", func(c *Config) {
		c.Timeouts = Timeouts{ReadHeader: time.Second, Read: 2 * time.Second,
			Write: 2 * time.Second, Idle: 2 * time.Second}
	})
	ctx := within(t, 60*time.Second)

	slow := rawConn(t, ts, "127.0.11.1")
	if _, err := fmt.Fprintf(slow, "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() { // a byte every 50 ms: the body would take 50 s
		tk := time.NewTicker(50 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
				if _, err := slow.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	closedByServer(t, "a slow body", slow)

	idle := rawConn(t, ts, "127.0.11.2")
	if _, err := fmt.Fprintf(idle, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(idle)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	_ = idle.SetReadDeadline(time.Now().Add(15 * time.Second))
	if _, err := br.ReadByte(); err == nil {
		t.Error("the server sent bytes on an idle keep-alive connection")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Error("an idle keep-alive connection was never closed")
	}

	tb := lobbyTable(ctx, t, ts)
	c := open(ctx, t, ts.api.Base, tb.id, "", dialOpts{})
	defer c.close()
	time.Sleep(3 * time.Second) // past every request timeout above
	if _, err := c.send(ctx, wire.ClientMessage{Type: "ping", ID: 7}); err != nil {
		t.Fatalf("the WebSocket after the request timeouts: %v", err)
	}
	if pongs := pongsUntil(ctx, t, c, 7); len(pongs) != 0 {
		t.Errorf("unexpected pongs %v", pongs)
	}
}

// TestRaiseFileLimit_SoftUpToHard: the soft limit on open files is raised to
// the hard one (where the system has them), and the caps follow from it.
func TestRaiseFileLimit_SoftUpToHard(t *testing.T) {
	soft, hard, err := RaiseFileLimit()
	if err != nil {
		t.Skipf("no open-file limit here: %v", err)
	}
	if soft != hard || soft != fileLimit() {
		t.Errorf("soft %d, hard %d, now %d", soft, hard, fileLimit())
	}
	tcp, ws := ConnCaps(20000)
	if tcp != 20000-reserveFiles || ws != tcp-tcp/8 {
		t.Errorf("caps of 20000 files: %d TCP, %d WebSockets", tcp, ws)
	}
	if tcp, ws := ConnCaps(100); tcp < 64 || ws < 32 {
		t.Errorf("caps of a tiny limit: %d, %d", tcp, ws)
	}
}
