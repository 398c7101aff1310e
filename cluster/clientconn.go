package cluster

import (
	"context"
	"errors"
	"net"
	"net/http"

	"github.com/coder/websocket"

	"mafia/internal/wsbatch"
	"mafia/internal/wsconn"
)

// clientConn is the client's WebSocket on the relaying node: the server's
// own (internal/wsconn), as a table's owner holds its players', read by
// the session's pumpOut (Next: each message handed over in the read's
// buffer, copied once into the link's batch) and written through its
// wsbatch.Writer.
type clientConn struct {
	ws *wsconn.Conn
	w  *wsbatch.Writer
}

// acceptClient answers r, the client's handshake, for a session the owner
// has opened: the client's WebSocket, read by RawReads (a read that waits
// does so on Go's poller without telling the scheduler of a system call),
// or nil when r is no handshake (Accept has answered it).
func acceptClient(w http.ResponseWriter, r *http.Request) *clientConn {
	hw := &wsbatch.ResponseWriter{ResponseWriter: w, Timeout: clientWriteTimeout, Read: rawReads}
	ws, err := wsconn.Accept(hw, r, clientReadLimit)
	if err != nil {
		return nil
	}
	return &clientConn{ws: ws, w: hw.W}
}

// rawReads is the client's connection read by RawReads, unless net/http
// had read bytes past the handshake (a client that did not wait for the
// answer): then the connection as it is, those bytes read first (nil).
func rawReads(conn net.Conn, pre []byte) net.Conn {
	if len(pre) > 0 {
		return nil
	}
	return wsbatch.RawReads(conn)
}

// Write writes a frame to the client in the server's framing
// (wsbatch.Writer.Frame: header and payload in one piece under the
// Writer's lock). In a batch it only gathers; outside one the Writer's
// deadline bounds it, and ctx is not consulted.
func (c clientConn) Write(_ context.Context, typ websocket.MessageType, p []byte) error {
	op := wsbatch.OpText
	if typ == websocket.MessageBinary {
		op = wsbatch.OpBinary
	}
	return c.w.Frame(op, p)
}

// Close writes the close (with code and reason) after every frame already
// written, and no frame after it; the connection ends when the client
// answers (Next hears it) or after wsconn.CloseWait.
func (c clientConn) Close(code websocket.StatusCode, reason string) error {
	return c.ws.Close(uint16(code), reason)
}

// CloseNow drops the connection; no frame is written after it.
func (c clientConn) CloseNow() error { return c.ws.CloseNow() }

// Begin starts a batch of frames.
func (c clientConn) Begin() { c.w.Begin() }

// End sends the batch.
func (c clientConn) End() error { return c.w.End() }

// CanEndNow reports whether EndNow never waits (a TCP connection).
func (c clientConn) CanEndNow() bool { return c.w.CanEndNow() }

// TryBegin starts a batch if the socket's writer has nothing under way or
// left, never waiting (false: it started none).
func (c clientConn) TryBegin() bool { return c.w.TryBegin() }

// EndNow sends of the batch what the socket takes at once (done false:
// the rest waits for End).
func (c clientConn) EndNow() (bool, error) { return c.w.EndNow() }

// Next reads the client's messages, handing each to f in the read's own
// buffer (valid until f returns), until the connection is over; then it
// closes the connection and says how it ended: the client's close with
// its code and reason (a websocket.CloseError, passed on to the owner as
// coder/websocket's was), f's error, or the read's. Pings are answered.
func (c clientConn) Next(_ context.Context, f func(websocket.MessageType, []byte) error) error {
	h := clientReader{f: f}
	err := c.ws.Read(&h)
	c.ws.CloseNow()
	if h.err != nil {
		return h.err
	}
	var ce *wsconn.CloseError
	if errors.As(err, &ce) {
		code := websocket.StatusCode(ce.Code)
		if code == 0 {
			code = websocket.StatusNoStatusRcvd // a close with no code, as coder/websocket says it
		}
		return websocket.CloseError{Code: code, Reason: ce.Reason}
	}
	return err
}

// clientReader is Next's wsconn.Handler.
type clientReader struct {
	f   func(websocket.MessageType, []byte) error
	err error
}

// Message hands a message to f; f's error ends the reading.
func (h *clientReader) Message(text bool, p []byte) bool {
	typ := websocket.MessageBinary
	if text {
		typ = websocket.MessageText
	}
	if err := h.f(typ, p); err != nil {
		h.err = err
		return false
	}
	return true
}

// Ping is answered here, as coder/websocket answered every ping: a
// ping is no frame of the session's.
func (h *clientReader) Ping() bool { return true }

// Pong takes the client's pong: the relaying node sends no pings of its
// own.
func (h *clientReader) Pong() {}
