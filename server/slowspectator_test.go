//go:build unix

package server

import (
	"net"
	"net/http"
	"strings"
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
// read are dropped in their turn, their queues full, while the seats talk
// at the same table; no seat loses its connection or a line.
//
// The lines are the town's chat in the lobby, not a game: the seats'
// lines, each waited for, come as fast as the room answers, and a few of
// 1.2 KB fill a spectator's socket. A spectator that never reads would
// also be ended when it leaves the server's ping unanswered (heardEvery,
// then Timeouts.WebSocket) or a write blocked past Timeouts.WebSocket,
// which the drop counter does not count: the harness sets that beyond the
// test's time (unstarved), since at its default of 10 s a loaded machine
// under -race ended them so before their queues filled (0 of 8 dropped
// after 220 lines, at load 30-53).
func TestSlowSpectators_CostNoPlayerTheirConnection(t *testing.T) {
	ts := startServerOn(t, "", func(c *Config) {
		c.SendBuffer = 32
		c.Limits.ChatRate, c.Limits.ChatBurst = 1000, 1000
		c.Limits.SeatChatRate, c.Limits.SeatChatBurst = 1000, 1000
	}, func(l net.Listener) net.Listener { return smallSendBuffers{l} })
	ctx := within(t, 120*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "slow spectators", Players: 11, TimingsMS: fastTimings}, seatsUpTo(11), 11)
	heard := map[*player]int{} // the chat lines each seat has read
	for _, p := range tb.players {
		p.onFrame = func(p *player, m wire.ServerMessage) {
			if m.Type == "chat" {
				heard[p]++
			}
		}
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
	// Each seat in turn says a line and waits for its answer, which the
	// room gives after it has queued the line for every connection: the
	// counter then holds every drop the line caused. A spectator's socket
	// takes about ten lines and its queue 32, so about four rounds.
	line := wire.ClientMessage{Type: "chat", Channel: "town", Text: strings.Repeat("ა", 400)}
	said := 0
	dropped := func() float64 { return scrape(ctx, t, ts.ops.URL)["mafia_slow_clients_dropped_total"] }
	for round := 0; dropped() < slow; round++ {
		if round == 20 {
			t.Fatalf("after %d lines, %v of the %d spectators that never read were dropped as slow", said, dropped(), slow)
		}
		for _, p := range tb.players {
			if err := p.call(ctx, line); err != nil {
				t.Fatalf("seat %d lost its connection while spectators were dropped: %v", p.seat, err)
			}
			said++
		}
	}
	t.Logf("%d lines said; the %d spectators dropped", said, slow)
	for _, p := range tb.players {
		if heard[p] < said {
			if err := p.readUntil(ctx, func(wire.ServerMessage) bool { return heard[p] >= said }); err != nil {
				t.Fatalf("seat %d read %d of the %d lines: %v", p.seat, heard[p], said, err)
			}
		}
		if p.seqErr != nil {
			t.Error(p.seqErr)
		}
	}
	if n := dropped(); n != slow {
		t.Errorf("%v connections dropped as slow; want the %d slow spectators, and nobody else", n, slow)
	}
}
