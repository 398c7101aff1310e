package attack

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/internal/wstest"
)

// rawUpgrade makes a WebSocket handshake by hand on a TCP connection from
// ip to table's socket: the connection and a reader of the server's bytes.
func (tg *target) rawUpgrade(t *testing.T, ip, table string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c := tg.dialTCP(t, ip)
	_ = c.SetDeadline(time.Now().Add(60 * time.Second)) // a deadlock guard
	br, err := wstest.Upgrade(c, "/api/tables/"+table+"/ws")
	if err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	return c, br
}

// closeOf reads the server's frames until its close, and then the
// connection's end: the close's code and reason (code 0: none came
// before the end). answer, if set, is written on seeing the close.
func closeOf(br *bufio.Reader, answer func()) (code uint16, reason string, ended bool) {
	for {
		b0, p, err := wstest.ReadFrame(br)
		if err != nil {
			return code, reason, true
		}
		if b0&0x0f == 0x8 && code == 0 && len(p) >= 2 {
			code, reason = binary.BigEndian.Uint16(p), string(p[2:])
			if answer != nil {
				answer()
			}
		}
	}
}

// TestAttack_BrokenWebSocketFrames: the server reads the WebSocket's
// frames itself (internal/wsconn), so each way of breaking the protocol is
// tried on a real table from an address of its own: an unmasked frame,
// reserved bits, a length near 2^63, fragments that never end, a
// continuation with nothing to continue, a flood of pings. Each gets the
// close that says why (1002, 1009, 1008 "flood") and its connection ends;
// a real player plays meanwhile, and the server holds no connection of
// theirs afterwards.
func TestAttack_BrokenWebSocketFrames(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 90*time.Second)
	wait := tg.playsMeanwhile(ctx, t, "127.0.74.1")
	victim := tg.newPlayer(ctx, t, "127.0.74.2")
	frag := wstest.ClientFrame(0x01, 1000, make([]byte, 1000), true)
	var endless []byte
	for range 8 { // 8,000 bytes of one message, past its 5,120
		endless = append(endless, wstest.ClientFrame(0x00, 1000, make([]byte, 1000), true)...)
	}
	var pings []byte
	for range 3000 {
		pings = append(pings, wstest.ClientFrame(0x89, 0, nil, true)...)
	}
	for i, tc := range []struct {
		rule   string
		send   []byte
		code   uint16
		reason string
	}{
		{"a client's frames are masked", wstest.ClientFrame(0x81, 2, []byte("hi"), false), 1002, "a client's frame not masked"},
		{"reserved bits are clear", wstest.ClientFrame(0xF1, 2, []byte("hi"), true), 1002, "a reserved bit set"},
		{"a length near 2^63 is refused at its header", wstest.ClientFrame(0x81, 1<<62, nil, true), 1009, "read limited at 5121 bytes"},
		{"fragments add up to the limit", append(frag, endless...), 1009, "read limited at 5121 bytes"},
		{"a continuation continues something", wstest.ClientFrame(0x80, 1, []byte("x"), true), 1002, "a continuation out of place"},
		{"pings are frames of the rate", pings, 1008, "flood"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			c, br := tg.rawUpgrade(t, fmt.Sprintf("127.0.75.%d", i+1), victim.table)
			var once sync.Once
			go c.Write(tc.send)
			code, reason, ended := closeOf(br, func() {
				// The client's answer to the close, as a library's: the
				// server then ends the connection.
				once.Do(func() { c.Write(wstest.ClientFrame(0x88, 2, []byte{0x03, 0xE8}, true)) })
			})
			if code != tc.code || !strings.HasPrefix(reason, tc.reason) || !ended {
				t.Fatalf("closed with %d %q (ended: %v), want %d %q", code, reason, ended, tc.code, tc.reason)
			}
		})
	}
	victim.play(ctx, t)
	wait()
	// Every attacker's connection is gone: the two real players' remain
	// at most (a finished game's sockets close as their room lets them go).
	deadline := time.Now().Add(30 * time.Second)
	for n := tg.counter(ctx, t, "mafia_connections"); n > 2; n = tg.counter(ctx, t, "mafia_connections") {
		if time.Now().After(deadline) {
			t.Fatalf("%v connections open after the attack", n)
		}
		time.Sleep(50 * time.Millisecond) // a gauge polled, not a timing
	}
}
