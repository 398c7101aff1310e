package cluster

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// batchRecorder is a client's Conn that batches (as clientConn does): it
// records the frames written between each Begin and End as one write to
// the client, and each write outside a batch as one of its own.
type batchRecorder struct {
	mu     sync.Mutex
	on     bool
	cur    []string
	writes [][]string // what each system call to the client would carry
	closed bool
	code   websocket.StatusCode
}

func (c *batchRecorder) Read(ctx context.Context) (websocket.MessageType, []byte, error) {
	<-ctx.Done()
	return 0, nil, ctx.Err()
}

func (c *batchRecorder) Write(_ context.Context, _ websocket.MessageType, p []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.on {
		c.cur = append(c.cur, string(p))
		return nil
	}
	c.writes = append(c.writes, []string{string(p)})
	return nil
}

func (c *batchRecorder) Begin() {
	c.mu.Lock()
	c.on = true
	c.mu.Unlock()
}

func (c *batchRecorder) End() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on = false
	if len(c.cur) > 0 {
		c.writes = append(c.writes, c.cur)
		c.cur = nil
	}
	return nil
}

func (c *batchRecorder) Close(code websocket.StatusCode, _ string) error {
	c.mu.Lock()
	c.closed, c.code = true, code
	c.mu.Unlock()
	return nil
}

func (c *batchRecorder) CloseNow() error { return c.Close(0, "") }

func (c *batchRecorder) seen() (writes [][]string, closed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.writes), c.closed
}

// pumpOnly is a session whose pumpIn can run without a bus: its window
// is wide enough that no ack is published.
func pumpOnly(t *testing.T) *session {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	n := &Node{cfg: Config{Window: 1 << 20}}
	return &session{n: n, in: make(chan inMsg, 1<<10), ctx: ctx, cancel: cancel, ended: make(chan struct{}), more: make(chan struct{}, 1)}
}

// busMsg is a session's message seq of kind with payload, as its node
// hands it to the session, opened and split out of a batch.
func busMsg(kind byte, seq uint64, payload []byte) []byte {
	d := make([]byte, headerLen+len(payload))
	d[0] = kind
	binary.BigEndian.PutUint64(d[1:headerLen], seq)
	copy(d[headerLen:], payload)
	return d
}

// TestRelayWritesTheFramesWaitingForTheClientInOneWrite pins issue 27's
// relay cost: the frames that reached the relaying node while its writer
// was away go to the client in one write (one system call), in order, and
// the close after them.
func TestRelayWritesTheFramesWaitingForTheClientInOneWrite(t *testing.T) {
	s := pumpOnly(t)
	var want []string
	for i := range 5 {
		f := fmt.Sprintf("frame %d", i)
		want = append(want, f)
		s.in <- inMsg{d: busMsg(kindText, uint64(i+1), []byte(f))}
	}
	s.in <- inMsg{d: busMsg(kindClose, 6, closePayload(websocket.StatusPolicyViolation, "too_slow"))}
	c := &batchRecorder{}
	s.pumpIn(c)
	writes, closed := c.seen()
	if len(writes) != 1 || !slices.Equal(writes[0], want) {
		t.Fatalf("the client got %q, want the five waiting frames in one write", writes)
	}
	if !closed {
		t.Fatal("the close after the frames was not passed on")
	}
}

// TestRelayHoldsNoFrameForABatch pins the other half: a frame that arrives
// alone goes out at once, in a write of its own; the writer never waits
// for a frame that has not arrived (each frame's moment stays the
// owner's).
func TestRelayHoldsNoFrameForABatch(t *testing.T) {
	ctx := within(t, 30*time.Second)
	s := pumpOnly(t)
	c := &batchRecorder{}
	done := make(chan struct{})
	go func() { defer close(done); s.pumpIn(c) }()
	for i := range 3 {
		f := fmt.Sprintf("frame %d", i)
		s.in <- inMsg{d: busMsg(kindText, uint64(i+1), []byte(f))}
		eventually(ctx, t, f+" written alone", func() bool {
			w, _ := c.seen()
			return len(w) == i+1 && slices.Equal(w[i], []string{f})
		})
	}
	s.in <- inMsg{d: busMsg(kindClose, 4, closePayload(0, ""))}
	<-done
}
