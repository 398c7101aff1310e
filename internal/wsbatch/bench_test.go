package wsbatch

import (
	"io"
	"net"
	"testing"
	"time"
)

// BenchmarkWriter_OneFrameBatch is a connection's usual batch under the
// bench's load, one 512-byte frame, over TCP on loopback: as the Writer
// sends it ("moved when half gone"), and with the deadline set and cleared
// around each batch as before ("set per batch").
func BenchmarkWriter_OneFrameBatch(b *testing.B) {
	frame := make([]byte, 512)
	for _, how := range []string{"moved when half gone", "set per batch"} {
		b.Run(how, func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer ln.Close()
			go func() {
				c, err := ln.Accept()
				if err == nil {
					_, _ = io.Copy(io.Discard, c)
				}
			}()
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			w := NewWriter(conn, 10*time.Second)
			b.SetBytes(int64(len(frame)))
			for b.Loop() {
				if how == "set per batch" {
					w.deadline = time.Time{} // as if never set: the Writer sets it
				}
				w.Begin()
				if _, err := w.Write(frame); err != nil {
					b.Fatal(err)
				}
				if err := w.End(); err != nil {
					b.Fatal(err)
				}
				if how == "set per batch" {
					if err := conn.SetWriteDeadline(time.Time{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
