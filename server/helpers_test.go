package server

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"mafia/client"
	"mafia/rng"
	"mafia/store/sqlite"
	"mafia/wire"
)

// testServer is a real server on loopback over a real SQLite file.
type testServer struct {
	srv  *Server
	http *httptest.Server
	db   *sqlite.DB
	api  *client.API
	path string
}

func startServer(t testing.TB, path string) *testServer {
	t.Helper()
	return startServerWith(t, path, nil)
}

// startServerWith is startServer with a Config changed by tune (nil: none).
func startServerWith(t testing.TB, path string, tune func(*Config)) *testServer {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "mafia.db")
	}
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Store: db}
	if tune != nil {
		tune(&cfg)
	}
	srv := New(cfg)
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	ts := &testServer{srv: srv, http: hs, db: db, api: &client.API{Base: hs.URL}, path: path}
	t.Cleanup(ts.close)
	return ts
}

func (ts *testServer) close() {
	ts.http.CloseClientConnections()
	ts.http.Close()
	ts.srv.Close()
	ts.db.Close()
}

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
