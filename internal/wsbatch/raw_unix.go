//go:build unix

package wsbatch

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawSetup gives the Writer its connection's descriptor for EndNow: a
// TCP connection's, or a wrapper's that offers it (syscall.Conn) because
// its bytes go to that descriptor as they are (server's counted
// connections). A TLS connection offers none.
func (w *Writer) rawSetup() {
	if rc := RawConnOf(w.conn); rc != nil {
		w.raw = rc
		w.rawFn = w.rawWrite
	}
}

// RawConnOf is conn's descriptor for writes that never wait
// (WriteAvailable): a TCP connection's, or a wrapper's that offers one
// (syscall.Conn); nil for one that has none (TLS).
func RawConnOf(conn net.Conn) syscall.RawConn {
	if sc, ok := conn.(syscall.Conn); ok {
		if rc, err := sc.SyscallConn(); err == nil && rc != nil {
			return rc
		}
	}
	return nil
}

// rawWrite is one write of rawP to the descriptor, never waiting: it
// reports itself done whatever happened (RawConn.Write), with rawN bytes
// written (none when the socket is full) or rawErr.
func (w *Writer) rawWrite(fd uintptr) bool {
	w.rawN, w.rawErr = WriteAvailable(fd, w.rawP)
	return true
}

// WriteAvailable writes p to fd, a non-blocking socket's descriptor (in a
// syscall.RawConn's Write), until all of p is written or the socket takes
// no more, never waiting: n is how much it took. A full socket is not an
// error; err is a failure of the connection.
func WriteAvailable(fd uintptr, p []byte) (n int, err error) {
	for n < len(p) {
		m, err := rawWrite(fd, p[n:])
		if m > 0 {
			n += m
		}
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return n, nil
		case err != nil:
			return n, err
		case m <= 0:
			return n, io.ErrUnexpectedEOF
		}
	}
	return n, nil
}

// rawWrite is write(2) without telling the scheduler (rawIO).
func rawWrite(fd uintptr, p []byte) (int, error) { return rawIO(syscall.SYS_WRITE, fd, p) }

// RawRead is read(2) of a non-blocking descriptor (in a syscall.RawConn's
// Read) without telling the scheduler (rawIO): an empty socket says
// syscall.EAGAIN at once. The server's poller and the cluster's link read
// with it.
func RawRead(fd uintptr, p []byte) (int, error) { return rawIO(syscall.SYS_READ, fd, p) }

// RawReads is conn with reads by read(2)s that never tell the scheduler
// (RawRead), each waiting for the socket on Go's poller as conn's own
// Read does, its deadlines and its close kept: a connection read by a
// goroutine of its own (a relayed client's on the relaying node) then
// wakes no monitor thread when the process was idle, as a read by
// conn.Read does at its system call's entry. A connection with no descriptor (TLS) is
// conn itself.
func RawReads(conn net.Conn) net.Conn {
	rc := RawConnOf(conn)
	if rc == nil {
		return conn
	}
	c := &rawReadConn{Conn: conn, rc: rc}
	c.fn = c.read
	return c
}

// rawReadConn is RawReads' connection: fn (its read, bound once) fills p.
type rawReadConn struct {
	net.Conn
	rc  syscall.RawConn
	fn  func(fd uintptr) bool
	p   []byte
	n   int
	err error
}

// Read reads what the socket holds into p, waiting on Go's poller while
// it holds nothing; 0 bytes read is io.EOF.
func (c *rawReadConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.p = p
	err := c.rc.Read(c.fn)
	c.p = nil
	switch {
	case err != nil: // closed, or past its deadline: as conn.Read says
		return 0, err
	case c.err != nil:
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: os.NewSyscallError("read", c.err)}
	case c.n == 0:
		return 0, io.EOF
	}
	return c.n, nil
}

// SyscallConn is the connection's descriptor, as conn's.
func (c *rawReadConn) SyscallConn() (syscall.RawConn, error) { return c.rc, nil }

// read is one read of the descriptor; false (the socket is empty) waits
// for it on the poller.
func (c *rawReadConn) read(fd uintptr) bool {
	for {
		c.n, c.err = RawRead(fd, c.p)
		if c.err != syscall.EINTR {
			break
		}
	}
	return c.err != syscall.EAGAIN
}

// rawIO is a read or a write (trap) of p on fd by syscall.RawSyscall, not
// telling the scheduler: the descriptor never blocks, so the goroutine
// keeps its P, and the runtime's monitor thread is not woken for it as it
// is on a system call's entry when the process was idle
// (docs/performance.md). n is -1 with an error.
func rawIO(trap, fd uintptr, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}
