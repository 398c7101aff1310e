package cluster

import (
	"context"

	"github.com/coder/websocket"

	"mafia/internal/wsbatch"
)

// Write writes a frame to the client in the relaying node's own framing
// (wsbatch.Writer.Frame: header and payload in one piece under the
// Writer's lock), not coder/websocket's Conn.Write, whose locks and
// message writer cost more than the frame's copy; the library writes only
// its control frames (pongs, the close), each whole, through the same
// Writer. In a batch it only gathers; outside one the Writer's deadline
// bounds it, and ctx is not consulted.
func (c clientConn) Write(_ context.Context, typ websocket.MessageType, p []byte) error {
	op := wsbatch.OpText
	if typ == websocket.MessageBinary {
		op = wsbatch.OpBinary
	}
	return c.w.Frame(op, p)
}

// Close has the library write its close (with code and reason) after
// every frame already written, and no frame after it (wsbatch's Shut).
func (c clientConn) Close(code websocket.StatusCode, reason string) error {
	c.w.Shut()
	return c.Conn.Close(code, reason)
}

// CloseNow drops the connection; no frame is written after it.
func (c clientConn) CloseNow() error {
	c.w.Shut()
	return c.Conn.CloseNow()
}
