package server

import (
	"context"
	"runtime"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// pingAll sends a protocol ping on each connection and reads each until
// its answer.
func pingAll(ctx context.Context, t *testing.T, conns []*wsConn) {
	t.Helper()
	for _, c := range conns {
		id, err := c.send(ctx, wire.ClientMessage{Type: "ping"})
		if err != nil {
			t.Fatal(err)
		}
		for {
			_, m, err := c.read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if m.ID == id {
				break
			}
		}
	}
}

// eventually waits until cond holds (polled: a state, not a timing),
// failing when ctx ends first.
func eventually(ctx context.Context, t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("never: %s", what)
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// peersOf is the server's open WebSockets (those its pings sweep).
func peersOf(s *Server) []*peer {
	s.pings.mu.Lock()
	defer s.pings.mu.Unlock()
	var ps []*peer
	for wc := range s.pings.set {
		ps = append(ps, wc)
	}
	return ps
}

// TestPoll_AnIdleConnectionIsParkedAndWokenByItsFrames: on Linux, a
// table's connections, once they have nothing more to read, wait in the
// server's poller with no goroutine reading them; a frame sent to a
// parked connection is read and answered; and a connection that closes
// leaves the poller. With the poller off (Config.GoroutinePerConnection,
// `mafia serve --ws-poller=false`; or elsewhere) each connection has its
// reader goroutine and the same frames are answered.
func TestPoll_AnIdleConnectionIsParkedAndWokenByItsFrames(t *testing.T) {
	for _, off := range []bool{false, true} {
		name := "poller"
		if off {
			name = "goroutine per connection"
		}
		t.Run(name, func(t *testing.T) {
			ts := startServerWith(t, "", func(c *Config) { c.GoroutinePerConnection = off })
			ctx := within(t, 60*time.Second)
			tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "Poll", Players: 5}, []int{1, 2, 3}, 1)
			var conns []*wsConn
			for _, p := range tb.players {
				c, _, err := dialWS(ctx, ts.api.Base, tb.id, p.token, 0, dialOpts{})
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
			}
			pingAll(ctx, t, conns)
			peers := peersOf(ts.srv)
			if len(peers) != len(conns) {
				t.Fatalf("%d connections open, want %d", len(peers), len(conns))
			}
			polled := !off && runtime.GOOS == "linux"
			for _, wc := range peers {
				if (wc.pc != nil) != polled {
					t.Fatalf("a connection under the poller: %v, want %v", wc.pc != nil, polled)
				}
			}
			if polled {
				eventually(ctx, t, "every idle connection parked", func() bool {
					for _, wc := range peers {
						if !wc.pc.Parked() {
							return false
						}
					}
					return true
				})
			}
			// Parked, each is woken by its next frame, and answers it.
			pingAll(ctx, t, conns)
			for _, c := range conns {
				c.close()
			}
			eventually(ctx, t, "every connection ended", func() bool { return len(peersOf(ts.srv)) == 0 })
			if p := ts.srv.reads.p; polled && p.Parked() != 0 {
				t.Fatalf("the poller holds %d connections after every one closed", p.Parked())
			}
		})
	}
}
