package room_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"mafia/room"
	"mafia/store"
	"mafia/wire"
)

// gatedSeats is the fixture's store whose SaveSeats waits while the gate
// is shut.
type gatedSeats struct {
	room.Store
	mu      sync.Mutex
	gate    chan struct{} // nil: open
	entered chan struct{} // a SaveSeats waits at the gate (one value per call)
}

func (g *gatedSeats) shut() {
	g.mu.Lock()
	g.gate = make(chan struct{})
	g.entered = make(chan struct{}, 1)
	g.mu.Unlock()
}

func (g *gatedSeats) open() {
	g.mu.Lock()
	close(g.gate)
	g.gate = nil
	g.mu.Unlock()
}

func (g *gatedSeats) SaveSeats(ctx context.Context, id string, seats []store.Seat) error {
	g.mu.Lock()
	gate, entered := g.gate, g.entered
	g.mu.Unlock()
	if gate != nil {
		entered <- struct{}{}
		<-gate
	}
	return g.Store.SaveSeats(ctx, id, seats)
}

// TestAClosedConnectionIsDetachedEvenFromABusyRoom pins that Detach is
// never lost: a connection that closes while the room's inbox is full is
// still detached once the room catches up, so its seat does not stay
// "connected", and a table its people left is not kept from freezing or
// expiring by a connection that is gone.
func TestAClosedConnectionIsDetachedEvenFromABusyRoom(t *testing.T) {
	gs := &gatedSeats{}
	f := newFixture(t, settings(t, 5, nil), func(c *room.Config) {
		gs.Store = c.Store
		c.Store = gs
		c.Inbox = 2
	})
	_, tok := f.join("Nino", 1)
	nino := f.attach(tok)
	host := f.hostClient()
	if !f.r.Lobby().Seats[0].Connected {
		t.Fatal("seat 1 is not connected")
	}

	// The room waits on the store (a join), and its inbox fills up.
	gs.shut()
	joined := make(chan error, 1)
	go func() {
		_, _, err := f.r.Join(bg(), room.JoinRequest{Name: "Gela", Seat: 2})
		joined <- err
	}()
	select {
	case <-gs.entered:
	case <-time.After(guard):
		t.Fatal("the join never reached the store")
	}
	ping := wire.ClientMessage{Type: "ping"}
	deadline := time.Now().Add(guard)
	for f.r.Submit(host.sub, ping, f.clk.Now()) == nil {
		if time.Now().After(deadline) {
			t.Fatal("the inbox never filled up")
		}
	}

	// Nino's connection closes meanwhile.
	detached := make(chan struct{})
	go func() {
		f.r.Detach(nino.sub)
		close(detached)
	}()
	// Give Detach a moment to meet the full inbox before the room goes on
	// (nothing is asserted on the time: a Detach made later only tests less).
	select {
	case <-detached:
	case <-time.After(100 * time.Millisecond):
	}
	gs.open()
	if err := <-joined; err != nil {
		t.Fatal(err)
	}
	select {
	case <-detached:
	case <-time.After(guard):
		t.Fatal("Detach never returned")
	}
	f.sync()
	if nino.drain(); !nino.closed {
		t.Error("the closed connection was never detached: the room still sends to it")
	}
	if f.r.Lobby().Seats[0].Connected {
		t.Error("seat 1 still shows as connected")
	}
}
