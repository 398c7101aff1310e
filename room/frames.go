package room

import (
	"sync"
	"sync/atomic"

	"mafia/wire"
)

// A frame the room broadcasts is encoded once into a pooled buffer, queued
// for every connection of its seat, and returned to the pool once each has
// written it (Out.Release) and the room is done with it. Frames are most of
// the server's allocation: reusing their memory makes the garbage collector
// run less than half as often under load.
//
// The count starts at one for the room; each queued copy adds one. A
// connection that never calls Release (a test reading its Sub, a connection
// dropped with frames still queued) only keeps its buffer from being
// reused: the garbage collector takes it as before.
type frameBuf struct {
	b    []byte
	refs atomic.Int32
}

// maxPooledFrame is the largest buffer kept for reuse: ordinary updates are
// a few KiB; a long welcome is let go.
const maxPooledFrame = 32 << 10

var framePool = sync.Pool{New: func() any { return &frameBuf{b: make([]byte, 0, 2048)} }}

// encodeFrame encodes m into a pooled buffer held once, by the caller.
func encodeFrame(m wire.ServerMessage) *frameBuf {
	fb := framePool.Get().(*frameBuf)
	fb.b = m.AppendFrame(fb.b[:0])
	fb.refs.Store(1)
	return fb
}

// out is the Out that queues fb; send takes a reference for it.
func (fb *frameBuf) out() Out { return Out{Frame: fb.b, buf: fb} }

// release drops one reference; the last returns the buffer to the pool.
func (fb *frameBuf) release() {
	if fb.refs.Add(-1) == 0 && cap(fb.b) <= maxPooledFrame {
		fb.b = fb.b[:0]
		framePool.Put(fb)
	}
}

// Release tells the room that the connection has written the item's frame
// and will not touch its bytes again, so that their memory can be reused.
// Call it once per item taken, after the frame is written (or not: the
// connection failed); calling it is optional, calling it twice is a bug.
func (o Out) Release() {
	if o.buf != nil {
		o.buf.release()
	}
}

// Seat frames of one broadcast are padded to one length, a multiple of
// Bucket, with spaces after the closing brace: white space JSON ignores, so
// every parser reads the frame as it was.
const Bucket = 64

// AnswerLen is the length of every reply, error and pong (a longer one is
// padded to the next multiple of it), so that an accepted command, a
// refusal and the answer to a ping look alike on the wire. It holds the
// longest refusal of every catalog language with room to spare.
const AnswerLen = 512

// padJSON is the frame a seat gets when a broadcast has nothing for it.
const padJSON = `{"v":1,"type":"pad"}`

// bucket rounds n up to a multiple of Bucket.
func bucket(n int) int { return (n + Bucket - 1) / Bucket * Bucket }

// spaces is what padTo copies from.
var spaces = [1024]byte{}

func init() {
	for i := range spaces {
		spaces[i] = ' '
	}
}

// padTo appends spaces to b until it is n bytes long.
func padTo(b []byte, n int) []byte {
	for len(b) < n {
		b = append(b, spaces[:min(n-len(b), len(spaces))]...)
	}
	return b
}

// padFrame is a pad of n bytes in a pooled buffer held once, by the caller.
func padFrame(n int) *frameBuf {
	fb := framePool.Get().(*frameBuf)
	fb.b = padTo(append(fb.b[:0], padJSON...), n)
	fb.refs.Store(1)
	return fb
}

// PadAnswer pads the frame of a reply, an error or a pong to AnswerLen, or
// to the next multiple of it when it is longer.
func PadAnswer(b []byte) []byte {
	n := max(AnswerLen, (len(b)+AnswerLen-1)/AnswerLen*AnswerLen)
	return padTo(b, n)
}

// AnswerFrame encodes a reply, an error or a pong padded as PadAnswer
// says, in one allocation.
func AnswerFrame(m wire.ServerMessage) []byte {
	return PadAnswer(m.AppendFrame(make([]byte, 0, AnswerLen)))
}
