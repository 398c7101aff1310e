package wsbatch

import (
	"encoding/binary"
	"net"
)

// Op is the opcode of a frame Frame writes.
type Op byte

// The opcodes a server writes with Frame (RFC 6455, section 5.2).
const (
	OpText   Op = 0x1
	OpBinary Op = 0x2
	OpClose  Op = 0x8
	OpPing   Op = 0x9
	OpPong   Op = 0xA
)

// maxHeader is the longest header of an unmasked frame.
const maxHeader = 10

// appendHeader appends the header of one whole (final), unmasked frame of
// op carrying n bytes, with the length in its shortest form: the bytes
// coder/websocket writes for the same frame from a server.
func appendHeader(b []byte, op Op, n int) []byte {
	b = append(b, 0x80|byte(op))
	switch {
	case n > 0xFFFF:
		b = append(b, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	case n > 125:
		b = append(b, 126)
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		b = append(b, byte(n))
	}
	return b
}

// Frame writes p as one whole frame of op from a server (final, unmasked),
// header and payload together: into the batch when one is open, else
// straight to the connection after what an EndNow left, as Write does.
//
// It is the server's own framing of its frames, in place of
// coder/websocket's Conn.Write, whose per-frame locks (each a select on
// the context) and message writer cost more than the frame's copy. Every
// frame, control frames (internal/wsconn's pongs and closes) included,
// goes in under the Writer's lock in one piece, so none splits another.
//
// After Shut, Frame writes nothing and returns net.ErrClosed.
func (w *Writer) Frame(op Op, p []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut.Load() {
		return net.ErrClosed
	}
	if w.buf == nil {
		w.buf = pool.Get().(*[]byte)
	}
	*w.buf = append(appendHeader(*w.buf, op, len(p)), p...)
	// Outside a batch it goes now, in one system call after what an
	// EndNow left (flushLocked sends both); a Begin's batch goes at
	// MaxBatchBytes, as Write's does.
	if !w.on || len(*w.buf) >= MaxBatchBytes && !w.now {
		return w.flushLocked()
	}
	return nil
}

// Close writes the connection's close frame (RFC 6455 section 5.5.1): the
// status code and the reason (cut to fit a control frame's 125 bytes),
// after what the Writer holds, and shuts the Writer (Shut) if it was not:
// nothing follows the close. Only the first Close writes; a code of 0
// writes a close with no payload (no status). It waits for the connection
// as a write outside a batch does, bounded by the Writer's deadline.
func (w *Writer) Close(code uint16, reason string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.closeLocked(code, reason)
}

// TryClose is Close when no other write holds the Writer (one that waits
// for a full socket, say), and else writes nothing: net.ErrClosed. The
// Writer is shut either way. For an answer that may go unsaid: the
// client's close, which the connection's end answers as well.
func (w *Writer) TryClose(code uint16, reason string) error {
	if !w.mu.TryLock() {
		w.shut.Store(true)
		return net.ErrClosed
	}
	defer w.mu.Unlock()
	return w.closeLocked(code, reason)
}

func (w *Writer) closeLocked(code uint16, reason string) error {
	if w.closed {
		return net.ErrClosed
	}
	w.shut.Store(true)
	w.closed, w.on, w.now = true, false, false
	var p [125]byte
	n := 0
	if code != 0 {
		binary.BigEndian.PutUint16(p[:], code)
		n = 2 + copy(p[2:], cutUTF8(reason, len(p)-2))
	}
	if w.buf == nil {
		w.buf = pool.Get().(*[]byte)
	}
	*w.buf = append(appendHeader(*w.buf, OpClose, n), p[:n]...)
	return w.flushLocked()
}

// cutUTF8 is s cut to at most n bytes, at a character's boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// Shut ends the Writer's frames: every later Frame returns net.ErrClosed
// and writes nothing; a Frame under way finishes. It never waits (not for
// a write that waits for the socket). CloseNow calls it (internal/wsconn),
// so that no frame follows a connection's end.
func (w *Writer) Shut() { w.shut.Store(true) }
