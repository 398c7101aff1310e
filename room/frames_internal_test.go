package room

import (
	"bytes"
	"log/slog"
	"testing"

	"mafia/wire"
)

// TestAFrameIsReusedOnlyAfterEveryQueueReleasedIt: a broadcast frame queued
// for two connections keeps its bytes for the one that has not written it
// yet, however many frames are made and released meanwhile; a connection
// dropped for being slow gives its reference back at once.
func TestAFrameIsReusedOnlyAfterEveryQueueReleasedIt(t *testing.T) {
	r := &Room{cfg: Config{SendBuffer: 2, Log: slog.New(slog.DiscardHandler), Clock: RealClock{}}, subs: map[*Sub]struct{}{}}
	fast, slow, full := &Sub{room: r}, &Sub{room: r}, &Sub{room: r}
	for _, s := range []*Sub{fast, slow, full} {
		r.subs[s] = struct{}{}
	}
	r.send(full, Out{Frame: []byte("a")})
	r.send(full, Out{Frame: []byte("b")}) // full's queue is at its bound now

	fb := encodeFrame(wire.ServerMessage{Type: "update", Seq: 7, Now: 1})
	want := bytes.Clone(fb.b)
	for _, s := range []*Sub{fast, slow, full} {
		r.send(s, fb.out())
	}
	if !full.dead {
		t.Fatal("a connection past its bound was not dropped")
	}
	fb.release() // the room is done with it
	if n := fb.refs.Load(); n != 2 {
		t.Fatalf("%d references after the room let go, want 2 (the two queues)", n)
	}

	o, ok, _ := fast.Take()
	if !ok || !bytes.Equal(o.Frame, want) {
		t.Fatalf("fast took %q, want %q", o.Frame, want)
	}
	o.Release()
	for i := 0; i < 100; i++ {
		other := encodeFrame(wire.ServerMessage{Type: "update", Seq: 1000 + i, Now: int64(i)})
		other.release()
	}
	o, ok, _ = slow.Take()
	if !ok || !bytes.Equal(o.Frame, want) {
		t.Fatalf("slow took %q after others were made, want %q", o.Frame, want)
	}
	o.Release()
	if n := fb.refs.Load(); n != 0 {
		t.Errorf("%d references once every queue released it", n)
	}
}

// TestFramesAreEncodedAsEncodeDoes: a pooled frame holds the same bytes as
// wire.Encode, also when its buffer held a longer frame before.
func TestFramesAreEncodedAsEncodeDoes(t *testing.T) {
	long := wire.ServerMessage{Type: "chat", Text: string(bytes.Repeat([]byte("x"), 5000)), Now: 2}
	short := wire.ServerMessage{Type: "warning", Deadline: 99, Now: 3}
	for _, m := range []wire.ServerMessage{long, short, long, short} {
		fb := encodeFrame(m)
		if want := wire.Encode(m); !bytes.Equal(fb.b, want) {
			t.Errorf("frame %q, Encode %q", fb.b, want)
		}
		fb.release()
	}
}
