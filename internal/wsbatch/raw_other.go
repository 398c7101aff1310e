//go:build !unix

package wsbatch

import (
	"net"
	"syscall"
)

// rawSetup leaves the Writer without EndNow's write that never waits
// (EndNow writes as End does).
func (w *Writer) rawSetup() {}

// RawConnOf is nil here: no write that never waits.
func RawConnOf(net.Conn) syscall.RawConn { return nil }

// RawReads is conn itself here: its own reads.
func RawReads(conn net.Conn) net.Conn { return conn }
