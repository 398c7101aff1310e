package cluster

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// countConn is a client's connection on the relaying node in a benchmark:
// each frame written is told on got.
type countConn struct {
	got  chan struct{}
	done chan struct{}
}

func (c *countConn) Read(ctx context.Context) (websocket.MessageType, []byte, error) {
	select {
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	case <-c.done:
		return 0, nil, websocket.CloseError{Code: websocket.StatusNormalClosure}
	}
}

func (c *countConn) Write(context.Context, websocket.MessageType, []byte) error {
	c.got <- struct{}{}
	return nil
}

func (c *countConn) Close(websocket.StatusCode, string) error { return nil }
func (c *countConn) CloseNow() error                          { return nil }

// wokenConn is a turnConn that offers only Next (a frameSource): its
// session's pumpOut is woken for each frame and the outbox's sender
// writes the batch, the relay before the rooms' turns sent it.
type wokenConn struct{ c *turnConn }

func (w wokenConn) Read(ctx context.Context) (websocket.MessageType, []byte, error) {
	return w.c.Read(ctx)
}
func (w wokenConn) Write(ctx context.Context, typ websocket.MessageType, p []byte) error {
	return w.c.Write(ctx, typ, p)
}
func (w wokenConn) Close(code websocket.StatusCode, reason string) error {
	return w.c.Close(code, reason)
}
func (w wokenConn) CloseNow() error { return w.c.CloseNow() }
func (w wokenConn) Next(ctx context.Context, f func(websocket.MessageType, []byte) error) error {
	return w.c.Next(ctx, f)
}

// BenchmarkRelayBroadcastInProcess measures a room's broadcast to 8 seats
// relayed through one node, the owner's server in process, on a link
// (an op: one frame of benchFrame bytes to each seat, until every client
// has written it): turn, the room's goroutine hands the frames over and
// writes the batch at the turn's end; woken, each seat's pumpOut is woken
// and the outbox's sender writes (the relay before). Run each alone under
// /usr/bin/time for the process's CPU.
func BenchmarkRelayBroadcastInProcess(b *testing.B) {
	const seats = 8
	for _, how := range []string{"turn", "woken"} {
		b.Run(how, func(b *testing.B) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			ca, cb := newFakeClock(), newFakeClock()
			cfgA := Config{ID: "a", Now: ca.Now, Tick: ca.Tick}
			linked(&cfgA)
			na := startNode(b, cfgA)
			cfgB := Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Peers: []string{na.RouteURL()}}
			linked(&cfgB)
			nb := startNode(b, cfgB)
			meet(ctx, b, na, nb)
			got := make(chan struct{}, 4*seats)
			done := make(chan struct{})
			var tcs []*turnConn
			var all []*session
			for i := range seats {
				id := fmt.Sprintf("s%d", i)
				sa, err := na.newSession(id, "b", "a")
				if err != nil {
					b.Fatal(err)
				}
				sb, err := nb.newSession(id, "a", "b")
				if err != nil {
					b.Fatal(err)
				}
				tc := newTurnConn()
				tcs = append(tcs, tc)
				all = append(all, sa, sb)
				go sa.run(&countConn{got: got, done: done})
				if how == "turn" {
					go sb.run(tc)
				} else {
					go sb.run(wokenConn{tc})
				}
			}
			o := nb.outboxTo("a")
			o.mu.Lock()
			if o.link == "" {
				o.link = na.linkAddr
			}
			o.mu.Unlock()
			for _, tc := range tcs {
				eventually(ctx, b, "b's pumpOut waits", func() bool { return tc.waiting.Load() == 1 })
			}
			frame := string(bytes.Repeat([]byte{'x'}, benchFrame))
			b.ResetTimer()
			for range b.N {
				for _, tc := range tcs {
					tc.queued(frame)
				}
				if how == "turn" {
					turnRoom(tcs...)
				} else {
					for _, tc := range tcs {
						tc.Wake()
					}
				}
				for range seats {
					<-got
				}
			}
			b.StopTimer()
			close(done)
			for _, s := range all {
				s.fail(websocket.StatusNormalClosure, "")
			}
		})
	}
}
