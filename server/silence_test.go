package server

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"mafia/client"
)

// freezer freezes every connection a listener accepted: while frozen, no
// byte the server writes reaches the client, as when the server's process
// is paused (SIGSTOP) or its host hangs. The writes wait until thawed (or
// the connection closes).
type freezer struct {
	mu     sync.Mutex
	frozen bool
	thawed chan struct{}
}

func newFreezer() *freezer { return &freezer{thawed: make(chan struct{})} }

func (f *freezer) freeze() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.frozen = true
}

func (f *freezer) thaw() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.frozen {
		f.frozen = false
		close(f.thawed)
	}
}

func (f *freezer) wrap(l net.Listener) net.Listener { return &freezeListener{Listener: l, f: f} }

type freezeListener struct {
	net.Listener
	f *freezer
}

func (l *freezeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &freezeConn{Conn: c, f: l.f, closed: make(chan struct{})}, nil
}

type freezeConn struct {
	net.Conn
	f      *freezer
	once   sync.Once
	closed chan struct{}
}

func (c *freezeConn) Write(p []byte) (int, error) {
	c.f.mu.Lock()
	frozen, thawed := c.f.frozen, c.f.thawed
	c.f.mu.Unlock()
	if frozen {
		select {
		case <-thawed:
		case <-c.closed:
			return 0, net.ErrClosed
		}
	}
	return c.Conn.Write(p)
}

func (c *freezeConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// TestASilentServerIsALostConnection: the server pings every connection
// at a period a client can count on, so a quiet table is not taken for a
// lost one (a read that waits 6 s in a lobby where nothing happens hears
// the pings, and ends only with its own context); and when the server
// falls silent (every byte it writes held back, as when its process is
// paused), the Go client's read fails with client.ErrSilent (about 5 s
// after the silence began), instead of waiting as long as the pause lasts.
func TestASilentServerIsALostConnection(t *testing.T) {
	t.Parallel() // about 11 s of waiting on the wall clock, its own server (main_test.go)
	fz := newFreezer()
	ts := startServerOn(t, "", nil, fz.wrap)
	t.Cleanup(fz.thaw) // the server's writers go on, and its Close is not held
	ctx := within(t, 60*time.Second)
	tb := lobbyTable(ctx, t, ts)
	api := *ts.api
	api.Silence = 0 // the client's default (the harness's is unstarved)

	quiet, err := api.Dial(ctx, tb.id, tb.host, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer quiet.CloseNow()
	rctx, cancel := context.WithTimeout(ctx, 6*time.Second)
	for err == nil { // the lobby's own frames (presence), then nothing
		_, err = quiet.Read(rctx)
	}
	ownDeadline := rctx.Err() != nil
	cancel()
	// The read's deadline closes the connection (coder/websocket), and a
	// step of the read that begins after that close says net.ErrClosed,
	// not the context's error: the body of a frame whose header came just
	// before, or the pong answering a ping (6 s is about the server's third
	// ping, at 2 s each); seen at load 24. Either is the read's own
	// deadline, as long as that deadline has passed and the watchdog did
	// not close it (ErrSilent).
	if errors.Is(err, client.ErrSilent) || !errors.Is(err, context.DeadlineExceeded) && !(errors.Is(err, net.ErrClosed) && ownDeadline) {
		t.Fatalf("a read of a quiet lobby for 6 s: %v, want its own deadline (the server's pings heard)", err)
	}

	c, err := api.Dial(ctx, tb.id, tb.host, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	fz.freeze()
	frozen := time.Now()
	// The watchdog ends the read about DefaultSilence after the last ping
	// (logged below); the read's own deadline is far beyond it, so that a
	// busy machine's late timer is not taken for a missing watchdog (it
	// was 5.45 s, and failed once at load 39).
	rctx, cancel = context.WithTimeout(ctx, 4*client.DefaultSilence)
	defer cancel()
	for err == nil {
		_, err = c.Read(rctx)
	}
	t.Logf("the client took the connection as lost %v after the server fell silent: %v", time.Since(frozen).Round(time.Millisecond), err)
	if !errors.Is(err, client.ErrSilent) {
		t.Fatalf("a read from a silent server: %v, want client.ErrSilent", err)
	}
}
