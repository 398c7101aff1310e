package server

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"mafia/client"
	"mafia/internal/pgtest"
	"mafia/room"
	"mafia/store/postgres"
	"mafia/wire"
)

// TestAPostgreSQLRestartIsNoErrorPlayersSee: a server on a real PostgreSQL
// (internal/pgtest) with three tables of five people playing over real
// WebSockets; PostgreSQL is restarted (stopped as a restart or a managed
// failover stops it, started again about two seconds later) just as each
// table's first speaker passes. No request is refused `internal`: each
// command that met the database away is answered once its write has
// committed, and the games play on to their end. /readyz is 503 while the
// database is away and 200 again at the first committed write (the
// heartbeat's), not seconds later.
//
// It stops the test binary's PostgreSQL, so it runs alone (not parallel).
func TestAPostgreSQLRestartIsNoErrorPlayersSee(t *testing.T) {
	ctx := within(t, 90*time.Second)
	db, err := postgres.Open(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Config{Store: db, SeatsPerAddress: -1, Pace: room.PaceInstant, Timeouts: Timeouts{WebSocket: unstarved}})
	if _, err := srv.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer(srv.Handler())
	hs.Listener = srv.Listener(hs.Listener)
	hs.Start()
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	api := &client.API{Base: hs.URL, Tap: tapConn, Silence: unstarved}
	ready := func() int {
		resp, err := http.Get(hs.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}

	// The quick game's steps (fastTimings: a speech of 5 s, which ends on
	// the speaker's pass): each table waits in its first speech until the
	// test lets its players move.
	timings := fastTimings
	var tables []*table
	for i := range 3 {
		tb := newTable(ctx, t, api, client.CreateRequest{Name: "blip", Players: 5, TimingsMS: timings}, seatsUpTo(5), uint64(40+i))
		for _, p := range tb.players {
			if _, err := p.connect(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := tb.players[0].call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
			t.Fatal(err)
		}
		for _, p := range tb.players {
			if err := p.untilPhase(ctx, "speech"); err != nil {
				t.Fatal(err)
			}
		}
		tables = append(tables, tb)
	}
	if got := ready(); got != http.StatusOK {
		t.Fatalf("/readyz before the restart: %d", got)
	}

	pgtest.Down(t)
	var wg sync.WaitGroup
	errs := make(chan error, 15)
	for _, tb := range tables {
		for _, p := range tb.players {
			wg.Go(func() {
				if err := p.act(ctx); err != nil { // the speaker's pass meets the database away
					errs <- err
					return
				}
				if err := p.play(ctx); err != nil {
					errs <- err
				}
			})
		}
	}
	// The database is away this long (the fault, not a wait for an event);
	// the server's heartbeat meets it within a second.
	time.Sleep(2 * time.Second)
	if got := ready(); got != http.StatusServiceUnavailable {
		t.Errorf("/readyz while PostgreSQL is away: %d, want 503", got)
	}
	pgtest.Up(t)

	// The first write committed after the return (the heartbeat's, or a
	// held command's): from then on /readyz is 200, within the second or
	// so its next request takes, never the seconds of a hold.
	if !waitFor(30*time.Second, func() bool { h := db.WriteHealth(); return h.LastOK.After(h.LastFail) }) {
		t.Fatalf("no write committed after PostgreSQL came back: %+v", db.WriteHealth())
	}
	if !waitFor(1500*time.Millisecond, func() bool { return ready() == http.StatusOK }) {
		t.Errorf("/readyz still not ready 1.5 s after a write committed (%d): %+v", ready(), db.WriteHealth())
	}

	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a player: %v", err)
	}
	internal := 0
	for _, tb := range tables {
		for _, p := range tb.players {
			if !p.ended() {
				t.Errorf("table %s seat %d: the game did not end", tb.id, p.seat)
			}
			for _, m := range p.refused {
				if m.Code == "internal" {
					internal++
				}
			}
		}
	}
	if internal > 0 {
		t.Errorf("%d requests refused internal across a PostgreSQL restart of about 2 s", internal)
	}
}
