//go:build unix

package wsbatch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"
)

// TestRawReads_ReadsAsTheConnectionWould pins RawReads: a megabyte
// written in pieces of 3,000 bytes by another goroutine (the reader finds the socket empty again and again, and waits) is read
// whole and in order; the peer's close is io.EOF; a past deadline ends a
// read with os.ErrDeadlineExceeded; the connection closed while a read
// waits ends it with net.ErrClosed; a connection with no descriptor is
// read as it is.
func TestRawReads_ReadsAsTheConnectionWould(t *testing.T) {
	t.Run("every byte in order, waiting while the socket is empty", func(t *testing.T) {
		w, r := tcpPair(t)
		// The system's own buffers: with tcpPair's 4 KiB ones loopback
		// TCP stalls for its timers, whoever reads.
		_ = w.SetWriteBuffer(1 << 20)
		_ = r.SetReadBuffer(1 << 20)
		want := make([]byte, 1<<20)
		for i := range want {
			want[i] = byte(i * 7)
		}
		go func() {
			for p := want; len(p) > 0; {
				n := min(len(p), 3000)
				if _, err := w.Write(p[:n]); err != nil {
					return
				}
				p = p[n:]
			}
			w.Close()
		}()
		got, err := io.ReadAll(RawReads(r))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("read %d bytes (%v), want the %d written, equal", len(got), err, len(want))
		}
	})
	t.Run("a past deadline", func(t *testing.T) {
		_, r := tcpPair(t)
		_ = r.SetReadDeadline(time.Now().Add(-time.Second))
		if _, err := RawReads(r).Read(make([]byte, 10)); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("read past its deadline: %v, want os.ErrDeadlineExceeded", err)
		}
	})
	t.Run("closed while a read waits", func(t *testing.T) {
		_, r := tcpPair(t)
		done := make(chan error, 1)
		go func() {
			_, err := RawReads(r).Read(make([]byte, 10))
			done <- err
		}()
		r.Close()
		if err := <-done; !errors.Is(err, net.ErrClosed) {
			t.Fatalf("read of a connection closed: %v, want net.ErrClosed", err)
		}
	})
	t.Run("no descriptor", func(t *testing.T) {
		a, b := net.Pipe()
		defer a.Close()
		defer b.Close()
		if rd := RawReads(a); rd != a {
			t.Fatalf("a pipe's reader is %T, want the pipe itself", rd)
		}
	})
}

// TestHijack_ReadsTheConnectionByRawReads pins that a connection taken
// from net/http by Hijack (coder/websocket's Accept) is read by RawReads:
// the connection it returns (which coder/websocket reads after the bytes
// already buffered) is RawReads', and bytes the client sent with its
// request and after it come through it in order.
func TestHijack_ReadsTheConnectionByRawReads(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hw := &ResponseWriter{ResponseWriter: w, ReadBuffer: 512, WriteBuffer: 512, Timeout: time.Second}
		conn, brw, err := hw.Hijack()
		if err != nil {
			got <- "hijack: " + err.Error()
			return
		}
		defer conn.Close()
		if _, ok := conn.(*rawReadConn); !ok {
			got <- fmt.Sprintf("the hijacked connection is %T, not RawReads'", conn)
			return
		}
		b := make([]byte, len("early late"))
		if _, err := io.ReadFull(brw.Reader, b); err != nil {
			got <- "read: " + err.Error()
			return
		}
		got <- string(b)
	}))
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\nearly"); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(c, " late"); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "early late" {
		t.Fatalf("the handler read %q, want \"early late\"", s)
	}
}
