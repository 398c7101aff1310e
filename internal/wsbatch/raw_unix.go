//go:build unix

package wsbatch

import (
	"io"
	"syscall"
)

// rawSetup gives the Writer its connection's descriptor for EndNow: a
// TCP connection's, or a wrapper's that offers it (syscall.Conn) because
// its bytes go to that descriptor as they are (server's counted
// connections). A TLS connection offers none.
func (w *Writer) rawSetup() {
	if sc, ok := w.conn.(syscall.Conn); ok {
		if rc, err := sc.SyscallConn(); err == nil && rc != nil {
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
