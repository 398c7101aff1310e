//go:build unix

package wsbatch

import (
	"io"
	"net"
	"syscall"
)

// rawSetup gives a TCP connection's Writer its descriptor for EndNow.
func (w *Writer) rawSetup() {
	if tc, ok := w.conn.(*net.TCPConn); ok {
		if rc, err := tc.SyscallConn(); err == nil {
			w.raw = rc
			w.rawFn = w.rawWrite
		}
	}
}

// rawWrite is one write of rawP to the descriptor, never waiting: it
// reports itself done whatever happened (RawConn.Write), with rawN bytes
// written (none when the socket is full) or rawErr.
func (w *Writer) rawWrite(fd uintptr) bool {
	for len(w.rawP) > w.rawN {
		n, err := syscall.Write(int(fd), w.rawP[w.rawN:])
		if n > 0 {
			w.rawN += n
		}
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return true
		case err != nil:
			w.rawErr = err
			return true
		case n <= 0:
			w.rawErr = io.ErrUnexpectedEOF
			return true
		}
	}
	return true
}
