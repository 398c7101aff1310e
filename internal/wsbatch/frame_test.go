package wsbatch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
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

// TestFrame_TheLibrarysControlFramesNeverSplitAFrame pins Frame beside
// coder/websocket's own writes to one connection: a server writes 1,500
// frames of 1 to 3,000 bytes with Frame (in batches TryBegin opened and
// EndNow sent, in Begin/End batches and straight through) while the
// client pings it without pause from four goroutines, each ping answered
// by the library's pong through the same Writer (each of the server's
// writes waits for a ping heard, so the pongs go out among them). The client (coder/websocket, which fails
// on any malformed frame) reads every frame whole and in order, and every
// ping is answered.
func TestFrame_TheLibrarysControlFramesNeverSplitAFrame(t *testing.T) {
	const frames = 1500
	payload := func(i int) []byte {
		n := 1 + (i*733)%3000
		return []byte(fmt.Sprintf("%06d:%s", i, strings.Repeat("ა", n/3+1)))
	}
	served := make(chan error, 1)
	pinged := make(chan struct{}, 64)
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		hw := &ResponseWriter{ResponseWriter: rw, ReadBuffer: 256, WriteBuffer: 128, Timeout: 30 * time.Second}
		c, err := websocket.Accept(hw, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled,
			OnPingReceived: func(context.Context, []byte) bool {
				select {
				case pinged <- struct{}{}:
				default:
				}
				return true // the library writes the pong
			}})
		if err != nil {
			served <- err
			return
		}
		defer c.CloseNow()
		// The server reads, so that the library sees the pings and pongs
		// them, until the client goes.
		read := make(chan struct{})
		defer func() { <-read }()
		go func() {
			defer close(read)
			for {
				if _, _, err := c.Read(context.Background()); err != nil {
					return
				}
			}
		}()
		w := hw.W
		for i, round := 0, 0; i < frames; round++ {
			// Each write waits for a ping heard, so that the library's
			// pong goes out while the frames are written.
			select {
			case <-pinged:
			case <-r.Context().Done():
				served <- r.Context().Err()
				return
			}
			switch round % 3 {
			case 0:
				if !w.TryBegin() {
					continue // the library is writing a pong: try again
				}
				for k := 0; k < 3 && i < frames; k++ {
					if err := w.Frame(OpText, payload(i)); err != nil {
						served <- err
						return
					}
					i++
				}
				if done, err := w.EndNow(); err != nil {
					served <- err
					return
				} else if !done {
					if err := w.Flush(); err != nil {
						served <- err
						return
					}
				}
			case 1:
				w.Begin()
				err := w.Frame(OpText, payload(i))
				if err2 := w.End(); err == nil {
					err = err2
				}
				if err != nil {
					served <- err
					return
				}
				i++
			default:
				if err := w.Frame(OpText, payload(i)); err != nil {
					served <- err
					return
				}
				i++
			}
		}
		served <- nil
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a bound on the wait, not a timing
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20)
	got := make(chan error, 1)
	go func() {
		for i := 0; i < frames; i++ {
			_, b, err := c.Read(ctx)
			if err != nil {
				got <- fmt.Errorf("frame %d: %w", i, err)
				return
			}
			if !bytes.Equal(b, payload(i)) {
				got <- fmt.Errorf("frame %d is not the %dth written", i, i)
				return
			}
		}
		got <- nil
		for { // on, so that the last ping's pong is read
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
	// Four pingers, so that a pong is being written most of the time.
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		pings  int
		failed error
		stop   = make(chan struct{})
	)
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				err := c.Ping(ctx)
				mu.Lock()
				if err != nil && failed == nil {
					failed = err
				}
				pings++
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	err = <-got
	close(stop)
	if err != nil {
		cancel() // the pingers waiting for a pong that will not come
	}
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if failed != nil {
		t.Fatalf("a ping was not answered: %v", failed)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if pings == 0 {
		t.Fatal("no ping was answered while the frames were read")
	}
	t.Logf("%d frames read whole and in order beside %d pings answered", frames, pings)
}
