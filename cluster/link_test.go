package cluster

// The relay's links (link.go): the batches between two nodes that both
// have one go on a TCP connection of their own, not on NATS, with the
// bus's rules kept (sealed for the receiving node, each session's order,
// node_gone when the link does not take a batch), and the link listener
// refuses strangers with a code.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
)

// linked gives a node a link listener on a free loopback port.
func linked(c *Config) { c.LinkListen = "127.0.0.1:0" }

// linkedNodes starts two met nodes a and b, both with links (with: more
// changes to both Configs, nil: none).
func linkedNodes(ctx context.Context, t *testing.T, with func(*Config)) (a, b *Node) {
	t.Helper()
	ca, cb := newFakeClock(), newFakeClock()
	cfgA := Config{ID: "a", Now: ca.Now, Tick: ca.Tick}
	linked(&cfgA)
	if with != nil {
		with(&cfgA)
	}
	a = startNode(t, cfgA)
	cfgB := Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Peers: []string{a.RouteURL()}}
	linked(&cfgB)
	if with != nil {
		with(&cfgB)
	}
	b = startNode(t, cfgB)
	meet(ctx, t, a, b)
	return a, b
}

// busBatches counts the batch messages to node id that cross the bus, as
// a stranger with the route would see them, from now on.
func busBatches(t *testing.T, n *Node, id string) *atomic.Int64 {
	t.Helper()
	var on atomic.Int64
	sub, err := n.nc.Subscribe(subjectBatch+id, func(*nats.Msg) { on.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Unsubscribe() })
	if err := n.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return &on
}

// TestABroadcastRelayedBetweenLinkedNodesIsOneLinkWriteAndNoBusMessage
// pins the link: between two nodes that both have one, the owner's frames
// for the seats relayed through the other node cross as one batch on the
// link, which the relaying node splits into its sessions, and nothing of
// it crosses NATS (with the batches on the bus, as before the links, the
// bus carries it: 1 message).
func TestABroadcastRelayedBetweenLinkedNodesIsOneLinkWriteAndNoBusMessage(t *testing.T) {
	ctx := within(t, 30*time.Second)
	const seats = 7
	a, b := linkedNodes(ctx, t, nil)
	if a.linkAddr == "" || b.linkAddr == "" {
		t.Fatalf("links announced: a %q, b %q", a.linkAddr, b.linkAddr)
	}
	o := heldOutbox(b, "a")
	o.link = a.linkAddr // as outboxTo makes it for a linked peer (the game test below)
	ma, _, ids := openPairs(ctx, t, a, b, seats)
	onBus := busBatches(t, a, "a")
	before := b.RelayStats().Batches
	b.mu.Lock()
	var owners []*session
	for _, id := range ids {
		owners = append(owners, b.sessions[id])
	}
	b.mu.Unlock()
	for i, s := range owners { // each seat's pumpOut, as the broadcast wakes them
		s.sent++
		s.publish(kindText, s.sent, fmt.Appendf(nil, "update for seat %d", i))
	}
	o.flush()
	for i, c := range ma {
		eventually(ctx, t, fmt.Sprintf("seat %d gets its frame", i), func() bool { return len(c.writtenFrames()) == 1 })
		if got, want := c.writtenFrames()[0], fmt.Sprintf("update for seat %d", i); got != want {
			t.Fatalf("seat %d got %q, want %q", i, got, want)
		}
	}
	if err := b.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := a.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := onBus.Load(); got != 0 {
		t.Fatalf("%d batches crossed the bus between linked nodes, want 0", got)
	}
	if got := b.RelayStats().Batches - before; got != 1 {
		t.Fatalf("b sent %d batches for a broadcast to %d seats relayed through a, want 1", got, seats)
	}
	a.mu.Lock()
	links := len(a.links)
	a.mu.Unlock()
	if links != 1 {
		t.Fatalf("a holds %d links, want b's one", links)
	}
}

// TestLinkedNodesKeepEachSessionsFramesInOrderBothWays pins the split on
// a link: many sessions through the same two nodes, sending at once both
// ways, each side of each session gets exactly its own frames, in order,
// and none crossed the bus.
func TestLinkedNodesKeepEachSessionsFramesInOrderBothWays(t *testing.T) {
	ctx := within(t, 60*time.Second)
	const k, frames = 6, 120
	a, b := linkedNodes(ctx, t, func(c *Config) { c.Window = 8 })
	toA, toB := busBatches(t, a, "a"), busBatches(t, b, "b")
	ma, mb, ids := openPairs(ctx, t, a, b, k)
	var wg sync.WaitGroup
	for i := range k {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := range frames {
				mb[i].reads <- memFrame{data: fmt.Sprintf("%s to the client %d", ids[i], j)}
			}
		}()
		go func() {
			defer wg.Done()
			for j := range frames / 4 {
				ma[i].reads <- memFrame{data: fmt.Sprintf("%s to the owner %d", ids[i], j)}
			}
		}()
	}
	wg.Wait()
	check := func(c *memConn, id, dir string, n int) {
		eventually(ctx, t, id+"'s frames "+dir+" arrive", func() bool { return len(c.writtenFrames()) >= n })
		got := c.writtenFrames()
		if len(got) != n {
			t.Fatalf("%s: %d frames %s, want %d", id, len(got), dir, n)
		}
		for j, f := range got {
			if want := fmt.Sprintf("%s %s %d", id, dir, j); f != want {
				t.Fatalf("%s: frame %d is %q, want %q", id, j, f, want)
			}
		}
	}
	for i, id := range ids {
		check(ma[i], id, "to the client", frames)
		check(mb[i], id, "to the owner", frames/4)
	}
	if a.nc.Flush() != nil || b.nc.Flush() != nil {
		t.Fatal("flush")
	}
	if toA.Load() != 0 || toB.Load() != 0 {
		t.Fatalf("batches on the bus between linked nodes: %d to a, %d to b, want none", toA.Load(), toB.Load())
	}
	t.Logf("b: %d frames in %d link batches", b.RelayStats().FramesOut, b.RelayStats().Batches)
}

// TestALinkedNodeRelaysOnTheBusToAPeerWithoutALink pins the fallback (a
// rolling upgrade: a peer that announces no link): the batches to and
// from it go on NATS, and the frames arrive.
func TestALinkedNodeRelaysOnTheBusToAPeerWithoutALink(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cb := newFakeClock(), newFakeClock()
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick, LinkListen: "127.0.0.1:0"})
	b := startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
	toA, toB := busBatches(t, a, "a"), busBatches(t, b, "b")
	ma, mb, _ := openPairs(ctx, t, a, b, 1)
	mb[0].reads <- memFrame{data: "to the client"}
	ma[0].reads <- memFrame{data: "to the owner"}
	eventually(ctx, t, "both frames arrive", func() bool {
		return len(ma[0].writtenFrames()) == 1 && len(mb[0].writtenFrames()) == 1
	})
	eventually(ctx, t, "both went on the bus", func() bool { return toA.Load() >= 1 && toB.Load() >= 1 })
}

// TestABrokenLinkEndsThePeersSessionsNodeGone pins a link that does not
// take a batch: a write fails on a link still open (so its watcher, which
// sees only a link that ends, cannot tell), the sender's sessions with
// that peer end 1012 node_gone, and their close reaches the other node on
// a new link, whose clients are closed the same way. With the failed
// write not ending them, nothing ends them: the frames go on, each on a
// new link, and the test runs out of time.
func TestABrokenLinkEndsThePeersSessionsNodeGone(t *testing.T) {
	ctx := within(t, 30*time.Second)
	var broken breakingDial
	a, b := linkedNodes(ctx, t, func(c *Config) { c.DialLink = broken.dial })
	ma, mb, _ := openPairs(ctx, t, a, b, 2)
	mb[0].reads <- memFrame{data: "before"}
	eventually(ctx, t, "a frame crosses the link", func() bool { return len(ma[0].writtenFrames()) == 1 })
	// b's link to a fails its next write (as one past its deadline), open.
	broken.breakAll()
	// b's owner side goes on sending, a frame once the last one reached
	// a, until a write fails. (Not once the last one's batch was counted:
	// a batch is counted before its write, so the next frame could go out
	// on a new link before the failed write had ended the sessions, and a
	// closed the session 1011 for the gap in its sequence, as it must.)
	gone := func() bool { _, _, ok := mb[0].closeOf(); return ok }
	for i := 0; !gone(); i++ {
		arrived := len(ma[0].writtenFrames())
		mb[0].reads <- memFrame{data: fmt.Sprint("after ", i)}
		eventually(ctx, t, "the frame reaches a, or its write fails", func() bool { return len(ma[0].writtenFrames()) > arrived || gone() })
	}
	for _, c := range []*memConn{ma[0], ma[1], mb[0], mb[1]} {
		eventually(ctx, t, "every side of every session is closed", func() bool { _, _, ok := c.closeOf(); return ok })
		if code, reason, _ := c.closeOf(); code != closeNodeGone || reason != reasonNodeGone {
			t.Fatalf("closed %d %q, want 1012 node_gone", code, reason)
		}
	}
	if n := broken.count(); n < 2 {
		t.Fatalf("b dialled %d links, want a new one for the closes", n)
	}
}

// breakingDial is a Config.DialLink whose links can be made to fail
// every write from a moment on, staying open.
type breakingDial struct {
	mu    sync.Mutex
	conns []*breakingConn
}

func (d *breakingDial) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var nd net.Dialer
	c, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	bc := &breakingConn{Conn: c}
	d.mu.Lock()
	d.conns = append(d.conns, bc)
	d.mu.Unlock()
	return bc, nil
}

// breakAll makes every link dialled so far fail its writes.
func (d *breakingDial) breakAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.conns {
		c.broken.Store(true)
	}
}

func (d *breakingDial) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.conns)
}

type breakingConn struct {
	net.Conn
	broken atomic.Bool
}

func (c *breakingConn) Write(p []byte) (int, error) {
	if c.broken.Load() {
		return 0, errors.New("broken link (the test's)")
	}
	return c.Conn.Write(p)
}

// TestALinkListenerRefusesStrangersWithACode pins the link's door: a
// connection whose first message is too large, not sealed, or sealed for
// another node is answered with its refusal's code and closed, and
// counted with the bus's dropped messages; one that says nothing is closed
// after OpenWait (the next test); past maxLinks at once a link is refused too_many. A
// session between the nodes is not disturbed.
func TestALinkListenerRefusesStrangersWithACode(t *testing.T) {
	ctx := within(t, 30*time.Second)
	// OpenWait is long here: the links held for too_many must not end
	// for their silence before the last is refused (the next test's).
	a, b := linkedNodes(ctx, t, func(c *Config) { c.OpenWait = time.Minute })
	ma, mb, _ := openPairs(ctx, t, a, b, 1)
	mb[0].reads <- memFrame{data: "first"}
	eventually(ctx, t, "b's link to a is up", func() bool { return len(ma[0].writtenFrames()) == 1 })
	msg := func(data []byte) []byte {
		return append(binary.BigEndian.AppendUint32(nil, uint32(len(data))), data...)
	}
	sealedFor := func(subject string) []byte {
		buf := make([]byte, b.keys.prefix(), b.keys.prefix()+b.keys.suffix())
		return b.keys.sealIn([]byte(subject), buf)
	}
	for _, tc := range []struct {
		name string
		send []byte
		want string
	}{
		{"a hello of 8 MiB", binary.BigEndian.AppendUint32(nil, 8<<20), refuseLinkTooLarge},
		{"a plain hello", msg([]byte("hello, I am a node")), refuseLinkUnsealed},
		{"a hello sealed for another node", msg(sealedFor(subjectBatch + "b")), refuseLinkUnsealed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := a.dropped.Load()
			c, err := net.Dial("tcp", a.linkAddr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			r := bufio.NewReader(c)
			if _, err := io.ReadFull(r, make([]byte, linkChallenge)); err != nil {
				t.Fatalf("no challenge: %v", err)
			}
			if _, err := c.Write(tc.send); err != nil {
				t.Fatal(err)
			}
			line, err := r.ReadString('\n')
			if strings.TrimSpace(line) != tc.want {
				t.Fatalf("answered %q (%v), want %q", line, err, tc.want)
			}
			if a.dropped.Load() == before {
				t.Fatal("not counted as dropped")
			}
		})
	}
	t.Run("too many links", func(t *testing.T) {
		// The strangers above are let go; b's link stays.
		eventually(ctx, t, "a holds b's link alone", func() bool {
			a.mu.Lock()
			defer a.mu.Unlock()
			return len(a.links) == 1
		})
		const held = 1
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for range maxLinks - held {
			c, err := net.Dial("tcp", a.linkAddr)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		eventually(ctx, t, "a holds maxLinks links", func() bool {
			a.mu.Lock()
			defer a.mu.Unlock()
			return len(a.links) == maxLinks
		})
		c, err := net.Dial("tcp", a.linkAddr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		line, err := bufio.NewReader(c).ReadString('\n')
		if strings.TrimSpace(line) != refuseLinkTooMany {
			t.Fatalf("the link past maxLinks: %q (%v), want %q", line, err, refuseLinkTooMany)
		}
	})
	mb[0].reads <- memFrame{data: "still here"}
	eventually(ctx, t, "the session's frame arrives", func() bool { return len(ma[0].writtenFrames()) == 2 })
	if _, _, closed := ma[0].closeOf(); closed {
		t.Fatal("the session was closed")
	}
}

// TestALinkThatSaysNothingIsClosedAfterOpenWait pins the link's wait for
// its hello: a connection that sends nothing is closed.
func TestALinkThatSaysNothingIsClosedAfterOpenWait(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, _ := linkedNodes(ctx, t, func(c *Config) { c.OpenWait = 300 * time.Millisecond })
	c, err := net.Dial("tcp", a.linkAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second)) // a bound, far past OpenWait
	// The challenge, then the close.
	n, err := io.Copy(io.Discard, c)
	if n != linkChallenge {
		t.Fatalf("a silent link read %d bytes, %v: want the challenge's %d, then the close", n, err, linkChallenge)
	}
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the silent link was not closed by the node")
	}
}

// TestARelayedFrameIsPutAndWrittenToALinkWithNoAllocation pins the
// owner's side on a link: the frames are copied into the batch, sealed in
// place, and written with the link's length in the room kept before it:
// nothing allocated per frame or per batch.
func TestARelayedFrameIsPutAndWrittenToALinkWithNoAllocation(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, b := linkedNodes(ctx, t, nil)
	o := heldOutbox(b, "a")
	o.link = a.linkAddr
	s, err := b.newSession("s1", "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	frame := make([]byte, 300)
	s.sent++
	s.publish(kindText, s.sent, frame)
	o.flush() // the dial, the hello and the batch list's first memory
	if o.conn == nil {
		t.Fatal("no link was dialled")
	}
	allocs := testing.AllocsPerRun(200, func() {
		for range 5 {
			s.sent++
			s.publish(kindText, s.sent, frame)
		}
		o.flush()
	})
	if allocs != 0 && !raceOn {
		t.Fatalf("%.1f allocations a batch of five relayed frames on a link, want 0", allocs)
	}
}

// TestARelayedGameBetweenLinkedNodesSeesExactlyTheOwnersFrames is
// TestRelayedSeatSeesExactlyTheOwnersFrames with links: a whole game
// relayed, every frame as a direct connection sees it, on the link.
func TestARelayedGameBetweenLinkedNodesSeesExactlyTheOwnersFrames(t *testing.T) {
	p := relayedSeatSeesExactlyTheOwnersFrames(t, linked)
	for _, n := range []*Node{p.a, p.b} {
		n.mu.Lock()
		o := n.outboxes[map[string]string{"a": "b", "b": "a"}[n.ID()]]
		n.mu.Unlock()
		if o == nil || o.link == "" {
			t.Fatalf("node %s relayed on the bus, not its link", n.ID())
		}
	}
}

// TestALinkThatEndsEndsThePeersSessionsAtOnceAndANewOneIsDialled pins
// the link's watcher: when the peer ends the link (its process gone, a
// reset), batches in flight may be lost, so the sessions with it end 1012
// node_gone at once, with no batch to send; a session opened after that
// gets its frames on a new link.
func TestALinkThatEndsEndsThePeersSessionsAtOnceAndANewOneIsDialled(t *testing.T) {
	ctx := within(t, 30*time.Second)
	a, b := linkedNodes(ctx, t, nil)
	ma, mb, _ := openPairs(ctx, t, a, b, 2)
	mb[0].reads <- memFrame{data: "before"}
	eventually(ctx, t, "a frame crosses the link", func() bool { return len(ma[0].writtenFrames()) == 1 })
	a.mu.Lock()
	for c := range a.links {
		c.Close()
	}
	a.mu.Unlock()
	for _, c := range []*memConn{ma[0], ma[1], mb[0], mb[1]} {
		eventually(ctx, t, "every side of every session is closed", func() bool { _, _, ok := c.closeOf(); return ok })
		if code, reason, _ := c.closeOf(); code != closeNodeGone || reason != reasonNodeGone {
			t.Fatalf("closed %d %q, want 1012 node_gone", code, reason)
		}
	}
	sa, err := a.newSession("later", "b", "a")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.newSession("later", "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	ca, cb := newMemConn(false), newMemConn(false)
	done := make(chan struct{}, 2)
	go func() { sa.run(ca); done <- struct{}{} }()
	go func() { sb.run(cb); done <- struct{}{} }()
	cb.reads <- memFrame{data: "after"}
	eventually(ctx, t, "the new session's frame crosses a new link", func() bool { return len(ca.writtenFrames()) == 1 })
	if _, _, closed := ca.closeOf(); closed {
		t.Fatal("the new session was closed")
	}
	sa.fail(websocket.StatusNormalClosure, "")
	<-done
	<-done
}

// tap records what the links a node dials write, as one on the wire
// would see it (Config.DialLink).
type tap struct {
	mu    sync.Mutex
	links [][]byte // each dialled link's bytes, in order
}

// dial is a Config.DialLink that records the link's writes.
func (tp *tap) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	tp.mu.Lock()
	tp.links = append(tp.links, nil)
	i := len(tp.links) - 1
	tp.mu.Unlock()
	return &tappedConn{Conn: c, tp: tp, i: i}, nil
}

// first is the first link's bytes so far.
func (tp *tap) first() []byte {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if len(tp.links) == 0 {
		return nil
	}
	return bytes.Clone(tp.links[0])
}

type tappedConn struct {
	net.Conn
	tp *tap
	i  int
}

func (c *tappedConn) Write(p []byte) (int, error) {
	c.tp.mu.Lock()
	c.tp.links[c.i] = append(c.tp.links[c.i], p...)
	c.tp.mu.Unlock()
	return c.Conn.Write(p)
}

// TestALinkHelloCapturedAndReplayedIsRefusedStale pins the link's
// challenge: the hello (and the batches after it) a real link sent,
// captured off the wire and sent again on a new connection, is answered
// relay_link_refused stale and closed, counted, and none of its batches
// reaches a session (the session's frames arrive once). Without the
// challenge the replayed hello opened, and the stranger held a link.
func TestALinkHelloCapturedAndReplayedIsRefusedStale(t *testing.T) {
	ctx := within(t, 30*time.Second)
	var tp tap
	a, b := linkedNodes(ctx, t, func(c *Config) { c.DialLink = tp.dial })
	ma, mb, _ := openPairs(ctx, t, a, b, 1)
	mb[0].reads <- memFrame{data: "captured"}
	eventually(ctx, t, "a frame crosses the link", func() bool { return len(ma[0].writtenFrames()) == 1 })
	wire := tp.first()
	if len(wire) < linkHeader {
		t.Fatal("nothing captured")
	}
	l := int(binary.BigEndian.Uint32(wire))
	if l > maxLinkHello || len(wire) <= linkHeader+l {
		t.Fatalf("captured %d bytes, a hello of %d: want the hello and a batch", len(wire), l)
	}
	before := a.dropped.Load()
	c, err := net.Dial("tcp", a.linkAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second)) // a bound: a link that opens answers nothing
	r := bufio.NewReader(c)
	if _, err := io.ReadFull(r, make([]byte, linkChallenge)); err != nil {
		t.Fatalf("no challenge: %v", err)
	}
	if _, err := c.Write(wire); err != nil {
		t.Fatal(err)
	}
	line, err := r.ReadString('\n')
	if strings.TrimSpace(line) != refuseLinkStale {
		t.Fatalf("the replayed hello was answered %q (%v), want %q", line, err, refuseLinkStale)
	}
	if a.dropped.Load() == before {
		t.Fatal("not counted as dropped")
	}
	mb[0].reads <- memFrame{data: "still here"}
	eventually(ctx, t, "the session's next frame arrives", func() bool { return len(ma[0].writtenFrames()) == 2 })
	if got := ma[0].writtenFrames(); got[0] != "captured" || got[1] != "still here" {
		t.Fatalf("the client got %q, want the two frames once each", got)
	}
	if _, _, closed := ma[0].closeOf(); closed {
		t.Fatal("the session was closed")
	}
}

// batchingMemConn is a memConn that batches as the client's WebSocket
// does (clientConn): its writes copy the frame, so the relay gives the
// link's buffer back once a frame is written.
type batchingMemConn struct{ *memConn }

func (batchingMemConn) Begin()     {}
func (batchingMemConn) End() error { return nil }

// TestALinkBufferGoesBackOnceEveryRecordIsWrittenToTheClient pins the
// link buffer's holds: a batch's buffer is held by each of its records
// until the session's reader has written it to the client's WebSocket
// (which copies it) and is then free for the next batch; given to a Conn
// that may keep the bytes (the owner's server in process), it stays held.
func TestALinkBufferGoesBackOnceEveryRecordIsWrittenToTheClient(t *testing.T) {
	for _, tc := range []struct {
		name     string
		conn     func() Conn
		wantHeld int32
	}{
		{"the client's WebSocket", func() Conn { return &batchRecorder{} }, 0},
		{"a Conn that may keep the bytes", func() Conn { return newMemConn(false) }, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := pumpOnly(t)
			lb := getLinkBuf(64)
			for i := range 3 { // a batch's records for this session
				lb.hold()
				s.in <- inMsg{d: busMsg(kindText, uint64(i+1), []byte(fmt.Sprint("frame ", i))), lb: lb}
			}
			lb.hold()
			s.in <- inMsg{d: busMsg(kindAck, 1, nil), lb: lb} // an ack: taken, not written
			lb.release()                                      // the link reader's own hold
			s.in <- inMsg{d: busMsg(kindClose, 4, closePayload(0, ""))}
			s.pumpIn(tc.conn())
			if got := lb.refs.Load(); got != tc.wantHeld {
				t.Fatalf("the buffer is held %d times after the frames were written, want %d", got, tc.wantHeld)
			}
		})
	}
}

// TestLinkBuffersUsedAgainCarryEveryFrameIntact is
// TestLinkedNodesKeepEachSessionsFramesInOrderBothWays with the clients'
// Conns batching, so that the relaying node reads the link's batches into
// buffers it uses again: every frame arrives as sent, in order (a buffer
// used again while a record in it waited would show another frame's
// bytes), and the buffers made are fewer than the batches read.
func TestLinkBuffersUsedAgainCarryEveryFrameIntact(t *testing.T) {
	ctx := within(t, 60*time.Second)
	const k, frames = 6, 200
	a, b := linkedNodes(ctx, t, func(c *Config) { c.Window = 8 })
	made := linkBufsMade.Load()
	batches := a.RelayStats().Batches + b.RelayStats().Batches // both nodes read into the pool
	var ma []*memConn
	var ids []string
	var wg sync.WaitGroup
	for i := range k {
		id := fmt.Sprintf("buf%d", i)
		sa, err := a.newSession(id, "b", "a")
		if err != nil {
			t.Fatal(err)
		}
		sb, err := b.newSession(id, "a", "b")
		if err != nil {
			t.Fatal(err)
		}
		ca, cb := newMemConn(false), newMemConn(false)
		ma, ids = append(ma, ca), append(ids, id)
		wg.Add(2)
		go func() { defer wg.Done(); sa.run(batchingMemConn{ca}) }()
		go func() { defer wg.Done(); sb.run(cb) }()
		go func() {
			for j := range frames {
				cb.reads <- memFrame{data: fmt.Sprintf("%s frame %d of the owner's %s", id, j, strings.Repeat("x", j%50))}
			}
		}()
	}
	for i, c := range ma {
		eventually(ctx, t, ids[i]+"'s frames arrive", func() bool { return len(c.writtenFrames()) >= frames })
		for j, f := range c.writtenFrames() {
			if want := fmt.Sprintf("%s frame %d of the owner's %s", ids[i], j, strings.Repeat("x", j%50)); f != want {
				t.Fatalf("%s: frame %d is %q, want %q", ids[i], j, f, want)
			}
		}
	}
	read, bufs := a.RelayStats().Batches+b.RelayStats().Batches-batches, linkBufsMade.Load()-made
	t.Logf("the nodes read %d batches into %d buffers", read, bufs)
	// The race detector's sync.Pool drops what it is given at random.
	if bufs >= read && !raceOn {
		t.Fatalf("%d buffers made for %d batches: none used again", bufs, read)
	}
	for _, c := range ma {
		c.end(websocket.StatusNormalClosure, "")
	}
	a.mu.Lock()
	var ss []*session
	for _, s := range a.sessions {
		ss = append(ss, s)
	}
	a.mu.Unlock()
	for _, s := range ss {
		s.fail(websocket.StatusNormalClosure, "")
	}
	wg.Wait()
}
