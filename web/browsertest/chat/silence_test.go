package chat

import (
	"context"
	"net"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist"
	"mafia/internal/browsertest"
	"mafia/internal/site"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
	"mafia/web/internal/webtest"
)

// muter silences the connections a listener has accepted so far: from
// mute on, no byte the server writes to them reaches the browser (as when
// the server's process is paused, or its host hangs), while connections
// accepted later are served as usual. It counts what it accepted.
type muter struct {
	mu       sync.Mutex
	accepted int
	upTo     int        // connections numbered up to this are muted
	held     []net.Conn // muted connections the server closed: kept open until release
}

// release closes the muted connections the server has let go.
func (m *muter) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.held {
		c.Close()
	}
	m.held = nil
}

func (m *muter) mute() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.upTo = m.accepted
	return m.accepted
}

func (m *muter) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.accepted
}

type muteListener struct {
	net.Listener
	m *muter
}

func (l muteListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.m.mu.Lock()
	l.m.accepted++
	n := l.m.accepted
	l.m.mu.Unlock()
	return &muteConn{Conn: c, m: l.m, n: n, closed: make(chan struct{})}, nil
}

type muteConn struct {
	net.Conn
	m      *muter
	n      int
	once   sync.Once
	closed chan struct{}
}

func (c *muteConn) Write(p []byte) (int, error) {
	c.m.mu.Lock()
	muted := c.n <= c.m.upTo
	c.m.mu.Unlock()
	if muted {
		<-c.closed // held until the connection closes: never written
		return 0, net.ErrClosed
	}
	return c.Conn.Write(p)
}

// Close lets a muted connection's writes go, but keeps its socket open
// (until release): a paused server closes nothing either, so the browser
// must notice the silence itself.
func (c *muteConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	c.m.mu.Lock()
	defer c.m.mu.Unlock()
	if c.n <= c.m.upTo {
		c.m.held = append(c.m.held, c.Conn)
		return nil
	}
	return c.Conn.Close()
}

// TestBrowserASilentServerIsLeftAndThePageReconnects (issue 25, item 2,
// the web client): a seated page whose server falls silent (its
// connection's every byte held back, the TCP connection kept up even when
// the server lets it go, as a paused process would) pings,
// hears nothing, shows the connection lost and reconnects on a new
// connection by itself, and is seated again there, within a few seconds
// of the silence rather than for as long as the silence lasts.
func TestBrowserASilentServerIsLeftAndThePageReconnects(t *testing.T) {
	webtest.NeedBrowser(t)
	t.Parallel()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: db, Render: webtest.Render, Pace: room.PaceInstant})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := &muter{}
	hs := httptest.NewUnstartedServer(site.Handler(srv, assist.New(assist.Config{Store: db})))
	hs.Listener = muteListener{Listener: hs.Listener, m: m}
	hs.Start()
	t.Cleanup(func() {
		m.release()
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})

	p := webtest.NewTab(t, "Nino", 390, 844)
	webtest.CreateTable(p, hs.URL, "Nino", 5, nil)
	p.WaitJS(10*time.Second, `!!document.querySelector('#seated') && !document.querySelector('#conn')`)
	seat := webtest.MySeat(p)
	// The notice of the lost connection can be on the page for only a few
	// milliseconds (the new connection is not muted, and its welcome takes
	// the notice away): a poll every 50 ms missed it once (2026-12-07), so
	// the page itself records that the notice was drawn.
	webtest.Eval[bool](p, `(() => {
		window.__connShown = false;
		new MutationObserver((records) => {
			for (const r of records) for (const n of r.addedNodes) {
				if (n.nodeType === 1 && (n.id === 'conn' || n.querySelector('#conn'))) window.__connShown = true;
			}
		}).observe(document.body, {childList: true, subtree: true});
		return true;
	})()`)
	before := m.mute()
	// The page pings after 2.5 s of quiet and leaves a server silent 2.4 s
	// more: it shows the connection lost, then reconnects.
	p.WaitJS(15*time.Second, `window.__connShown === true`)
	p.WaitJS(15*time.Second, `!document.querySelector('#conn') && !!document.querySelector('#seated')`)
	if m.count() <= before {
		t.Errorf("the page is connected again with no new connection (%d accepted, %d before the silence)", m.count(), before)
	}
	// Seated still, on the new connection: the seat's page, not a spectator's.
	if got := webtest.MySeat(p); got != seat || seat == 0 {
		t.Errorf("after the reconnect the page's seat is %d, was %d", got, seat)
	}
	p.Do(5*time.Second, browsertest.WaitVisible(chromedp.CSS("#seated")))
}
