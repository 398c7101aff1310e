package wspoll

import (
	"bytes"
	"errors"
	"net"
	"testing"
	"time"

	"mafia/internal/wstest"
)

// frame is a client's WebSocket frame (masked) of payload n bytes.
func frame(op byte, fin bool, n int) []byte {
	if fin {
		op |= 0x80
	}
	return wstest.ClientFrame(op, uint64(n), bytes.Repeat([]byte{'x'}, n), true)
}

// pair is a loopback TCP connection's ends: the server's under p.
func pair(t *testing.T, p *Poller) (*Conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	c := p.Wrap(server, nil)
	if c == nil {
		t.Fatal("a TCP connection was not taken")
	}
	t.Cleanup(func() { c.Close(); client.Close() })
	return c, client
}

// reader is a connection's reader for the tests: each burst reads what
// is there, reporting every chunk on got, parks the connection
// when a read stops (beforePark, if set, is called first), and reports a
// failure on failed.
type reader struct {
	c          *Conn
	bursts     chan struct{}
	got        chan []byte
	failed     chan error
	beforePark func()
}

func startReader(c *Conn, beforePark func()) *reader {
	r := &reader{c: c, bursts: make(chan struct{}, 100), got: make(chan []byte, 100), failed: make(chan error, 1), beforePark: beforePark}
	c.Start(r.burst)
	return r
}

// newPoller is a Poller closed with the test; the test is skipped where
// the system has none.
func newPoller(t *testing.T) *Poller {
	t.Helper()
	p, err := New()
	if errors.Is(err, ErrUnsupported) {
		t.Skip("no poller here")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func (r *reader) burst() {
	r.bursts <- struct{}{}
	buf := make([]byte, 64)
	for {
		n, err := r.c.Read(buf)
		if errors.Is(err, ErrWouldBlock) {
			if r.beforePark != nil {
				r.beforePark()
			}
			if r.c.Park() {
				return
			}
			continue
		}
		if err != nil {
			r.failed <- err
			return
		}
		r.got <- bytes.Clone(buf[:n])
	}
}

func wait[T any](t *testing.T, ch chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second): // a bound on the wait, not a timing
		t.Fatalf("no %s", what)
		panic("unreachable")
	}
}

// TestConn_ParkedWhenEmptyWokenByBytesAndByItsClose: a connection whose
// socket is empty is parked with no goroutine; bytes sent to it start a
// burst that reads them, half a frame too (the reader keeps it; its rest
// starts a burst of its own); closing the parked connection starts a
// burst whose read fails, and takes it out of the poller.
func TestConn_ParkedWhenEmptyWokenByBytesAndByItsClose(t *testing.T) {
	p := newPoller(t)
	c, client := pair(t, p)
	r := startReader(c, nil)
	wait(t, r.bursts, "first burst")
	f := frame(1, true, 5)
	for range 3 {
		waitParked(c)
		if _, err := client.Write(f); err != nil {
			t.Fatal(err)
		}
		wait(t, r.bursts, "burst for the frame")
		var got []byte
		for len(got) < len(f) {
			got = append(got, wait(t, r.got, "frame")...)
		}
		if !bytes.Equal(got, f) {
			t.Fatalf("read %q, want %q", got, f)
		}
	}
	// Half a frame, then the rest: the connection is parked between them.
	waitParked(c)
	if _, err := client.Write(f[:3]); err != nil {
		t.Fatal(err)
	}
	wait(t, r.bursts, "burst for half a frame")
	if got := wait(t, r.got, "half a frame"); !bytes.Equal(got, f[:3]) {
		t.Fatalf("read %q", got)
	}
	waitParked(c)
	if _, err := client.Write(f[3:]); err != nil {
		t.Fatal(err)
	}
	wait(t, r.bursts, "burst for the frame's rest")
	if got := wait(t, r.got, "the frame's rest"); !bytes.Equal(got, f[3:]) {
		t.Fatalf("read %q", got)
	}
	if p.Parked() != 1 {
		t.Fatalf("the poller holds %d connections, want 1", p.Parked())
	}
	// Wait until parked again (the burst's read stops after the frame):
	// then close: a burst starts and its read fails.
	waitParked(c)
	c.Close()
	wait(t, r.bursts, "burst for the close")
	if err := wait(t, r.failed, "failed read"); err == nil {
		t.Fatal("no error")
	}
	if p.Parked() != 0 {
		t.Fatalf("the poller holds %d connections after the close, want 0", p.Parked())
	}
}

// waitParked waits until the connection waits in the poller (a state
// polled, not a timing).
func waitParked(c *Conn) {
	for c.state.Load() != parked {
		time.Sleep(time.Millisecond)
	}
}

// TestConn_BytesThatComeWhileABurstRunsAreReadBeforeItParks: the watch
// is edge-triggered, so bytes that come after a burst's last read and
// before its Park fire no event later: the event they fired while the
// burst ran is kept, and that burst reads them rather than park.
func TestConn_BytesThatComeWhileABurstRunsAreReadBeforeItParks(t *testing.T) {
	p := newPoller(t)
	c, client := pair(t, p)
	held, hold := make(chan struct{}), make(chan struct{})
	first := true
	r := startReader(c, func() {
		if first && c.added.Load() {
			first = false
			held <- struct{}{} // the burst is between its last read and its Park
			<-hold
		}
	})
	bursts, got := r.bursts, r.got
	wait(t, bursts, "first burst")
	waitParked(c)
	client.Write([]byte("one"))
	wait(t, bursts, "burst for the bytes")
	if g := wait(t, got, "the bytes"); string(g) != "one" {
		t.Fatalf("read %q", g)
	}
	wait(t, held, "the burst held before its Park")
	client.Write([]byte("two"))
	for !c.pending.Load() { // the event has come (a state polled, not a timing)
		time.Sleep(time.Millisecond)
	}
	close(hold)
	if g := wait(t, got, "the bytes that came before the Park"); string(g) != "two" {
		t.Fatalf("read %q", g)
	}
	select {
	case <-bursts:
		t.Fatal("a burst of its own for the bytes: the first parked over them")
	default:
	}
}
