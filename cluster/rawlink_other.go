//go:build !unix

package cluster

import (
	"net"
	"syscall"
)

// rawOf is nil: the batches go by the sender's writes.
func rawOf(net.Conn) syscall.RawConn { return nil }

// writeNow is never called (no raw descriptor).
func (c *linkConn) writeNow(bufs [][]byte) ([][]byte, error) { return bufs, nil }
