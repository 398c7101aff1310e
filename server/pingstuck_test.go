package server

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
)

// noFDListener's connections offer no descriptor (no syscall.Conn, as a
// TLS connection's), and, once stuck is set, the next connection's writes
// wait until it is closed, ignoring their deadline: a socket that takes
// nothing, and a write that never gives up on it.
type noFDListener struct {
	net.Listener
	stuck atomic.Pointer[noFDConn] // the connection whose writes wait
	arm   atomic.Bool              // the next connection accepted is it
}

func (l *noFDListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	nc := &noFDConn{Conn: c, closed: make(chan struct{})}
	if l.arm.CompareAndSwap(true, false) {
		l.stuck.Store(nc)
	}
	return nc, nil
}

type noFDConn struct {
	net.Conn
	stuck  atomic.Bool
	once   sync.Once
	closed chan struct{}
}

func (c *noFDConn) Write(p []byte) (int, error) {
	if c.stuck.Load() {
		<-c.closed
		return 0, net.ErrClosed
	}
	return c.Conn.Write(p)
}

func (c *noFDConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// TestPing_AConnectionWhoseWriteWaitsHoldsUpNoOtherPing: a connection
// with no descriptor of its own (TLS) cannot be written to without
// perhaps waiting, so its ping is written by its writer goroutine, never
// by the sweep that pings every connection: when its socket takes
// nothing, the other connections are pinged all the same. (The sweep
// wrote such a connection's ping itself, and one whose write waited held
// up every ping of the server.)
func TestPing_AConnectionWhoseWriteWaitsHoldsUpNoOtherPing(t *testing.T) {
	t.Parallel() // about 10 s of pings on the wall clock, its own server
	var ln *noFDListener
	ts := startServerOn(t, "", nil, func(l net.Listener) net.Listener { ln = &noFDListener{Listener: l}; return ln })
	ctx := within(t, 60*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "stuck", Players: 5, TimingsMS: longTimings})
	if err != nil {
		t.Fatal(err)
	}
	// The stuck one: connected, its welcome read, then its socket takes
	// nothing more.
	ln.arm.Store(true)
	stuck, _, err := websocket.Dial(ctx, wsURL(ts.api.Base, created.Table, 0, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Its client goes first at the end (a failure too): the server's
	// reader ends it, and its close lets the stuck write go.
	t.Cleanup(func() { stuck.CloseNow() })
	stuck.SetReadLimit(4 << 20)
	if _, _, err := stuck.Read(ctx); err != nil {
		t.Fatal(err)
	}
	ln.stuck.Load().stuck.Store(true)
	// A quiet one beside it, which reads and answers its pings.
	pinged := make(chan struct{}, 16)
	quiet, _, err := websocket.Dial(ctx, wsURL(ts.api.Base, created.Table, 0, nil), &websocket.DialOptions{
		OnPingReceived: func(context.Context, []byte) bool { pinged <- struct{}{}; return true },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer quiet.CloseNow()
	quiet.SetReadLimit(4 << 20)
	go func() {
		for {
			if _, _, err := quiet.Read(ctx); err != nil {
				return
			}
		}
	}()
	for i := range 4 {
		select {
		case <-pinged:
		case <-ctx.Done():
			t.Fatalf("%d pings came to the quiet connection beside a stuck one, want 4", i)
		}
	}
}
