//go:build unix

package cluster

import "mafia/internal/wsbatch"

// writeNow writes bufs to the link with writes that never wait (c.raw
// set): rest is what the socket did not take at once, from the first
// byte not written (nil: all of it).
func (c *linkConn) writeNow(bufs [][]byte) (rest [][]byte, err error) {
	var werr error
	i, off := 0, 0
	perr := c.raw.Write(func(fd uintptr) bool {
		for i < len(bufs) {
			n, err := wsbatch.WriteAvailable(fd, bufs[i][off:])
			off += n
			if err != nil {
				werr = err
				return true
			}
			if off < len(bufs[i]) {
				return true // the socket is full
			}
			i, off = i+1, 0
		}
		return true
	})
	if werr == nil {
		werr = perr
	}
	if i == len(bufs) {
		return nil, werr
	}
	rest = append(rest, bufs[i][off:])
	return append(rest, bufs[i+1:]...), werr
}
