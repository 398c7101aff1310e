//go:build unix

package server

import (
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/wire"
)

// neverReads is an HTTP client whose sockets take almost nothing in before
// the sender must wait: a WebSocket over it that is never read makes the
// server's writer for it block at once.
func neverReads() *http.Client {
	d := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024) })
		if err != nil {
			return err
		}
		return serr
	}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// smallSendBuffers gives every accepted connection a small kernel send
// buffer, so that a client that does not read blocks the server's writer
// for it within a few frames (as a phone on a bad network would).
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

// TestSlowSpectators_CostNoPlayerTheirConnection: spectators that never
// read are dropped in their turn while the seats play a whole game on the
// same table; no seat loses its connection.
func TestSlowSpectators_CostNoPlayerTheirConnection(t *testing.T) {
	ts := startServerOn(t, "", func(c *Config) { c.SendBuffer = 32 },
		func(l net.Listener) net.Listener { return smallSendBuffers{l} })
	ctx := within(t, 120*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "slow spectators", Players: 11, TimingsMS: fastTimings}, seatsUpTo(11), 11)
	for _, p := range tb.players {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	const slow = 8
	for i := 0; i < slow; i++ {
		ws, _, err := websocket.Dial(ctx, wsURL(ts.api.Base, tb.id, 0, nil), &websocket.DialOptions{HTTPClient: neverReads()})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
	}
	if err := tb.players[0].call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	if err := <-playAll(ctx, tb.players).done; err != nil {
		t.Fatalf("a seat did not play to the end: %v", err)
	}
	m := scrape(ctx, t, ts.ops.URL)
	t.Logf("%v slow spectators dropped during the game", m["mafia_slow_clients_dropped_total"])
	if n := m["mafia_slow_clients_dropped_total"]; n == 0 || n > slow {
		t.Errorf("%v connections dropped as slow; want the %d slow spectators, and nobody else", n, slow)
	}
}
