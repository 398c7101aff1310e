//go:build unix

package server

import (
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/wire"
)

// TestTurnWrite_ASocketThatTakesPartGetsEveryLineInOrder: the room writes
// a connection's frames on its own goroutine when the socket takes them at
// once (conn.go, turnEnd). A spectator whose socket is full takes part of
// a batch, or none: the rest goes to its writer goroutine, the frames
// after it queue behind it, and the seats' lines go on meanwhile (the
// room never waits for that socket). When the spectator reads at last, it
// has every line, once, in the order said; the seats had theirs written
// on the room's turn.
func TestTurnWrite_ASocketThatTakesPartGetsEveryLineInOrder(t *testing.T) {
	ts := startServerOn(t, "", func(c *Config) {
		c.SendBuffer = 512 // the spectator is slow, not too slow
		c.Limits.ChatRate, c.Limits.ChatBurst = 1000, 1000
		c.Limits.SeatChatRate, c.Limits.SeatChatBurst = 1000, 1000
	}, func(l net.Listener) net.Listener { return smallSendBuffers{l} })
	ctx := within(t, 120*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "turn writes", Players: 6, TimingsMS: fastTimings}, seatsUpTo(6), 6)
	for _, p := range tb.players {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	ws, _, err := websocket.Dial(ctx, wsURL(ts.api.Base, tb.id, 0, nil), &websocket.DialOptions{HTTPClient: neverReads()})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 20)
	// 60 lines of about 1.2 KB: far more than the spectator's socket
	// holds (4 KiB to send, 1 KiB to receive), far fewer than its queue.
	const lines = 60
	for i := 0; i < lines; i++ {
		p := tb.players[i%len(tb.players)]
		text := fmt.Sprintf("%03d %s", i, strings.Repeat("ა", 400))
		if err := p.call(ctx, wire.ClientMessage{Type: "chat", Channel: "town", Text: text}); err != nil {
			t.Fatalf("line %d: seat %d: %v", i, p.seat, err)
		}
	}
	next := 0
	for next < lines {
		_, data, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("the spectator read %d of %d lines: %v", next, lines, err)
		}
		var m wire.ServerMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != "chat" {
			continue
		}
		if want := fmt.Sprintf("%03d ", next); !strings.HasPrefix(m.Text, want) {
			t.Fatalf("the spectator's line %d is %.8q; want it to start %q", next, m.Text, want)
		}
		next++
	}
	got := scrape(ctx, t, ts.ops.URL)
	t.Logf("frames written on the room's turn: %v whole, %v left", got[`mafia_frames_turn_written_total{write="whole"}`], got[`mafia_frames_turn_written_total{write="left"}`])
	if got[`mafia_frames_turn_written_total{write="whole"}`] == 0 {
		t.Errorf("no frame was written on the room's turn: %v whole, %v left",
			got[`mafia_frames_turn_written_total{write="whole"}`], got[`mafia_frames_turn_written_total{write="left"}`])
	}
	if d := got["mafia_slow_clients_dropped_total"]; d != 0 {
		t.Errorf("%v connections dropped as slow", d)
	}
}
