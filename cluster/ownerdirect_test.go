package cluster

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// ownerConn is the owner's server's end of a session as server.RelayedConn
// offers it: a memConn that also takes a client's frame on the goroutine
// that reads the link (TryWrite), except a frame starting "voice", which
// it leaves to Write on the session's own goroutine (as the server leaves
// a voice frame, or one that needs the full parser). tried counts the
// frames TryWrite took.
type ownerConn struct {
	*memConn
	tried atomic.Int64
}

func (c *ownerConn) TryWrite(typ websocket.MessageType, p []byte) (bool, error) {
	if strings.HasPrefix(string(p), "voice") {
		return false, nil
	}
	c.tried.Add(1)
	c.mu.Lock()
	c.written = append(c.written, string(p))
	c.mu.Unlock()
	return true, nil
}

// ownerPair opens a session between linked nodes a and b: the client's
// side (on a) is a memConn whose frames the test queues, the owner's (on
// b) an ownerConn (gated: its Write, not its TryWrite, waits for the
// gate).
func ownerPair(ctx context.Context, t *testing.T, a, b *Node, id string, gated bool) (*memConn, *ownerConn) {
	t.Helper()
	sa, err := a.newSession(id, b.ID(), "a")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.newSession(id, a.ID(), "b")
	if err != nil {
		t.Fatal(err)
	}
	ma, ob := newMemConn(false), &ownerConn{memConn: newMemConn(gated)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sa.run(ma) }()
	go func() { defer wg.Done(); sb.run(ob) }()
	t.Cleanup(func() {
		sa.fail(websocket.StatusNormalClosure, "")
		sb.fail(websocket.StatusNormalClosure, "")
		ob.CloseNow()
		ma.CloseNow()
		wg.Wait()
	})
	return ma, ob
}

// TestTheOwnersServerTakesAClientsFramesAsTheLinkIsRead pins the owner's
// read of the clients' frames (session.writeOwner): the frames the
// owner's server can take without waiting are handed to it by the
// goroutine that reads the link (no hand-off to the session's own
// goroutine), and one it leaves goes to that goroutine's Write, in its
// place: every frame arrives once and in order.
func TestTheOwnersServerTakesAClientsFramesAsTheLinkIsRead(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, b := linkedNodes(ctx, t, nil)
	client, owner := ownerPair(ctx, t, a, b, "o1", false)
	var want []string
	for i := range 300 {
		f := fmt.Sprintf("frame %d", i)
		if i%7 == 3 {
			f = fmt.Sprintf("voice %d", i)
		}
		want = append(want, f)
		client.reads <- memFrame{data: f}
	}
	eventually(ctx, t, "every frame reaches the owner's server", func() bool {
		return len(owner.writtenFrames()) == len(want)
	})
	if got := owner.writtenFrames(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the owner's server got %q, want %q", got, want)
	}
	st := b.RelayStats()
	if st.OwnerDirect == 0 || st.OwnerDirect != owner.tried.Load() {
		t.Fatalf("OwnerDirect %d, frames the server took as the link was read %d: want them equal and above 0", st.OwnerDirect, owner.tried.Load())
	}
	t.Logf("taken as the link was read: %d of %d", st.OwnerDirect, len(want))
}

// TestAFrameLeftToTheSessionDoesNotHoldUpAnotherSessionOnTheLink pins
// that the owner's read never waits for a session: while one session's
// server holds its Write (a frame it left to the session's own goroutine,
// waiting), that session's next frames queue behind it, and another
// session's frames on the same link keep reaching its server.
func TestAFrameLeftToTheSessionDoesNotHoldUpAnotherSessionOnTheLink(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, b := linkedNodes(ctx, t, nil)
	slowClient, slow := ownerPair(ctx, t, a, b, "slow", true)
	quickClient, quick := ownerPair(ctx, t, a, b, "quick", false)
	slowClient.reads <- memFrame{data: "voice 0"} // left to Write, which waits for the gate
	slowClient.reads <- memFrame{data: "frame 1"} // behind it, never passing it
	for i := range 20 {
		quickClient.reads <- memFrame{data: fmt.Sprintf("frame %d", i)}
	}
	eventually(ctx, t, "the other session's frames reach its server", func() bool {
		return len(quick.writtenFrames()) == 20
	})
	if got := slow.writtenFrames(); len(got) != 0 {
		t.Fatalf("the held session's server got %q before its first frame was taken", got)
	}
	close(slow.gate)
	eventually(ctx, t, "the held session's frames follow, in order", func() bool {
		return strings.Join(slow.writtenFrames(), "|") == "voice 0|frame 1"
	})
}

// TestAnAckRidesWithTheNextBatchAndIsSentAloneOnlyPastThreeQuarters pins
// the acks' timing (session.deliveredOne): an ack due at half a window is
// put into the outbox with no write of its own and goes with the next
// batch to the other node (here, the client's next frame); with nothing
// else going, the outbox is sent once three quarters of a window are
// delivered past the last ack on its way, so a sender never waits for an
// ack that is not coming.
func TestAnAckRidesWithTheNextBatchAndIsSentAloneOnlyPastThreeQuarters(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, b := linkedNodes(ctx, t, nil)
	client, owner := ownerPair(ctx, t, a, b, "k1", false)
	w := a.cfg.Window // 64
	acked := func() uint64 {
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.sessions["k1"].acked.Load()
	}
	send := func(from, to int) {
		for i := from; i < to; i++ {
			owner.reads <- memFrame{data: fmt.Sprintf("frame %d", i)}
		}
		eventually(ctx, t, fmt.Sprintf("the client has the owner's frames up to %d", to), func() bool {
			return len(client.writtenFrames()) == to
		})
	}
	send(0, w/2+w/8) // an ack due at w/2, put, not sent
	if n := a.RelayStats().PutWrites + a.RelayStats().SenderWrites; n != 0 || acked() != 0 {
		t.Fatalf("the ack went alone: %d writes by the client's node, the owner knows of %d frames delivered", n, acked())
	}
	owner.memConn.mu.Lock()
	owner.memConn.written = nil
	owner.memConn.mu.Unlock()
	client.reads <- memFrame{data: "a command"} // the ack rides with it
	eventually(ctx, t, "the ack reaches the owner with the client's frame", func() bool {
		return acked() == uint64(w/2) && len(owner.writtenFrames()) == 1
	})
	// Nothing else goes from the client's node: the ack due at w goes
	// alone once 3w/4 are delivered past the one at w/2 (at 5w/4).
	send(w/2+w/8, w+w/4-1)
	if acked() != uint64(w/2) {
		t.Fatalf("the owner knows of %d frames delivered before three quarters of a window past the last ack sent", acked())
	}
	send(w+w/4-1, w+w/4)
	eventually(ctx, t, "the ack due at a window reaches the owner alone", func() bool {
		return acked() == uint64(w)
	})
}

// TestTheLinkReaderTakesBatchesOfEverySize pins the link's reader
// (readLinkRaw): batches smaller than its buffer, many in one read, and
// batches larger than it (read into their own buffer), in any mix, reach
// the sessions whole and in order.
func TestTheLinkReaderTakesBatchesOfEverySize(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, b := linkedNodes(ctx, t, nil)
	client, owner := ownerPair(ctx, t, a, b, "z1", false)
	var want []string
	for i := range 120 {
		size := []int{10, 700, 5000, 31 << 10, 33 << 10, 100 << 10, 300 << 10}[i%7]
		head := fmt.Sprintf("frame %d ", i)
		want = append(want, head+strings.Repeat(string(rune('a'+i%26)), max(size-len(head), 0)))
	}
	go func() {
		for _, f := range want {
			owner.reads <- memFrame{data: f}
		}
	}()
	eventually(ctx, t, "every frame reaches the client", func() bool {
		return len(client.writtenFrames()) == len(want)
	})
	for i, f := range client.writtenFrames() {
		if f != want[i] {
			t.Fatalf("frame %d: %d bytes, %.20q, want %d bytes, %.20q", i, len(f), f, len(want[i]), want[i])
		}
	}
}
