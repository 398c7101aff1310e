package wsconn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"

	"mafia/internal/wsbatch"
)

// bufSize is the pooled buffer a Read reads into: a burst of client
// frames (each far smaller) at once.
const bufSize = 4 << 10

var pool = sync.Pool{New: func() any { b := make([]byte, bufSize); return &b }}

// Read reads the client's frames and hands them on (Handler) until the
// connection's read fails or would wait, returning that error (a poller's
// connection returns wspoll.ErrWouldBlock when its socket is empty: the
// caller parks it, and Read goes on from where it was at the next burst),
// or until the connection is over: ErrClosed (the close handshake done),
// ErrEnded (the Handler asked), or a protocol error (the 1002 close
// written). A frame received in part is kept for the next Read.
func (c *Conn) Read(h Handler) error {
	var bp *[]byte
	var buf []byte
	n := 0
	if c.part != nil && cap(c.part) > bufSize {
		buf, n = c.part[:cap(c.part)], len(c.part) // a large frame's own buffer
	} else {
		bp = pool.Get().(*[]byte)
		buf = *bp
		n = copy(buf, c.part)
	}
	c.part = nil
	for {
		off, need := 0, 0
		for off < n {
			used, more, err := c.frame(h, buf[off:n])
			if err != nil {
				c.give(bp)
				return err
			}
			if used == 0 {
				need = more
				break
			}
			off += used
		}
		if off > 0 {
			n = copy(buf, buf[off:n])
		}
		if need > len(buf) {
			// A frame larger than the pooled buffer gets one of its own,
			// for as long as it takes to come (the read limit bounds it).
			nb := make([]byte, need)
			copy(nb, buf[:n])
			c.give(bp)
			bp, buf = nil, nb
		}
		m, err := c.nc.Read(buf[n:])
		n += m
		if err != nil {
			if n > 0 {
				if bp == nil {
					c.part = buf[:n]
				} else {
					c.part = append([]byte(nil), buf[:n]...)
				}
			}
			c.give(bp)
			return err
		}
	}
}

func (c *Conn) give(bp *[]byte) {
	if bp != nil {
		pool.Put(bp)
	}
}

// frame takes the frame at the start of b: used is how many bytes it
// took (0: b does not hold the whole frame yet, and more is how many it
// needs). A frame too big is refused as soon as its header is read: the
// 1009 close is written and its payload passed unread (skip).
func (c *Conn) frame(h Handler, b []byte) (used, more int, err error) {
	if c.skip > 0 {
		k := min(int64(len(b)), c.skip)
		c.skip -= k
		return int(k), 0, nil
	}
	if len(b) < 2 {
		return 0, 2, nil
	}
	b0, b1 := b[0], b[1]
	hdr, l := 2, uint64(b1&0x7f)
	switch l {
	case 126:
		if hdr = 4; len(b) < hdr {
			return 0, hdr, nil
		}
		l = uint64(binary.BigEndian.Uint16(b[2:]))
	case 127:
		if hdr = 10; len(b) < hdr {
			return 0, hdr, nil
		}
		l = binary.BigEndian.Uint64(b[2:])
	}
	fin, op := b0&0x80 != 0, wsbatch.Op(b0&0x0f)
	control := op&0x8 != 0
	switch {
	case b0&0x70 != 0:
		return 0, 0, c.fail("a reserved bit set")
	case b1&0x80 == 0:
		return 0, 0, c.fail("a client's frame not masked")
	case control && (!fin || l > 125):
		return 0, 0, c.fail("a control frame fragmented or longer than 125 bytes")
	case control && op > wsbatch.OpPong, !control && op > wsbatch.OpBinary:
		return 0, 0, c.fail(fmt.Sprintf("an unknown opcode %d", op))
	case !control && (op == 0) != c.inMsg:
		return 0, 0, c.fail("a continuation out of place")
	}
	if hdr += 4; len(b) < hdr { // the mask
		return 0, hdr, nil
	}
	if !control {
		total := l
		if op == 0 {
			total += uint64(len(c.msg))
		}
		if total > uint64(c.limit) || l > 1<<62 {
			// Refused as it starts: the close says why, and the rest of
			// the frame goes unread.
			if !c.closing.Load() {
				_ = c.Close(StatusTooBig, fmt.Sprintf("read limited at %d bytes", c.limit+1))
			}
			c.inMsg, c.msg = false, nil
			c.skip = int64(l)
			return hdr, 0, nil
		}
	}
	end := hdr + int(l)
	if len(b) < end {
		return 0, end, nil
	}
	p := b[hdr:end]
	unmask(p, [4]byte(b[hdr-4:hdr]))
	closing := c.closing.Load()
	switch op {
	case wsbatch.OpText, wsbatch.OpBinary:
		if fin {
			if !closing && !h.Message(op == wsbatch.OpText, p) {
				return end, 0, c.ended()
			}
			return end, 0, nil
		}
		c.inMsg, c.text, c.msg = true, op == wsbatch.OpText, append(c.msg[:0], p...)
	case 0:
		c.msg = append(c.msg, p...)
		if fin {
			msg, text := c.msg, c.text
			c.inMsg, c.msg = false, nil
			if !closing && !h.Message(text, msg) {
				return end, 0, c.ended()
			}
		}
	case wsbatch.OpPing:
		if !closing && h.Ping() {
			_ = c.w.Frame(wsbatch.OpPong, p) // a failure ends the connection at its next read or write
		}
	case wsbatch.OpPong:
		if !closing {
			h.Pong()
		}
	case wsbatch.OpClose:
		return end, 0, c.closed(p)
	}
	return end, 0, nil
}

// ended is what a Handler's false ends Read with: the close handshake
// goes on if the handler wrote a close (Read waits for the client's),
// else the connection is over.
func (c *Conn) ended() error {
	if c.closing.Load() {
		return nil
	}
	return ErrEnded
}

// closed takes the client's close (payload p): the server's answer
// repeats its code, unless the server's close was written first (then
// this is the answer). Either way the handshake is done.
func (c *Conn) closed(p []byte) error {
	if c.closing.Load() {
		return ErrClosed
	}
	var code uint16
	switch {
	case len(p) == 1:
		return c.fail("a close of one byte")
	case len(p) >= 2:
		code = binary.BigEndian.Uint16(p)
		if !validCode(code) || !utf8.Valid(p[2:]) {
			return c.fail("a close with an invalid code or reason")
		}
	}
	c.closing.Store(true)
	// Answered unless a write holds the Writer (a full socket): the
	// connection ends now either way.
	_ = c.w.TryClose(code, "")
	reason := ""
	if len(p) > 2 {
		reason = string(p[2:])
	}
	return &CloseError{Code: code, Reason: reason}
}

// validCode reports whether a client may send code in its close (RFC
// 6455 section 7.4 and the IANA registry).
func validCode(code uint16) bool {
	switch {
	case code >= 1000 && code <= 1003, code >= 1007 && code <= 1014:
		return true
	case code >= 3000 && code <= 4999:
		return true
	}
	return false
}

// fail ends the connection for a protocol error: the 1002 close says why
// (unless a close was written already), and Read returns the error.
func (c *Conn) fail(why string) error {
	if !c.closing.Swap(true) {
		_ = c.w.TryClose(StatusProtocolError, why) // the connection ends now either way
	}
	return errors.New("wsconn: protocol error: " + why)
}

// unmask undoes the client's mask on p, eight bytes at a time.
func unmask(p []byte, key [4]byte) {
	k := binary.LittleEndian.Uint32(key[:])
	k8 := uint64(k) | uint64(k)<<32
	for len(p) >= 8 {
		binary.LittleEndian.PutUint64(p, binary.LittleEndian.Uint64(p)^k8)
		p = p[8:]
	}
	for i := range p {
		p[i] ^= key[i&3]
	}
}
