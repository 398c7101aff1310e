package cluster

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
)

// record is one batch record (outbox.go) for session id's side.
func record(id string, side, kind byte, seq uint64, payload []byte) []byte {
	b := []byte{byte(len(id))}
	b = append(b, id...)
	b = append(b, side)
	b = binary.BigEndian.AppendUint32(b, uint32(headerLen+len(payload)))
	b = append(b, kind)
	b = binary.BigEndian.AppendUint64(b, seq)
	return append(b, payload...)
}

// heldOutbox gives n an outbox to peer whose sender does not run: what
// the sessions put waits until the test flushes it.
func heldOutbox(n *Node, peer string) *outbox {
	subj := subjectBatch + peer
	o := &outbox{n: n, peer: peer, subject: subj, ad: []byte(subj), wake: make(chan struct{}, 1), quit: n.quitOut, send: n.nc.Publish}
	n.mu.Lock()
	n.outboxes[peer] = o
	n.mu.Unlock()
	return o
}

// openPairs opens k sessions between the met nodes a (the clients' side)
// and b (the owner's), each over memConns, running until the test ends.
func openPairs(ctx context.Context, t *testing.T, a, b *Node, k int) (ma, mb []*memConn, ids []string) {
	t.Helper()
	var wg sync.WaitGroup
	var all []*session
	for i := range k {
		id := fmt.Sprintf("s%d", i)
		sa, err := a.newSession(id, b.ID(), "a")
		if err != nil {
			t.Fatal(err)
		}
		sb, err := b.newSession(id, a.ID(), "b")
		if err != nil {
			t.Fatal(err)
		}
		ca, cb := newMemConn(false), newMemConn(false)
		ma, mb, ids = append(ma, ca), append(mb, cb), append(ids, id)
		all = append(all, sa, sb)
		wg.Add(2)
		go func() { defer wg.Done(); sa.run(ca) }()
		go func() { defer wg.Done(); sb.run(cb) }()
	}
	eventually(ctx, t, "each node's batch subject is known to the other's server", func() bool {
		return interest(b, subjectBatch+a.ID()) && interest(a, subjectBatch+b.ID())
	})
	t.Cleanup(func() {
		for _, s := range all {
			s.fail(websocket.StatusNormalClosure, "")
		}
		wg.Wait()
	})
	return ma, mb, ids
}

// TestABroadcastToSeatsRelayedThroughOneNodeIsOneBusMessage pins issue
// 27's relay cost: the owner's frames for every seat relayed through the
// same node that are waiting together (a room's broadcast) cross the bus
// in one NATS message, which the relaying node splits into its sessions:
// each client gets its own frame, and only its own.
func TestABroadcastToSeatsRelayedThroughOneNodeIsOneBusMessage(t *testing.T) {
	ctx := within(t, 30*time.Second)
	const seats = 7
	ca, cb := newFakeClock(), newFakeClock()
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick})
	b := startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
	o := heldOutbox(b, "a")
	ma, _, ids := openPairs(ctx, t, a, b, seats)
	// What crosses the bus to a, as a stranger with the route would see it.
	var onBus atomic.Int64
	sub, err := a.nc.Subscribe(subjectBatch+"a", func(*nats.Msg) { onBus.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := a.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	eventually(ctx, t, "the listener is known to b's server", func() bool { return interest(b, subjectBatch+"a") })
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
	eventually(ctx, t, "the batch is seen on the bus", func() bool { return onBus.Load() >= 1 })
	if err := b.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := a.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := b.RelayStats().Batches - before; got != 1 {
		t.Fatalf("b sent %d bus messages for a broadcast to %d seats relayed through a, want 1", got, seats)
	}
	if got := onBus.Load(); got != 1 {
		t.Fatalf("%d messages crossed the bus for a broadcast to %d seats, want 1", got, seats)
	}
}

// TestTablesRelayedThroughOneNodeNeverCrossFrames pins the split: many
// sessions through the same two nodes, sending at once both ways,
// share the batches, and each side of each session gets exactly its own
// frames, in order.
func TestTablesRelayedThroughOneNodeNeverCrossFrames(t *testing.T) {
	ctx := within(t, 60*time.Second)
	const k, frames = 6, 120
	ca, cb := newFakeClock(), newFakeClock()
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick, Window: 8})
	b := startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Window: 8, Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
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
	t.Logf("b: %d frames in %d bus messages", b.RelayStats().FramesOut, b.RelayStats().Batches)
}

// TestARelayedFrameIsPutWithNoAllocation pins the owner's side of a
// relayed frame: it is copied into its node's batch, which is sealed in
// place and reused for the next once NATS has copied it out, so neither a
// frame nor a batch costs the garbage collector anything.
func TestARelayedFrameIsPutWithNoAllocation(t *testing.T) {
	c := newFakeClock()
	n := startNode(t, Config{ID: "a", Now: c.Now, Tick: c.Tick})
	if n.keys == nil {
		t.Fatal("the test node's bus has no secret: nothing would be sealed")
	}
	o := heldOutbox(n, "nobody")
	s, err := n.newSession("s1", "nobody", "a")
	if err != nil {
		t.Fatal(err)
	}
	// The bus's own work (the embedded server's) is not the relay's:
	// the batch goes to a copy, as NATS's Publish copies it.
	var sent []byte
	o.send = func(_ string, data []byte) error { sent = append(sent[:0], data...); return nil }
	frame := make([]byte, 300)
	o.flush() // the batch list's first memory
	allocs := testing.AllocsPerRun(200, func() {
		for range 5 {
			s.sent++
			s.publish(kindText, s.sent, frame)
		}
		o.flush()
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations a batch of five relayed frames, want 0", allocs)
	}
	// And the batch opens as the frame.
	s.publish(kindText, s.sent+1, frame)
	o.flush()
	d, ok := n.keys.open(subjectBatch+"nobody", sent)
	if want := record("s1", 'b', kindText, s.sent+1, frame); !ok || string(d) != string(want) {
		t.Fatal("the batch does not open as the frame's record")
	}
}

// TestABatchThatDoesNotParseIsDroppedWhole pins the split's guard: a
// record whose lengths run past the batch is dropped and counted, with
// nothing of it delivered.
func TestABatchThatDoesNotParseIsDroppedWhole(t *testing.T) {
	c := newFakeClock()
	n := startNode(t, Config{ID: "a", Now: c.Now, Tick: c.Tick})
	s, err := n.newSession("s1", "nobody", "a")
	if err != nil {
		t.Fatal(err)
	}
	good := record("s1", 'a', kindText, 1, []byte("x"))
	for name, d := range map[string][]byte{
		"message past the end": append(append([]byte{}, good...), record("s1", 'a', kindText, 2, []byte("y"))[:12]...),
		"id past the end":      append(append([]byte{}, good...), 200, 's'),
	} {
		before := n.dropped.Load()
		n.takeBatch(d, nil)
		if n.dropped.Load()-before != 1 {
			t.Errorf("%s: not counted as dropped", name)
		}
		for len(s.in) > 0 {
			if m := <-s.in; string(m.d[headerLen:]) != "x" {
				t.Errorf("%s: delivered %q", name, m.d)
			}
		}
	}
	n.takeBatch(record("s1", 'b', kindText, 1, []byte("for the other side")), nil)
	if len(s.in) != 0 {
		t.Error("a record for the other side was delivered")
	}
}
