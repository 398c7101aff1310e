package server

import (
	"context"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/wire"
)

// scrape reads /metrics into series name{labels} → value.
func scrape(ctx context.Context, t *testing.T, base string) map[string]float64 {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d %v", resp.StatusCode, err)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("/metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// series returns a metric's value, failing when it is not exposed.
func series(t *testing.T, m map[string]float64, name string) float64 {
	t.Helper()
	v, ok := m[name]
	if !ok {
		t.Fatalf("/metrics has no %s", name)
	}
	return v
}

// TestHealthzAndMetrics: /healthz answers ok; /metrics (on the operator's
// listener) counts the running
// game, the open connections, the commands (accepted and refused, exactly
// as the clients saw them), the error frames and the command latency.
func TestHealthzAndMetrics(t *testing.T) {
	ts := startServer(t, "")
	ctx := within(t, 60*time.Second)
	base, ops := ts.api.Base, ts.ops.URL

	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != "ok" {
		t.Fatalf("/healthz: %d %q", resp.StatusCode, body)
	}
	m := scrape(ctx, t, ops)
	if series(t, m, "mafia_games_running") != 0 || series(t, m, "mafia_connections") != 0 {
		t.Fatalf("a fresh server: games %v, connections %v", m["mafia_games_running"], m["mafia_connections"])
	}

	timings := map[string]int64{"speech": 300, "defence": 200, "tie_speech": 200, "last_words": 200, "night": 100, "vote": 300}
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "metrics", Players: 7, TimingsMS: timings}, []int{1, 4}, 9)
	spectator := newPlayer(base, tb.id, "", 0, 0)
	everyone := append([]*player{spectator}, tb.players...)
	for _, p := range everyone {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	host, other := tb.players[0], tb.players[1]
	for _, a := range []string{"add_bots", "start", "pause"} {
		if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	// While paused the game runs and stands still; a command is refused.
	if err := other.call(ctx, wire.ClientMessage{Type: "command", Verb: "pass"}); err == nil || !strings.Contains(err.Error(), "paused") {
		t.Fatalf("a command while paused: %v", err)
	}
	if err := other.c.sendRaw(ctx, websocket.MessageText, []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	if err := other.readUntil(ctx, func(m wire.ServerMessage) bool { return m.Type == "error" && m.Code == "malformed" }); err != nil {
		t.Fatal(err)
	}
	m = scrape(ctx, t, ops)
	if g, c := series(t, m, "mafia_games_running"), series(t, m, "mafia_connections"); g != 1 || c != 3 {
		t.Errorf("during the game: %v games running, %v connections; want 1 and 3", g, c)
	}
	if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "resume"}); err != nil {
		t.Fatal(err)
	}
	if err := <-playAll(ctx, everyone).done; err != nil {
		t.Fatal(err)
	}

	ok, refused := 0, 0
	for _, p := range tb.players {
		for _, c := range p.accepted {
			if c.Type == "command" {
				ok++
			}
		}
		for _, c := range p.rejected {
			if c.Type == "command" {
				refused++
			}
		}
	}
	if !waitFor(5*time.Second, func() bool { return scrape(ctx, t, ops)["mafia_connections"] == 0 }) {
		t.Errorf("connections still counted after every client closed: %v", scrape(ctx, t, ops)["mafia_connections"])
	}
	m = scrape(ctx, t, ops)
	t.Logf("after the game: %d commands accepted and %d refused by the clients' count", ok, refused)
	checks := []struct {
		name string
		want float64
	}{
		{"mafia_games_running", 0},
		{"mafia_games_finished_total", 1},
		{"mafia_connections", 0},
		{`mafia_commands_total{result="ok"}`, float64(ok)},
		{`mafia_commands_total{result="refused"}`, float64(refused)},
		{"mafia_command_seconds_count", float64(ok + refused)},
		{`mafia_errors_total{code="paused"}`, 1},
		{`mafia_errors_total{code="malformed"}`, 1},
	}
	for _, c := range checks {
		if got := series(t, m, c.name); got != c.want {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
	// Frames queued by the room were timed until written.
	if q, sent := series(t, m, "mafia_frame_queue_seconds_count"), series(t, m, "mafia_frames_sent_total"); q == 0 || q > sent ||
		series(t, m, "mafia_frame_queue_seconds_sum") <= 0 {
		t.Errorf("mafia_frame_queue_seconds: %v frames timed of %v sent, %v s", q, sent, m["mafia_frame_queue_seconds_sum"])
	}
	// The store's writes: each accepted command appended its events, in
	// transactions that carry one write or more each.
	commits, writes := series(t, m, "mafia_store_commits_total"), series(t, m, "mafia_store_writes_total")
	if writes < float64(ok) || commits < 1 || commits > writes || series(t, m, "mafia_store_commit_seconds_total") <= 0 {
		t.Errorf("store: %v commits carrying %v writes in %v s, for %d accepted commands",
			commits, writes, m["mafia_store_commit_seconds_total"], ok)
	}
	// The commits the writer held to gather more: counted, and never more
	// than the commits.
	for _, name := range []string{"mafia_store_commits_held_total", "mafia_store_commit_held_seconds_total"} {
		if _, ok := m[name]; !ok {
			t.Errorf("no %s", name)
		}
	}
	if held := series(t, m, "mafia_store_commits_held_total"); held > commits {
		t.Errorf("store: %v commits held of %v", held, commits)
	}
	errs := 0.0
	for k, v := range m {
		if strings.HasPrefix(k, "mafia_errors_total{") {
			errs += v
		}
	}
	frames := 0
	for _, p := range everyone {
		frames += len(p.refused)
	}
	if errs != float64(frames) {
		t.Errorf("mafia_errors_total sums to %v, the clients received %d error frames", errs, frames)
	}
	// The latency histogram: cumulative buckets ending in +Inf = count, and
	// a sum that is positive and below a second per command.
	count, sum := m["mafia_command_seconds_count"], series(t, m, "mafia_command_seconds_sum")
	if sum <= 0 || sum > count {
		t.Errorf("mafia_command_seconds_sum = %v for %v commands", sum, count)
	}
	type bucket struct{ le, n float64 }
	var bs []bucket
	for k, v := range m {
		if rest, ok := strings.CutPrefix(k, `mafia_command_seconds_bucket{le="`); ok {
			le := strings.TrimSuffix(rest, `"}`)
			f := math.Inf(1)
			if le != "+Inf" {
				if f, err = strconv.ParseFloat(le, 64); err != nil {
					t.Fatal(err)
				}
			}
			bs = append(bs, bucket{f, v})
		}
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i].le < bs[j].le })
	if len(bs) < 2 || !math.IsInf(bs[len(bs)-1].le, 1) || bs[len(bs)-1].n != count {
		t.Fatalf("mafia_command_seconds buckets %v, count %v", bs, count)
	}
	for i := 1; i < len(bs); i++ {
		if bs[i].n < bs[i-1].n {
			t.Errorf("histogram buckets are not cumulative: %v", bs)
		}
	}
}
