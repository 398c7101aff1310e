package wsbatch

import (
	"bytes"
	"errors"
	"net"
	"sync"
	"testing"
	"time"
)

// recConn is a net.Conn that keeps what is written to it.
type recConn struct {
	net.Conn
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (c *recConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes++
	return c.b.Write(p)
}
func (c *recConn) SetWriteDeadline(time.Time) error { return nil }

// TestFrame_TheHeaderIsAServersWithTheShortestLength pins Frame's bytes
// (RFC 6455 5.2): final, unmasked, the opcode, and the length in its
// shortest form (7 bits up to 125, 16 up to 65,535, else 64), then the
// payload, all in one write to the connection (so that no other write
// to it can come between them).
func TestFrame_TheHeaderIsAServersWithTheShortestLength(t *testing.T) {
	for _, tc := range []struct {
		op   Op
		n    int
		head []byte
	}{
		{OpPing, 0, []byte{0x89, 0}},
		{OpText, 1, []byte{0x81, 1}},
		{OpText, 125, []byte{0x81, 125}},
		{OpText, 126, []byte{0x81, 126, 0, 126}},
		{OpPong, 3, []byte{0x8A, 3}},
		{OpBinary, 2, []byte{0x82, 2}},
		{OpText, 65535, []byte{0x81, 126, 0xFF, 0xFF}},
		{OpText, 65536, []byte{0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0}},
	} {
		c := &recConn{}
		w := NewWriter(c, time.Minute)
		p := bytes.Repeat([]byte{'x'}, tc.n)
		if err := w.Frame(tc.op, p); err != nil {
			t.Fatal(err)
		}
		want := append(append([]byte{}, tc.head...), p...)
		if !bytes.Equal(c.b.Bytes(), want) {
			t.Errorf("op %#x, %d bytes: header %x, want %x", tc.op, tc.n, c.b.Bytes()[:min(len(tc.head), c.b.Len())], tc.head)
		}
		if c.writes != 1 {
			t.Errorf("op %#x, %d bytes: %d writes to the connection, want 1", tc.op, tc.n, c.writes)
		}
	}
}

// TestFrame_ShutWritesNothingMore pins Shut: a Frame after it is refused
// (net.ErrClosed) and nothing reaches the connection, while a plain Write
// (the library's close) still passes.
func TestFrame_ShutWritesNothingMore(t *testing.T) {
	c := &recConn{}
	w := NewWriter(c, time.Minute)
	w.Shut()
	if err := w.Frame(OpText, []byte("late")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Frame after Shut: %v, want net.ErrClosed", err)
	}
	if _, err := w.Write([]byte{0x88, 0}); err != nil {
		t.Fatal(err)
	}
	if got := c.b.Bytes(); !bytes.Equal(got, []byte{0x88, 0}) {
		t.Fatalf("the connection got %x, want only the close 8800", got)
	}
}
