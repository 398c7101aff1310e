//go:build unix

package cluster

import (
	"encoding/binary"
	"io"
	"syscall"

	"mafia/internal/wsbatch"
)

// readLinkRaw reads a link's batches straight off its descriptor (raw),
// after its hello; early is what the hello's buffered reader had read
// past it. It returns the refusal's code for a batch that does not open
// or is too large ("": the link ended or failed).
//
// Its reads differ from a net.Conn's in one way: a read that fills less
// than the buffer is taken to have emptied the socket, and the reader
// waits for the next readiness without first making the read that would
// find nothing (EAGAIN): one system call fewer per batch, on a link
// whose batches come one at a time. The wait loses nothing: the poller's
// readiness is edge-triggered, so bytes that come after a read (even
// during it) make a new readiness, which the wait takes; at worst a
// readiness already taken wakes the reader for a read that finds nothing.
func (n *Node) readLinkRaw(raw syscall.RawConn, subject []byte, early []byte) (refusal string) {
	buf := make([]byte, linkReadBuffer)
	lo, hi := 0, copy(buf, early)
	// big is a batch larger than what buf holds once its length is read,
	// read straight into its own link buffer; bigAt how much of it is.
	var big *linkBuf
	bigAt := 0
	var end error
	wait := false
	// take opens and splits the batch in b (its own link buffer).
	take := func(lb *linkBuf) bool {
		p, ok := n.keys.openFor(subject, lb.b)
		if !ok {
			lb.release()
			refusal = refuseLinkUnsealed
			return false
		}
		n.takeBatch(p, lb)
		lb.release() // the reader's own hold
		return true
	}
	f := func(fd uintptr) bool {
		for {
			if big == nil {
				// Every whole batch in buf, in order.
				for hi-lo >= linkHeader {
					l := int(binary.BigEndian.Uint32(buf[lo:]))
					if l > maxLinkMessage {
						refusal = refuseLinkTooLarge
						return true
					}
					if linkHeader+l > len(buf) {
						// Too large for buf: read into its own.
						big = getLinkBuf(l)
						bigAt = copy(big.b, buf[lo+linkHeader:hi])
						lo, hi = 0, 0
						break
					}
					if hi-lo < linkHeader+l {
						break
					}
					lb := getLinkBuf(l)
					copy(lb.b, buf[lo+linkHeader:])
					lo += linkHeader + l
					if !take(lb) {
						return true
					}
				}
				if lo == hi {
					lo, hi = 0, 0
				} else if len(buf)-lo < linkHeader+linkMaxSmall(buf, lo, hi) {
					hi = copy(buf, buf[lo:hi])
					lo = 0
				}
			}
			if big != nil && bigAt == len(big.b) {
				lb := big
				big = nil
				if !take(lb) {
					return true
				}
				continue
			}
			if wait {
				wait = false
				return false // wait for the next readiness
			}
			into := buf[hi:]
			if big != nil {
				into = big.b[bigAt:]
			}
			m, err := wsbatch.RawRead(fd, into)
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				return false
			case err != nil:
				end = err
				return true
			case m <= 0:
				end = io.EOF
				return true
			}
			if big != nil {
				bigAt += m
			} else {
				hi += m
			}
			wait = m < len(into)
		}
	}
	for refusal == "" && end == nil {
		if err := raw.Read(f); err != nil {
			break
		}
	}
	if big != nil {
		big.release()
	}
	return refusal
}

// linkMaxSmall is the room the batch starting at buf[lo] needs past its
// length: all of it when its length is in, else a length's worth.
func linkMaxSmall(buf []byte, lo, hi int) int {
	if hi-lo < linkHeader {
		return 0
	}
	return int(binary.BigEndian.Uint32(buf[lo:]))
}
