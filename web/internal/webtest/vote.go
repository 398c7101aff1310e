package webtest

import (
	"context"
	"sync"
	"testing"

	"mafia/client"
	"mafia/wire"
)

// GoSeat is a seat played from Go beside the page: it reads its frames
// all the time (a connection that stops reading is dropped) and keeps its
// latest view.
type GoSeat struct {
	c    *client.Conn
	mu   sync.Mutex
	view *wire.View
}

// DialSeat joins a table with a seat's token over a real WebSocket and
// keeps the seat's latest view until ctx ends or the test closes it.
func DialSeat(ctx context.Context, t *testing.T, api *client.API, table, token string) *GoSeat {
	t.Helper()
	c, err := api.Dial(ctx, table, token, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	g := &GoSeat{c: c, view: c.View}
	go func() {
		for {
			m, err := c.Read(ctx)
			if err != nil {
				return
			}
			if m.View != nil {
				g.mu.Lock()
				g.view = m.View
				g.mu.Unlock()
			}
		}
	}()
	return g
}

// Now returns the seat's latest view.
func (g *GoSeat) Now() *wire.View {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.view
}

// Send sends a message for the current step (answers are read by the
// reading goroutine and not waited for).
func (g *GoSeat) Send(ctx context.Context, t *testing.T, m wire.ClientMessage) {
	t.Helper()
	if v := g.Now(); v != nil {
		m.Step = v.Step
	}
	if _, err := g.c.Send(ctx, m); err != nil {
		t.Fatal(err)
	}
}
