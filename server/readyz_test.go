package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/internal/sqlitetest"
	"mafia/locale"
	"mafia/wire"
)

// probe returns a path's status and body on a server.
func probe(t *testing.T, base, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// awaitReady polls /readyz until it answers status, and returns its body.
func awaitReady(ctx context.Context, t *testing.T, base string, status int) string {
	t.Helper()
	for {
		code, body := probe(t, base, "/readyz")
		if code == status {
			return body
		}
		select {
		case <-ctx.Done():
			t.Fatalf("/readyz stays %d %q, want %d", code, body, status)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestReadyz_NotReadyWhileStartingWhileTheStoreFailsAndWhenShuttingDown
// runs a real server on loopback over a real SQLite file from before its
// Resume: /readyz answers 503 "starting" (and mafia_ready is 0) while
// /healthz is 200; once Resume has finished it is 200 "ready"; while the
// store cannot write it is 503 with the reason, and ready again once it
// writes; after Close it is 503 "shutting down".
func TestReadyz_NotReadyWhileStartingWhileTheStoreFailsAndWhenShuttingDown(t *testing.T) {
	ctx := within(t, time.Minute)
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := New(Config{Store: db, Heartbeat: 5 * time.Millisecond, StoreHold: time.Nanosecond})
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	ops := httptest.NewServer(srv.OpsHandler(""))
	defer ops.Close()

	if code, body := probe(t, hs.URL, "/readyz"); code != http.StatusServiceUnavailable || body != "not ready: starting: resuming the stored tables\n" {
		t.Errorf("/readyz before Resume: %d %q", code, body)
	}
	if code, body := probe(t, hs.URL, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz before Resume: %d %q (it is liveness: alive)", code, body)
	}
	if m := scrape(ctx, t, ops.URL); series(t, m, "mafia_ready") != 0 || series(t, m, "mafia_draining") != 0 {
		t.Errorf("before Resume: mafia_ready %v, mafia_draining %v", m["mafia_ready"], m["mafia_draining"])
	}
	if _, err := srv.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if code, body := probe(t, hs.URL, "/readyz"); code != http.StatusOK || body != "ready\n" {
		t.Errorf("/readyz after Resume: %d %q", code, body)
	}
	if m := scrape(ctx, t, ops.URL); series(t, m, "mafia_ready") != 1 {
		t.Errorf("after Resume: mafia_ready %v", m["mafia_ready"])
	}

	if err := db.SetReadOnly(ctx, true); err != nil {
		t.Fatal(err)
	}
	if body := awaitReady(ctx, t, hs.URL, http.StatusServiceUnavailable); !strings.HasPrefix(body, "not ready: store cannot write: read-only") {
		t.Errorf("/readyz while the store cannot write: %q", body)
	}
	if err := db.SetReadOnly(ctx, false); err != nil {
		t.Fatal(err)
	}
	awaitReady(ctx, t, hs.URL, http.StatusOK)

	srv.Close()
	if code, body := probe(t, hs.URL, "/readyz"); code != http.StatusServiceUnavailable || body != "not ready: shutting down\n" {
		t.Errorf("/readyz after Close: %d %q", code, body)
	}
	if m := scrape(ctx, t, ops.URL); series(t, m, "mafia_ready") != 0 {
		t.Errorf("after Close: mafia_ready %v", m["mafia_ready"])
	}
}

// TestDrain_RefusesNewTablesWhileTheLiveOnesPlayOn runs a real server on
// loopback with a game in play and a table in the lobby, and drains it:
// /readyz answers 503 "draining" while /healthz stays 200; a new table is
// refused with the code draining (kind busy: 503, with Retry-After), its
// sentence in Georgian, English and Russian; the lobby's table can still be
// joined; the game in play is played to its end by its seven players with
// no error; the metrics count the tables owned by status and say ready 0,
// draining 1; and Quiet returns once no game is playing.
func TestDrain_RefusesNewTablesWhileTheLiveOnesPlayOn(t *testing.T) {
	ctx := within(t, 2*time.Minute)
	ts := startServerWith(t, "", func(c *Config) {
		c.Render = func(lang string, err error) string {
			l, ok := locale.Parse(lang)
			if !ok {
				l = locale.En
			}
			return locale.New(l).Refusal(err)
		}
	})
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "live", Players: 7, TimingsMS: fastTimings})
	if err != nil {
		t.Fatal(err)
	}
	conns := make([]*client.Conn, 7)
	for i := range conns {
		tok := ""
		if i == 0 {
			tok = created.HostToken
		}
		j, err := ts.api.Join(ctx, created.Table, fmt.Sprint("player ", i+1), 0, tok)
		if err != nil {
			t.Fatal(err)
		}
		if conns[i], err = ts.api.Dial(ctx, created.Table, j.Token, 0); err != nil {
			t.Fatal(err)
		}
		defer conns[i].CloseNow()
	}
	if _, err := conns[0].Send(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	awaitStatus(ctx, t, conns[0], "playing")
	lobby, err := ts.api.Create(ctx, client.CreateRequest{Name: "waiting", Players: 7})
	if err != nil {
		t.Fatal(err)
	}
	m := scrape(ctx, t, ts.ops.URL)
	if series(t, m, `mafia_tables_owned{status="playing"}`) != 1 || series(t, m, `mafia_tables_owned{status="lobby"}`) != 1 ||
		series(t, m, `mafia_tables_owned{status="ended"}`) != 0 || series(t, m, "mafia_ready") != 1 || series(t, m, "mafia_draining") != 0 {
		t.Errorf("before the drain: %v", m)
	}
	if err := ts.srv.Quiet(canceled()); !errors.Is(err, context.Canceled) {
		t.Errorf("Quiet with a game playing and its wait cut short: %v", err)
	}

	ts.srv.Drain()
	ts.srv.Drain() // again: nothing more
	if code, body := probe(t, ts.api.Base, "/readyz"); code != http.StatusServiceUnavailable || body != "not ready: draining: no new tables\n" {
		t.Errorf("/readyz while draining: %d %q", code, body)
	}
	if code, body := probe(t, ts.api.Base, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz while draining: %d %q (alive)", code, body)
	}
	for _, lang := range locale.Langs() {
		api := *ts.api
		api.Lang = string(lang)
		_, err := api.Create(ctx, client.CreateRequest{Name: "new", Players: 7})
		var ce *client.Error
		want := locale.New(lang).Refusal(fmt.Errorf("create: %w", errDraining()))
		if !errors.As(err, &ce) || ce.Code != "draining" || ce.Status != http.StatusServiceUnavailable || ce.Message != want {
			t.Errorf("a new table while draining, in %s: %v; want 503 draining %q", lang, err, want)
		}
		if generic := locale.New(lang).Refusal(nil); want == generic {
			t.Errorf("%s has no sentence of its own for draining", lang)
		}
	}
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.api.Base+"/api/tables", strings.NewReader(`{"name":"new"}`))
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.Header.Get("Retry-After") == "" {
		t.Errorf("a refusal while draining says no Retry-After: %v", resp.Header)
	}
	if _, err := ts.api.Join(ctx, lobby.Table, "late", 0, ""); err != nil {
		t.Errorf("a join to the lobby's table while draining: %v", err)
	}
	m = scrape(ctx, t, ts.ops.URL)
	if series(t, m, "mafia_ready") != 0 || series(t, m, "mafia_draining") != 1 {
		t.Errorf("while draining: mafia_ready %v, mafia_draining %v", m["mafia_ready"], m["mafia_draining"])
	}

	quiet := make(chan error, 1)
	go func() { quiet <- ts.srv.Quiet(ctx) }()
	var wg sync.WaitGroup
	errs := make([]error, len(conns))
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = playRandomly(ctx, c, uint64(i+1))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("player %d while draining: %v", i+1, err)
		}
	}
	if err := <-quiet; err != nil {
		t.Errorf("Quiet once the game has ended: %v", err)
	}
	m = scrape(ctx, t, ts.ops.URL)
	if series(t, m, `mafia_tables_owned{status="playing"}`) != 0 || series(t, m, `mafia_tables_owned{status="ended"}`) != 1 ||
		series(t, m, `mafia_tables_owned{status="lobby"}`) != 1 {
		t.Errorf("after the game: %v", m)
	}
}

// canceled is a context already ended.
func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// errDraining is the refusal a draining server answers a create with.
func errDraining() error { return &engine.Error{Code: CodeDraining} }
