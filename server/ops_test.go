package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/room"
	"mafia/wire"
)

// get answers a GET with its status and body.
func get(ctx context.Context, t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// opsPaths are the operator's endpoints.
var opsPaths = []string{"/metrics", "/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/goroutine?debug=1"}

// TestOps_MetricsAndProfilerOnlyOnTheOperatorsAddress: the public handler
// serves neither /metrics nor the profiler; the operator's handler serves
// both, and with a token only to its bearer.
func TestOps_MetricsAndProfilerOnlyOnTheOperatorsAddress(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 30*time.Second)
	for _, p := range opsPaths {
		status, body := get(ctx, t, ts.api.Base+p, "")
		if status != http.StatusNotFound || strings.Contains(body, "mafia_") || strings.Contains(body, "goroutine") {
			t.Errorf("public %s: %d %.80q", p, status, body)
		}
	}
	ops := httptest.NewServer(ts.srv.OpsHandler("s3cret"))
	defer ops.Close()
	for _, p := range opsPaths {
		if status, _ := get(ctx, t, ops.URL+p, ""); status != http.StatusUnauthorized {
			t.Errorf("operator's %s without the token: %d", p, status)
		}
		if status, _ := get(ctx, t, ops.URL+p, "wrong"); status != http.StatusUnauthorized {
			t.Errorf("operator's %s with a wrong token: %d", p, status)
		}
		if status, _ := get(ctx, t, ops.URL+p, "s3cret"); status != http.StatusOK {
			t.Errorf("operator's %s with the token: %d", p, status)
		}
	}
	if _, body := get(ctx, t, ops.URL+"/metrics", "s3cret"); !strings.Contains(body, "mafia_connections ") {
		t.Errorf("the operator's /metrics has no mafia_connections")
	}
}

// publicView is what an anonymous client can read at one moment, endpoint by
// endpoint.
func publicView(ctx context.Context, t *testing.T, base, table string) map[string]string {
	t.Helper()
	out := map[string]string{}
	paths := append([]string{"/api/tables", "/api/tables/" + table, "/api/tables/" + table + "/log", "/healthz"}, opsPaths...)
	for _, p := range paths {
		status, body := get(ctx, t, base+p, "")
		out[p] = fmt.Sprintf("%d %s", status, body)
	}
	return out
}

// TestNightActions_MoveNothingPublic: while the night's moves are made (a
// kill, the Don's check, the detective's, the doctor's heal, each by a real
// client on a real server with the clock stopped), nothing an anonymous
// client can read changes: not one public endpoint's answer, and a
// spectator's socket gets no frame.
func TestNightActions_MoveNothingPublic(t *testing.T) {
	var clk *room.FakeClock
	ts := startServerWith(t, "", fakeClocked(&clk))
	ctx := within(t, 60*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "night", Players: 7, TimingsMS: longTimings, Public: true}, seatsUpTo(7), 3)
	for _, p := range tb.players {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	spect := open(ctx, t, ts.api.Base, tb.id, "", dialOpts{})
	defer spect.close()
	if err := tb.players[0].call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range tb.players {
		if err := p.untilPhase(ctx, "night"); err != nil {
			t.Fatal(err)
		}
	}
	drain(ctx, t, spect)
	before := publicView(ctx, t, ts.api.Base, tb.id)
	moves := 0
	for _, p := range tb.players {
		l := p.view.Legal
		for _, m := range []struct {
			verb    string
			targets []int
		}{{"kill", l.Kill}, {"check", l.Check}, {"heal", l.Heal}} {
			if len(m.targets) == 0 {
				continue
			}
			if err := p.call(ctx, wire.ClientMessage{Type: "command", Verb: m.verb, Target: m.targets[0]}); err != nil {
				t.Fatalf("seat %d (%s) %s: %v", p.seat, p.view.Role, m.verb, err)
			}
			moves++
			where := fmt.Sprintf("after the %s's %s", p.view.Role, m.verb)
			quiet(ctx, t, "the spectator "+where, spect)
			after := publicView(ctx, t, ts.api.Base, tb.id)
			for path, was := range before {
				if after[path] != was {
					t.Errorf("%s, public %s moved:\n  before %.300s\n  after  %.300s", where, path, was, after[path])
				}
			}
		}
	}
	if moves < 4 {
		t.Fatalf("only %d night moves were made; want the kill and three checks or heals", moves)
	}
}
