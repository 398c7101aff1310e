//go:build unix

package wsbatch

import (
	"bytes"
	"errors"
	"io"
	"net"
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
