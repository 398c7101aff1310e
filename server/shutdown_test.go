package server

import (
	"errors"
	"testing"
	"time"

	"github.com/coder/websocket"
	"go.uber.org/goleak"

	"mafia/client"
	"mafia/wire"
)

// TestShutdownClosesEveryConnectionAsGoingAwayAndWaitsForIt: Close ends
// every connection of every table with 1001 ("shutdown": a client can tell
// a server going down from a drop and come back), a spectator's too, and
// returns only once each connection's goroutines have ended.
func TestShutdownClosesEveryConnectionAsGoingAwayAndWaitsForIt(t *testing.T) {
	before := goleak.IgnoreCurrent()
	ts := startServer(t, "")
	ctx := within(t, 30*time.Second)
	var conns []*wsConn
	for range 2 {
		tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "Shutdown", Players: 5}, []int{1, 2}, 1)
		for _, p := range tb.players {
			c, _, err := dialWS(ctx, ts.api.Base, tb.id, p.token, 0, dialOpts{})
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		spectator, _, err := dialWS(ctx, ts.api.Base, tb.id, "", 0, dialOpts{})
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, spectator)
	}
	for _, c := range conns { // every connection is attached: its ping answered
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
	closed := make(chan error, len(conns))
	for _, c := range conns {
		go func() {
			for {
				if _, _, err := c.read(ctx); err != nil {
					closed <- err
					return
				}
			}
		}()
	}
	ts.close()
	for range conns {
		err := <-closed
		if got := websocket.CloseStatus(err); got != websocket.StatusGoingAway {
			t.Errorf("a connection ended with %v (%v), want 1001 going away", got, err)
		}
	}
	goleak.VerifyNone(t, before)
}

// TestAClosedServerBringsNoTableBack: once Close has stopped its rooms, a
// request still reaching the server (its listener not yet closed) for a
// table it ran is refused stopped, and the table is not resumed: a server
// shutting down must never write a table the next server resumes.
func TestAClosedServerBringsNoTableBack(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 30*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "Closed", Players: 5}, []int{1, 2}, 1)
	ts.srv.Close()
	_, err := ts.api.Table(ctx, tb.id)
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Code != "stopped" {
		t.Fatalf("a table of a closed server: %v, want stopped", err)
	}
	if n := ts.srv.tablesByStatus(); len(n) != 0 {
		t.Errorf("the closed server runs tables again: %v", n)
	}
}
