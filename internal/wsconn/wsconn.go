// Package wsconn owns a server's side of a WebSocket (RFC 6455) once its
// handshake is made (Accept, here too): it reads the client's frames
// (masked, in fragments or whole), hands each whole data message to a
// Handler, answers pings as the Handler says, and closes with the close
// handshake (Close), lingering for the client's answer so that the last
// frames are not lost to a reset. Its frames out, the close included, are
// written by internal/wsbatch's Writer.
//
// A Conn has no goroutine and no buffer of its own: Read runs on the
// caller's goroutine (a burst under internal/wspoll, or a goroutine per
// connection), takes a pooled buffer while it reads and gives it back,
// and keeps between reads only the bytes of a frame received in part.
// It does not decide what a message means, nor how many a client may
// send: the Handler does.
package wsconn

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"mafia/internal/wsbatch"
)

// Handler takes what a Conn reads, on Read's goroutine.
type Handler interface {
	// Message takes one whole data message: text (a text message) or
	// binary, p valid only during the call. It returns false to read no
	// further: the handler has closed the connection (Close) or will end
	// it.
	Message(text bool, p []byte) bool
	// Ping takes a ping from the client: true to answer it with a pong.
	Ping() bool
	// Pong takes a pong.
	Pong()
}

// The close codes a Conn writes itself (RFC 6455, section 7.4.1).
const (
	StatusProtocolError = 1002
	StatusTooBig        = 1009
)

// CloseWait bounds the wait for the client's close after the server's
// (Close): past it the connection is closed without the client's answer.
const CloseWait = 5 * time.Second

// ErrClosed is Read's when the close handshake is done (the client's
// close answered, or its answer to the server's heard): the caller closes
// the connection (CloseNow).
var ErrClosed = errors.New("wsconn: closed")

// CloseError is Read's when the client began the close handshake: the
// code and reason of its close (code 0: its close had none). It is
// ErrClosed (errors.Is): the handshake is done. A relay passes them on.
type CloseError struct {
	Code   uint16
	Reason string
}

func (e *CloseError) Error() string { return "wsconn: closed by the client" }

// Is makes a CloseError ErrClosed.
func (e *CloseError) Is(target error) bool { return target == ErrClosed }

// ErrEnded is Read's when the Handler asked to read no further and no
// close is under way (the caller ends the connection).
var ErrEnded = errors.New("wsconn: ended by its handler")

// Conn is one server's WebSocket: Read by one goroutine at a time, closed
// by any.
type Conn struct {
	nc    net.Conn
	w     *wsbatch.Writer
	limit int64

	// The read side's, one goroutine's at a time (Read's).
	part  []byte // the bytes of a frame received in part (nil: none)
	msg   []byte // a fragmented message's payload so far
	inMsg bool   // a fragmented message is under way
	text  bool   // and it is text
	skip  int64  // bytes to pass unread (the rest of a frame refused as too big)

	// closing is set once the server's close is written: Read hands
	// nothing more to the Handler and waits for the client's close.
	closing atomic.Bool
	// waiting is set once Close has written the close and its wait for
	// the answer is on (Closing).
	waiting atomic.Bool
	mu      sync.Mutex
	timer   *time.Timer // CloseWait's, once Close has written the close
	done    bool        // CloseNow has run
}

// New is the WebSocket over nc (the connection Read reads from and
// CloseNow closes), whose frames w writes, refusing a message of more
// than limit bytes with a 1009 close. pre are bytes already read from nc,
// read first (nil: none).
func New(nc net.Conn, w *wsbatch.Writer, limit int64, pre []byte) *Conn {
	c := &Conn{nc: nc, w: w, limit: limit}
	if len(pre) > 0 {
		c.part = append([]byte(nil), pre...)
	}
	return c
}

// Writer is the connection's Writer.
func (c *Conn) Writer() *wsbatch.Writer { return c.w }

// Close starts the close handshake: the close frame with code and reason
// is written (after what the Writer holds, and nothing after it), and the
// connection is closed once Read hears the client's close, or after
// CloseWait. Only the first Close writes. It waits for the socket as the
// Writer's writes do (bounded by its deadline), never for the client's
// answer.
func (c *Conn) Close(code uint16, reason string) error {
	err := c.w.Close(code, reason)
	if errors.Is(err, net.ErrClosed) {
		return nil // a close was written already
	}
	c.closing.Store(true)
	if err != nil {
		c.CloseNow()
		return err
	}
	c.mu.Lock()
	if !c.done {
		c.timer = time.AfterFunc(CloseWait, func() { c.CloseNow() })
		c.waiting.Store(true)
	}
	c.mu.Unlock()
	return nil
}

// Closing reports whether the server's close has been written and its
// answer is waited for (at most CloseWait): the connection ends by
// itself.
func (c *Conn) Closing() bool { return c.waiting.Load() }

// CloseNow closes the connection without a handshake (or ends one): the
// reader's next read fails.
func (c *Conn) CloseNow() error {
	c.mu.Lock()
	if c.timer != nil {
		c.timer.Stop()
	}
	c.done = true
	c.mu.Unlock()
	c.w.Shut()
	return c.nc.Close()
}

// Linger reads on the caller's goroutine, handing nothing on, until the
// client answers the server's close (Close) or CloseWait has passed: for
// a connection closed as soon as it opens, which has no reader of its own.
// Its connection's reads must wait for the socket (not a poller's).
func (c *Conn) Linger() {
	_ = c.nc.SetReadDeadline(time.Now().Add(CloseWait))
	_ = c.Read(nobody{})
}

// nobody is Linger's Handler: what comes after the server's close is
// never handed on (Read passes it by) and pings go unanswered.
type nobody struct{}

func (nobody) Message(bool, []byte) bool { return false }
func (nobody) Ping() bool                { return false }
func (nobody) Pong()                     {}
