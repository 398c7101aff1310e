package server

import (
	"bufio"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

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
	var key [16]byte
	_, _ = rand.Read(key[:])
	fmt.Fprintf(c, "GET /api/tables/%s/ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", table, u.Host, base64.StdEncoding.EncodeToString(key[:]))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	return &rawWS{c: c, br: br}
}

// write sends one masked frame of opcode op (a payload of at most 125
// bytes).
func (w *rawWS) write(op byte, payload []byte) error {
	var mask [4]byte
	_, _ = rand.Read(mask[:])
	b := []byte{0x80 | op, 0x80 | byte(len(payload)), mask[0], mask[1], mask[2], mask[3]}
	for i, p := range payload {
		b = append(b, p^mask[i%4])
	}
	_, err := w.c.Write(b)
	return err
}

// read returns the next frame from the server: its opcode and payload.
func (w *rawWS) read() (op byte, payload []byte, err error) {
	var h [2]byte
	if _, err := io.ReadFull(w.br, h[:]); err != nil {
		return 0, nil, err
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var l [2]byte
		if _, err := io.ReadFull(w.br, l[:]); err != nil {
			return 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(l[:]))
	case 127:
		var l [8]byte
		if _, err := io.ReadFull(w.br, l[:]); err != nil {
			return 0, nil, err
		}
		n = binary.BigEndian.Uint64(l[:])
	}
	payload = make([]byte, n)
	_, err = io.ReadFull(w.br, payload)
	return h[0] & 0x0f, payload, err
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
