package server

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"mafia/client"
	"mafia/room"
	"mafia/store"
	"mafia/wire"
)

// running is the server's gauge of games being played.
func running(t *testing.T, ts *testServer) float64 {
	t.Helper()
	var m dto.Metric
	if err := ts.srv.metrics.games.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetGauge().GetValue()
}

// roundTrip makes the table's room handle a request (a leave with a token
// nobody holds), so that whatever its clock queued before has run; it
// returns the status and the code.
func roundTrip(ctx context.Context, t *testing.T, ts *testServer, table string) (int, string) {
	t.Helper()
	status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables/"+table+"/leave", "", "nobody's token", "")
	var e errorBody
	_ = json.Unmarshal(body, &e)
	return status, e.Error.Code
}

// awaitGone waits until the table's lobby shows seat's person gone: the
// server notices a closed connection when its reader fails, apart from any
// request of the test's, so one round trip through the room may come first.
func awaitGone(ctx context.Context, t *testing.T, ts *testServer, table string, seat int) {
	t.Helper()
	for {
		l, err := ts.api.Table(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		if !l.Seats[seat-1].Connected {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("seat %d still shows connected", seat)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestLifecycle_AnAbandonedGameFreezesAndIsNotLoadedAtStart: on a real
// server (its rooms on a fake clock), a game whose people all left freezes
// after the grace time; a restarted server does not load it (it costs
// nothing until asked for); asked for, it says why it is paused; its person
// comes back and it goes on with the time it had left.
func TestLifecycle_AnAbandonedGameFreezesAndIsNotLoadedAtStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mafia.db")
	clk := room.NewFakeClock(time.Unix(1_800_000_000, 0))
	ts := startServerWith(t, path, func(c *Config) { c.Clock = clk })
	ctx := within(t, 60*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "abandoned", Players: 7, Public: true, TimingsMS: longTimings})
	if err != nil {
		t.Fatal(err)
	}
	id := created.Table
	j, err := ts.api.Join(ctx, id, "Nino", 1, created.HostToken)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := welcomed(ctx, t, ts, id, j.Token)
	for _, a := range []string{"add_bots", "start"} {
		if code := answer(ctx, t, host, wire.ClientMessage{Type: "host", Action: a}); code != "" {
			t.Fatalf("%s: %s", a, code)
		}
	}
	host.close()
	awaitGone(ctx, t, ts, id, 1) // the room has seen the connection go
	clk.Advance(room.DefaultFreezeAfter)
	roundTrip(ctx, t, ts, id)
	l, err := ts.api.Table(ctx, id)
	if err != nil || !l.Paused || l.PauseReason != "no_players" {
		t.Fatalf("after the grace time: %+v, %v", l, err)
	}
	if g := running(t, ts); g != 0 {
		t.Errorf("a frozen game is counted as running: %v", g)
	}
	tb, _, _ := ts.db.Table(ctx, store.KindOnline, id)
	clock, _ := ts.db.Clock(ctx, id)
	left := time.Hour - room.DefaultFreezeAfter // the night ran on through the grace time
	if tb.Status != "frozen" || clock.Left != left {
		t.Fatalf("stored: %q, clock %+v", tb.Status, clock)
	}

	// A restart does not load it, nor list it.
	ts.close()
	ts = startServerWith(t, path, func(c *Config) { c.Clock = clk })
	ts.srv.mu.Lock()
	loaded := len(ts.srv.rooms)
	ts.srv.mu.Unlock()
	if loaded != 0 {
		t.Errorf("a restart loaded %d tables, want none", loaded)
	}
	if list, err := ts.api.Tables(ctx); err != nil || len(list) != 0 {
		t.Errorf("a frozen game is listed: %d %v", len(list), err)
	}
	// Asked for, it says it is paused for lack of players.
	if l, err := ts.api.Table(ctx, id); err != nil || !l.Paused || l.PauseReason != "no_players" || l.Status != "playing" {
		t.Errorf("asked for after the restart: %+v, %v", l, err)
	}
	// Its person is back: the night goes on with the time it had left.
	back, w := welcomed(ctx, t, ts, id, j.Token)
	defer back.close()
	if w.Paused || w.Deadline != clk.Now().Add(left).UnixMilli() {
		t.Errorf("the welcome back: paused %v, deadline %d, want now+%v", w.Paused, w.Deadline, left)
	}
	if tb, _, _ := ts.db.Table(ctx, store.KindOnline, id); tb.Status != "playing" {
		t.Errorf("stored after the return: %q", tb.Status)
	}
	if g := running(t, ts); g != 1 {
		t.Errorf("the game going on again is counted as %v running games", g)
	}
}

// TestLifecycle_AnAbandonedLobbyExpires: a lobby table nobody is at leaves
// the list and the server after its time, and every request for it, before
// and after a restart, gets a coded refusal (410 expired).
func TestLifecycle_AnAbandonedLobbyExpires(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mafia.db")
	clk := room.NewFakeClock(time.Unix(1_800_000_000, 0))
	ts := startServerWith(t, path, func(c *Config) { c.Clock = clk; localized(c) })
	ctx := within(t, 60*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "empty", Players: 5, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	id := created.Table
	clk.Advance(room.DefaultEmptyLobbyExpiry - time.Second)
	if status, code := roundTrip(ctx, t, ts, id); status != http.StatusForbidden || code != "bad_token" {
		t.Fatalf("before its time: %d %s", status, code)
	}
	if list, _ := ts.api.Tables(ctx); len(list) != 1 {
		t.Fatalf("listed before its time: %d", len(list))
	}
	clk.Advance(time.Second)
	// The clock's timer reaches the room beside the test's requests: wait
	// until the room has acted on it (a lobby that does not expire fails
	// at the context's deadline).
	for {
		if status, _, _ := apiCall(ctx, t, ts.api.Base, "GET", "/api/tables/"+id, "en", "", ""); status == http.StatusGone {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the lobby did not expire at its time")
		case <-time.After(10 * time.Millisecond):
		}
	}
	check := func(when string) {
		t.Helper()
		for _, c := range []struct{ method, path, body string }{
			{"GET", "/api/tables/" + id, ""},
			{"POST", "/api/tables/" + id + "/join", `{"name":"late"}`},
			{"GET", "/api/tables/" + id + "/ws", ""},
		} {
			for _, lang := range []string{"en", "ka", "ru"} {
				status, _, body := apiCall(ctx, t, ts.api.Base, c.method, c.path, lang, "", c.body)
				var e errorBody
				if err := json.Unmarshal(body, &e); err != nil || status != http.StatusGone || e.Error.Code != "expired" {
					t.Errorf("%s: %s %s: %d %s, want 410 expired", when, c.method, c.path, status, body)
					continue
				}
				checkSentence(t, when, lang, e.Error.Code, e.Error.Message)
			}
		}
		if list, _ := ts.api.Tables(ctx); len(list) != 0 {
			t.Errorf("%s: still listed", when)
		}
	}
	check("expired")
	if tb, _, _ := ts.db.Table(ctx, store.KindOnline, id); tb.Status != "expired" {
		t.Errorf("stored status %q", tb.Status)
	}
	ts.close()
	ts = startServerWith(t, path, func(c *Config) { c.Clock = clk; localized(c) })
	check("after a restart")
}
