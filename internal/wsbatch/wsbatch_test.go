package wsbatch

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"
)

// TestWriter_GathersABatchAndPassesOtherWritesThrough checks that
// writes between Begin and End reach the peer together, in order, when the
// batch ends, and that writes outside a batch go straight through.
func TestWriter_GathersABatchAndPassesOtherWritesThrough(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	w := NewWriter(a, 10*time.Second)
	got := make(chan []byte, 16)
	go func() {
		buf := make([]byte, 1<<16)
		for {
			n, err := b.Read(buf)
			if err != nil {
				close(got)
				return
			}
			got <- bytes.Clone(buf[:n])
		}
	}()
	read := func() []byte {
		select {
		case p := <-got:
			return p
		case <-time.After(5 * time.Second):
			t.Fatal("nothing arrived")
			return nil
		}
	}

	if _, err := w.Write([]byte("straight")); err != nil {
		t.Fatal(err)
	}
	if p := read(); string(p) != "straight" {
		t.Fatalf("outside a batch: %q", p)
	}
	w.Begin()
	for _, s := range []string{"one ", "two ", "three"} {
		if _, err := w.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case p := <-got:
		t.Fatalf("%q arrived before the batch ended", p)
	case <-time.After(20 * time.Millisecond):
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	if p := read(); string(p) != "one two three" {
		t.Fatalf("the batch arrived as %q", p)
	}
	if w.buf != nil {
		t.Error("the batch's buffer was kept after the batch")
	}
}

// countingConn counts the write deadlines set on it.
type countingConn struct {
	net.Conn
	deadlines int
	last      time.Time
}

func (c *countingConn) SetWriteDeadline(t time.Time) error {
	c.deadlines++
	c.last = t
	return c.Conn.SetWriteDeadline(t)
}

// TestWriter_SetsTheDeadlineOnceNotPerWrite pins issue 30's "the write
// deadline once per batch": many batches and straight writes in a row set
// the connection's write deadline once, at most Timeout ahead, and never
// clear it (every write stays bounded).
func TestWriter_SetsTheDeadlineOnceNotPerWrite(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	go func() { _, _ = io.Copy(io.Discard, b) }()
	c := &countingConn{Conn: a}
	const timeout = time.Hour
	w := NewWriter(c, timeout)
	before := time.Now()
	for range 50 {
		w.Begin()
		for range 3 {
			if _, err := w.Write([]byte("frame")); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.End(); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte("ping")); err != nil {
			t.Fatal(err)
		}
	}
	if c.deadlines != 1 {
		t.Errorf("100 writes to the connection set its deadline %d times, want 1", c.deadlines)
	}
	if c.last.IsZero() || c.last.Before(before.Add(timeout/2)) || c.last.After(time.Now().Add(timeout)) {
		t.Errorf("the deadline is %v, want within %v of now", c.last, timeout)
	}
}

// TestWriter_MovesTheDeadlineWhenHalfIsGone checks that a write with less
// than half of the timeout left before the deadline moves it: no write
// starts with less than Timeout/2 to run.
func TestWriter_MovesTheDeadlineWhenHalfIsGone(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	go func() { _, _ = io.Copy(io.Discard, b) }()
	c := &countingConn{Conn: a}
	w := NewWriter(c, time.Hour)
	if _, err := w.Write([]byte("one")); err != nil {
		t.Fatal(err)
	}
	w.deadline = time.Now().Add(time.Hour/2 - time.Minute) // as if half an hour had passed
	if _, err := w.Write([]byte("two")); err != nil {
		t.Fatal(err)
	}
	if c.deadlines != 2 || time.Until(c.last) < time.Hour/2 {
		t.Errorf("deadlines set %d times, the last %v from now; want 2, over half an hour", c.deadlines, time.Until(c.last))
	}
}
