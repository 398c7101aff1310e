//go:build !unix

package cluster

// writeNow is never called (no raw descriptor).
func (c *linkConn) writeNow(bufs [][]byte) ([][]byte, error) { return bufs, nil }

// readLinkRaw is never called (no raw descriptor).
func (n *Node) readLinkRaw(_ interface{}, _, _ []byte) string { return "" }
