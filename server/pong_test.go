package server

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"net"
	"net/url"
	"testing"
	"time"

	"mafia/internal/wstest"
	"mafia/room"
)

// rawWS is a WebSocket spoken by hand, to send the frames no client library
// sends (an unsolicited pong).
type rawWS struct {
	c  net.Conn
	br *bufio.Reader
}

func dialRaw(t *testing.T, base, table string) *rawWS {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // a deadlock guard
	br, err := wstest.Upgrade(c, "/api/tables/"+table+"/ws")
	if err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	return &rawWS{c: c, br: br}
}

// write sends one masked frame of opcode op.
func (w *rawWS) write(op byte, payload []byte) error {
	_, err := w.c.Write(wstest.Masked(op, payload))
	return err
}

// read returns the next frame from the server: its opcode and payload.
func (w *rawWS) read() (op byte, payload []byte, err error) {
	b0, payload, err := wstest.ReadFrame(w.br)
	return b0 & 0x0f, payload, err
}

// TestFrames_PongControlFramesCountToo: a pong the server never asked for
// (a control frame the library would swallow) takes its place from the
// rate like any frame, so that a flood of them is closed as a flood and
// does not burn the server's CPU for as long as the client likes.
func TestFrames_PongControlFramesCountToo(t *testing.T) {
	var clk *room.FakeClock
	ts := startServerWith(t, "", fakeClocked(&clk))
	ctx := within(t, 60*time.Second)
	tb := lobbyTable(ctx, t, ts)
	c := dialRaw(t, ts.api.Base, tb.id)
	const opText, opClose, opPong = 0x1, 0x8, 0xA
	go func() {
		for i := 0; i < 1000; i++ {
			if c.write(opPong, nil) != nil {
				return // closed by the server
			}
		}
		// Then a ping of the protocol, answered (in order) unless the
		// pongs closed the connection first.
		_ = c.write(opText, []byte(`{"v":1,"type":"ping","id":77}`))
	}()
	for {
		op, payload, err := c.read()
		if err != nil {
			t.Fatalf("the connection ended with %v before an answer or a close", err)
		}
		switch op {
		case opClose:
			code := binary.BigEndian.Uint16(payload)
			if code != 1008 || string(payload[2:]) != "flood" {
				t.Fatalf("closed with %d %q, want 1008 \"flood\"", code, payload[2:])
			}
			return
		case opText:
			var m struct {
				Type string `json:"type"`
				ID   int64  `json:"id"`
			}
			if json.Unmarshal(payload, &m) == nil && m.Type == "pong" && m.ID == 77 {
				t.Fatal("1000 unsolicited pongs at one instant were all taken, and the connection goes on: pongs skip the limit")
			}
		}
	}
}
