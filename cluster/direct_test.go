//go:build linux

package cluster

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// smallSocket is the socket buffer size of smallSocketClient's two ends:
// a client that does not read fills them in a few frames.
const smallSocket = 4096

// smallSocketClient is a relayed client's WebSocket as the relaying node
// holds it (clientConn, through a wsbatch.Writer on a real TCP socket on
// loopback), with small socket buffers at both ends, and the client's own
// end for the test to read (or not).
func smallSocketClient(ctx context.Context, t *testing.T) (clientConn, *websocket.Conn) {
	t.Helper()
	got := make(chan clientConn, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c := acceptClient(w, r); c != nil {
			got <- *c
		}
	}))
	srv.Config.ConnState = func(c net.Conn, st http.ConnState) {
		if tc, ok := c.(*net.TCPConn); ok && st == http.StateNew {
			_ = tc.SetWriteBuffer(smallSocket)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	d := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) {
			_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, smallSocket)
		})
	}}
	hc := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	cc, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), &websocket.DialOptions{HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	cc.SetReadLimit(1 << 20)
	t.Cleanup(func() { cc.CloseNow() })
	select {
	case c := <-got:
		return c, cc
	case <-ctx.Done():
		t.Fatal("the client's WebSocket was not accepted")
	}
	return clientConn{}, nil
}

// directPair opens a session between linked nodes a and b whose relaying
// side (on a) writes to a real client's WebSocket with small socket
// buffers; the owner's side (on b) is a memConn the test sends frames
// through. Both end with the test.
func directPair(ctx context.Context, t *testing.T, a, b *Node, id string) (*websocket.Conn, *memConn) {
	t.Helper()
	sa, err := a.newSession(id, b.ID(), "a")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.newSession(id, a.ID(), "b")
	if err != nil {
		t.Fatal(err)
	}
	cc, client := smallSocketClient(ctx, t)
	mb := newMemConn(false)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sa.run(cc) }()
	go func() { defer wg.Done(); sb.run(mb) }()
	t.Cleanup(func() {
		sa.fail(websocket.StatusNormalClosure, "")
		sb.fail(websocket.StatusNormalClosure, "")
		cc.CloseNow()
		wg.Wait()
	})
	// The relaying side writes directly from its first frame: a frame
	// that came before its session ran would go to pumpIn, whose write
	// (the client reading nothing) would then hold every later frame
	// there, and no direct write would ever leave bytes (a machine under
	// load did that).
	eventually(ctx, t, "the relaying side's session runs with its direct write", func() bool {
		sa.mu.Lock()
		defer sa.mu.Unlock()
		return sa.direct != nil
	})
	return client, mb
}

// bigFrame is the owner's frame i of session id: 8 KiB, so that a few
// fill a small socket, and each different.
func bigFrame(id string, i int) string {
	head := fmt.Sprintf("%s frame %d ", id, i)
	return head + strings.Repeat(string(rune('a'+i%26)), 8<<10-len(head))
}

// readFrames reads n frames from the client and checks each is the
// owner's next frame of session id, from frame from on.
func readFrames(ctx context.Context, t *testing.T, c *websocket.Conn, id string, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		_, p, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("%s: reading frame %d: %v", id, i, err)
		}
		if want := bigFrame(id, i); string(p) != want {
			at := 0
			for at < min(len(p), len(want)) && p[at] == want[at] {
				at++
			}
			t.Fatalf("%s: frame %d (%d bytes) differs from the owner's (%d bytes) from byte %d: %.20q", id, i, len(p), len(want), at, p[at:])
		}
	}
}

// TestADirectWriteThatLeavesBytesKeepsTheFramesInOrder pins the relaying
// node's direct write (session.give): a frame written to the client from
// the goroutine that reads the link, never waiting for the socket, whose
// bytes the socket did not all take, has the rest written by the
// session's own goroutine first, and every frame after it follows in
// order, whole. Without the direct write no write leaves bytes (DirectLeft
// stays 0); with the rest lost or passed, a frame arrives broken or out
// of order.
func TestADirectWriteThatLeavesBytesKeepsTheFramesInOrder(t *testing.T) {
	ctx := within(t, 60*time.Second)
	a, b := linkedNodes(ctx, t, nil)
	client, owner := directPair(ctx, t, a, b, "d1")
	const frames = 200
	go func() {
		for i := range frames {
			owner.reads <- memFrame{data: bigFrame("d1", i)}
		}
	}()
	// The client reads nothing until a direct write has left bytes.
	eventually(ctx, t, "a direct write leaves part of its frame to the session", func() bool {
		return a.RelayStats().DirectLeft > 0
	})
	readFrames(ctx, t, client, "d1", 0, frames)
	t.Logf("frames written directly %d, of which left a rest %d", a.RelayStats().Direct, a.RelayStats().DirectLeft)
}

// TestASlowClientDoesNotHoldUpAnotherSessionsFramesOnTheLink pins that
// the direct write never waits for a client: while one client reads
// nothing (its socket full, its session's own goroutine waiting to write
// the rest), the frames of another session relayed on the same link keep
// arriving, and the slow client, once it reads, gets all of its own,
// whole and in order. A link reader that waited for the slow client's
// socket would hold the other session's frames until that socket's write
// deadline, which breaks the slow client's connection.
func TestASlowClientDoesNotHoldUpAnotherSessionsFramesOnTheLink(t *testing.T) {
	ctx := within(t, 60*time.Second)
	a, b := linkedNodes(ctx, t, nil)
	slow, slowOwner := directPair(ctx, t, a, b, "slow")
	quick, quickOwner := directPair(ctx, t, a, b, "quick")
	const frames = 100
	go func() {
		for i := range frames {
			slowOwner.reads <- memFrame{data: bigFrame("slow", i)}
		}
	}()
	// The slow socket holds a few frames: the owner's side sends a window
	// of them, unacknowledged, and waits with the next one read.
	eventually(ctx, t, "the slow client's socket is full and its window out", func() bool {
		return slowOwner.readCount.Load() > int64(b.cfg.Window)
	})
	// The slow session's next frames reach node a behind the rest that
	// waits for the socket; the quick session's come on the same link.
	go func() {
		for i := range frames {
			quickOwner.reads <- memFrame{data: bigFrame("quick", i)}
		}
	}()
	readFrames(ctx, t, quick, "quick", 0, frames)
	readFrames(ctx, t, slow, "slow", 0, frames)
}

// TestASessionsFramesOfOneBatchGoToItsClientInOneWrite pins the direct
// write's batch (directBatch): the frames of one turn for one relayed
// seat (a reply, a broadcast, a line of chat), which cross the link in
// one batch, go to the client's socket in one write, as the owner's room
// writes them to a seat of its own, whole and in order.
func TestASessionsFramesOfOneBatchGoToItsClientInOneWrite(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, b := linkedNodes(ctx, t, nil)
	sa, err := a.newSession("g1", b.ID(), "a")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.newSession("g1", a.ID(), "b")
	if err != nil {
		t.Fatal(err)
	}
	cc, client := smallSocketClient(ctx, t)
	tc := newTurnConn()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sa.run(cc) }()
	go func() { defer wg.Done(); sb.run(tc) }()
	t.Cleanup(func() {
		sa.fail(websocket.StatusNormalClosure, "")
		sb.fail(websocket.StatusNormalClosure, "")
		cc.CloseNow()
		wg.Wait()
	})
	o := b.outboxTo(a.ID())
	o.mu.Lock()
	if o.link == "" {
		o.link = a.linkAddr
	}
	o.mu.Unlock()
	eventually(ctx, t, "b's pumpOut waits", func() bool { return tc.waiting.Load() == 1 && tc.turn.Load() != nil })
	tc.queued("welcome")
	tc.Wake()
	if _, p, err := client.Read(ctx); err != nil || string(p) != "welcome" {
		t.Fatalf("the welcome: %q, %v", p, err)
	}
	eventually(ctx, t, "the welcome's write is done", func() bool { return o.wmu.TryLock() })
	o.wmu.Unlock()
	// b's pumpOut, back from sending the welcome, must be waiting again:
	// one still looking would take the turn's first frame alone, in a
	// batch of its own (a fast client's read of the welcome let the test
	// go on before it).
	eventually(ctx, t, "b's pumpOut waits again", func() bool { return tc.waiting.Load() == 1 })
	// a's direct write counts itself once the socket took it: the client
	// may read the frames first. The counts are read once it is over
	// (its wmu free).
	writeDone := func() bool {
		if !sa.wmu.TryLock() {
			return false
		}
		sa.wmu.Unlock()
		return true
	}
	eventually(ctx, t, "a's write of the welcome is over", writeDone)
	before := a.RelayStats()
	want := []string{"the reply", "the update", "a line of chat"}
	for _, f := range want {
		tc.queued(f)
	}
	turnRoom(tc)
	for _, f := range want {
		if _, p, err := client.Read(ctx); err != nil || string(p) != f {
			t.Fatalf("got %q, %v, want %q", p, err, f)
		}
	}
	eventually(ctx, t, "a's write of the turn's frames is over", writeDone)
	after := a.RelayStats()
	if d, w := after.Direct-before.Direct, after.DirectWrites-before.DirectWrites; d != 3 || w != 1 {
		t.Fatalf("%d frames written directly in %d writes, want 3 in 1", d, w)
	}
}
