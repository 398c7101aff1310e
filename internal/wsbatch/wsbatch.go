// Package wsbatch owns the write side of a server's WebSocket over a
// hijacked connection: the frames a writer has waiting go out in one
// system call, and the write deadline is set once in a while, not per
// write; a write that must not wait never does (EndNow, by RawSyscall).
// The server's own connections and a cluster node's relayed ones (the
// client's side of the relay), both read by internal/wsconn, write
// through it. It does not read.
package wsbatch

import (
	"bytes"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Writer is the write side of a connection. Outside a batch, each write
// goes straight to the connection. Between Begin and End, writes are
// gathered in a pooled buffer that End sends in one system call; a
// control frame written meanwhile (a pong, a close) joins the batch.
//
// Every write to the connection is bounded by a deadline between Timeout/2
// and Timeout from when it starts: the deadline is moved only when less
// than half of it is left, so a busy connection sets it about once every
// Timeout/2, not once (or twice) per write.
type Writer struct {
	conn    net.Conn
	timeout time.Duration

	mu sync.Mutex
	on bool
	// shut is set by Shut (and Close, TryClose): Frame writes nothing
	// more. It is set without the lock, so that a Shut never waits for a
	// write under way. closed is set once Close has written the close.
	shut   atomic.Bool
	closed bool
	// now is set for a batch TryBegin opened, whose writer must never wait
	// for the connection: it is not sent at MaxBatchBytes but grows until
	// EndNow (or End).
	now      bool
	buf      *[]byte   // the batch; outside one, what EndNow left (written first)
	deadline time.Time // the connection's write deadline, as last set

	// raw is the connection's descriptor for EndNow (nil: a connection
	// that has none, such as TLS); rawFn is rawWrite, made once, and
	// rawP, rawN, rawErr its argument and results.
	raw    syscall.RawConn
	rawFn  func(uintptr) bool
	rawP   []byte
	rawN   int
	rawErr error
}

// NewWriter is a Writer for conn whose writes are each bounded by timeout
// (see Writer).
func NewWriter(conn net.Conn, timeout time.Duration) *Writer {
	w := &Writer{conn: conn, timeout: timeout}
	w.rawSetup()
	return w
}

// MaxBatchBytes is where a batch is sent before its end.
const MaxBatchBytes = 64 << 10

var pool = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// Write sends p now, or adds it to the batch.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.on {
		// What an EndNow left goes first.
		if err := w.flushLocked(); err != nil {
			return 0, err
		}
		if err := w.armLocked(); err != nil {
			return 0, err
		}
		return w.conn.Write(p)
	}
	if w.buf == nil {
		w.buf = pool.Get().(*[]byte)
	}
	*w.buf = append(*w.buf, p...)
	if len(*w.buf) >= MaxBatchBytes && !w.now {
		if err := w.flushLocked(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Begin starts a batch: writes are gathered until End.
func (w *Writer) Begin() {
	w.mu.Lock()
	w.on = true
	w.mu.Unlock()
}

// End sends the batch and returns to writing straight through.
func (w *Writer) End() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.on, w.now = false, false
	return w.flushLocked()
}

// CanEndNow reports whether the connection offers EndNow (a TCP
// connection; not TLS).
func (w *Writer) CanEndNow() bool { return w.raw != nil }

// TryBegin opens a batch (Begin) if the Writer is idle, never waiting for
// it: false when a write is under way or waits (it holds the Writer while
// it waits for the connection), a batch is open, or an EndNow left bytes.
// Checking and opening in one step closes the gap in which another
// goroutine's write (the WebSocket library's answer to a ping) could take
// the Writer to a socket that is full, and make Begin wait for that
// socket up to the write's deadline. A batch TryBegin opened is never
// sent before its end, however large it grows (a Begin's is sent at
// MaxBatchBytes), so that no write into it waits for the connection.
func (w *Writer) TryBegin() bool {
	if !w.mu.TryLock() {
		return false
	}
	defer w.mu.Unlock()
	if w.on || w.buf != nil {
		return false
	}
	w.on, w.now = true, true
	return true
}

// EndNow ends the batch as End does, but writes only what the connection
// takes at once, never waiting for it (CanEndNow; else it writes as End
// does). What the connection does not take stays in the Writer, first in
// line: done is false, and the caller must have it written by End (or a
// Flush) on a goroutine that may wait. Every later write goes after it.
func (w *Writer) EndNow() (done bool, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.on, w.now = false, false
	b := w.buf
	if b == nil {
		return true, nil
	}
	if w.raw == nil || len(*b) == 0 {
		return true, w.flushLocked()
	}
	if err := w.armLocked(); err != nil { // an expired deadline fails the write
		return false, err
	}
	w.rawP, w.rawN, w.rawErr = *b, 0, nil
	if err := w.raw.Write(w.rawFn); err != nil {
		return false, err
	}
	n, err := w.rawN, w.rawErr
	w.rawP = nil
	if err != nil {
		return false, err
	}
	if n < len(*b) {
		*b = (*b)[:copy(*b, (*b)[n:])]
		return false, nil
	}
	w.buf = nil
	if cap(*b) <= MaxBatchBytes*2 {
		*b = (*b)[:0]
		pool.Put(b)
	}
	return true, nil
}

// Flush writes what an EndNow left, waiting for the connection as End
// does (nothing left: nothing written).
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.on {
		return nil
	}
	return w.flushLocked()
}

// armLocked moves the connection's write deadline to Timeout from now when
// less than half of it is left.
func (w *Writer) armLocked() error {
	now := time.Now()
	if w.deadline.Sub(now) >= w.timeout/2 {
		return nil
	}
	d := now.Add(w.timeout)
	if err := w.conn.SetWriteDeadline(d); err != nil {
		return err
	}
	w.deadline = d
	return nil
}

func (w *Writer) flushLocked() error {
	b := w.buf
	if b == nil {
		return nil
	}
	w.buf = nil
	var err error
	if len(*b) > 0 {
		if err = w.armLocked(); err == nil {
			_, err = w.conn.Write(*b)
		}
	}
	if cap(*b) <= MaxBatchBytes*2 {
		*b = (*b)[:0]
		pool.Put(b)
	}
	return err
}

// ResponseWriter takes a connection over from net/http for a server's own
// WebSocket (internal/wsconn's Accept, through Take), with a Writer in
// place of net/http's buffered writer. After Take, W is the connection's
// Writer.
type ResponseWriter struct {
	http.ResponseWriter
	// Timeout bounds each write (see Writer).
	Timeout time.Duration
	// Read, if set, is asked for the connection the WebSocket reads from
	// and closes, given the hijacked one and pre, the bytes net/http had
	// read past the handshake (its to read first; not kept past the
	// call); nil from it: the hijacked connection, as without Read (a
	// server's poller, internal/wspoll).
	Read func(conn net.Conn, pre []byte) net.Conn
	// W is set by Take, and R to what Read gave (nil: none).
	W *Writer
	R net.Conn
}

// Take takes over the connection from net/http for a server's own
// WebSocket (internal/wsconn), after the response's header: W is set, and
// R to what Read gave. It returns the connection to read (Read's, or the
// hijacked one) and the bytes net/http had read past the handshake, to be
// read first (nil when Read took them, or there are none).
func (h *ResponseWriter) Take() (net.Conn, []byte, error) {
	conn, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	// A WebSocket lives longer than any request: it must not keep the
	// request's deadlines; it bounds its own writes (Writer) and its
	// owner its silence. net/http clears them on Hijack today; this does
	// not depend on it.
	if err := conn.SetDeadline(time.Time{}); err != nil {
		conn.Close()
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil {
		conn.Close()
		return nil, nil, err
	}
	h.W = NewWriter(conn, h.Timeout)
	var pre []byte
	if n := brw.Reader.Buffered(); n > 0 {
		b, _ := brw.Reader.Peek(n)
		pre = bytes.Clone(b)
	}
	if h.Read != nil {
		if rc := h.Read(conn, pre); rc != nil {
			h.R = rc
			return rc, nil, nil
		}
	}
	return conn, pre, nil
}

// Unwrap returns the wrapped ResponseWriter (for http.ResponseController).
func (h *ResponseWriter) Unwrap() http.ResponseWriter { return h.ResponseWriter }
