package server

import (
	"context"
	"net"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	"mafia/client"
	"mafia/internal/httpapi"
	"mafia/internal/sqlitetest"
	"mafia/rng"
	"mafia/room"
	"mafia/store/sqlite"
	"mafia/wire"
)

// testServer is a real server on loopback over a real SQLite file: its
// public listener (as mafia serve makes it: the server's http.Server and
// listener caps) and its operator's listener.
type testServer struct {
	srv    *Server
	http   *httptest.Server
	ops    *httptest.Server
	db     *sqlite.DB
	api    *client.API
	path   string
	closed bool
}

func startServer(t testing.TB, path string) *testServer {
	t.Helper()
	return startServerWith(t, path, nil)
}

// unstarved is what the tests give the wall clock's deadlines that end a
// connection: the server's Timeouts.WebSocket (a write, the answer to its
// ping) and the Go client's Silence (API.Silence). At their defaults (10
// s, 4.5 s) a test that held a connection unread while it drove others,
// or whose process was starved of the CPU on a loaded machine, now and
// then lost one (at loads of 20-50: slow spectators ended by the pings
// before their queues filled, a host left unread while eleven more games
// were set up, "the server has been silent too long"). No test runs this
// long; the tests of those deadlines set their own (silence_test.go).
const unstarved = 5 * time.Minute

// startServerWith is startServer with a Config changed by tune (nil: none).
// Its SeatsPerAddress is -1 (no limit) until tune changes it.
func startServerWith(t testing.TB, path string, tune func(*Config)) *testServer {
	t.Helper()
	return startServerOn(t, path, tune, nil)
}

// startServerOn is startServerWith whose public listener is also wrapped
// by wrap (nil: not), under the server's own listener.
func startServerOn(t testing.TB, path string, tune func(*Config), wrap func(net.Listener) net.Listener) *testServer {
	t.Helper()
	open := sqlite.Open // a file the test made or kept
	if path == "" {
		// A fresh file: a copy of one migrated once (internal/sqlitetest).
		path, open = filepath.Join(t.TempDir(), "mafia.db"), sqlitetest.Open
	}
	db, err := open(path)
	if err != nil {
		t.Fatal(err)
	}
	// The tests play whole tables of people from loopback: no limit of
	// seats per address unless a test sets one; and the bots move at once
	// (instant pace) unless a test about pace says otherwise.
	cfg := Config{Store: db, SeatsPerAddress: -1, Pace: room.PaceInstant, Timeouts: Timeouts{WebSocket: unstarved}}
	if tune != nil {
		tune(&cfg)
	}
	srv := New(cfg)
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer(srv.Handler())
	if wrap != nil {
		hs.Listener = wrap(hs.Listener)
	}
	hs.Listener = srv.Listener(hs.Listener)
	hs.Start()
	ops := httptest.NewServer(srv.OpsHandler(""))
	ts := &testServer{srv: srv, http: hs, ops: ops, db: db, api: &client.API{Base: hs.URL, Tap: tapConn, Silence: unstarved}, path: path}
	t.Cleanup(ts.close)
	return ts
}

// close stops the server and closes its store (once: a test may close it
// early, to start another on the same file).
func (ts *testServer) close() {
	if ts.closed {
		return // closed by the test already (a restart)
	}
	ts.closed = true
	ts.http.CloseClientConnections()
	ts.http.Close()
	ts.ops.Close()
	ts.srv.Close()
	ts.db.Close()
}

// loopback is every loopback address: a test that plays many games from
// one client address exempts it from the per-address limits.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// fastTimings make a game quick: players pass at once, nights are short.
var fastTimings = map[string]int64{"speech": 5000, "defence": 5000, "tie_speech": 5000, "last_words": 5000, "night": 150, "vote": 400}

// playRandomly plays one seat to the end of the game with random legal
// moves, one request at a time and one per view (at night a move's view
// comes at the next tick), and returns every frame it received.
func playRandomly(ctx context.Context, c *client.Conn, seed uint64) ([][]byte, error) {
	src := rng.New(seed)
	var frames [][]byte
	waiting := int64(0)
	fresh := c.View != nil
	act := func() error {
		v := c.View
		if waiting != 0 || !fresh || v == nil || v.Phase == "ended" {
			return nil
		}
		fresh = false
		if m, ok := client.RandomMove(v, &src); ok {
			id, err := c.Send(ctx, m)
			waiting = id
			return err
		}
		if v.Legal.Pass {
			id, err := c.Send(ctx, wire.ClientMessage{Type: "command", Verb: "pass"})
			waiting = id
			return err
		}
		return nil
	}
	if err := act(); err != nil {
		return frames, err
	}
	for {
		data, err := c.ReadRaw(ctx)
		if err != nil {
			return frames, err
		}
		frames = append(frames, data)
		m, err := c.Absorb(data)
		if err != nil {
			return frames, err
		}
		if (m.Type == "reply" || m.Type == "error") && m.ID == waiting {
			waiting = 0
		}
		fresh = fresh || m.View != nil
		if c.View != nil && c.View.Phase == "ended" {
			return frames, nil
		}
		if err := act(); err != nil {
			return frames, err
		}
	}
}

func within(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// errorBody is every refusal's JSON (httpapi.ErrorBody), as the tests read it.
type errorBody = httpapi.ErrorBody
