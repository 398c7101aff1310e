package attack

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/server"
	"mafia/wire"
)

// publicPaths are what an anonymous client may poll, /metrics and the
// profiler among them (they must not be there).
func publicPaths(table string) []string {
	return []string{"/api/tables", "/api/tables/" + table, "/api/tables/" + table + "/log", "/api/tables/" + table + "/record", "/healthz",
		"/metrics", "/debug/pprof/", "/debug/pprof/goroutine?debug=1"}
}

func poll(ctx context.Context, t *testing.T, base string, paths []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range paths {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+p, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		out[p] = fmt.Sprintf("%d %s", resp.StatusCode, b)
	}
	return out
}

// rowOf is a polled list of tables ("STATUS BODY") cut to table's row:
// its status and the row's JSON as the server wrote it.
func rowOf(t *testing.T, polled, table string) string {
	t.Helper()
	status, body, _ := strings.Cut(polled, " ")
	var rows []json.RawMessage
	if err := json.Unmarshal([]byte(body), &rows); err != nil {
		return polled // not a list: compared whole
	}
	for _, r := range rows {
		var row struct {
			Table string `json:"table"`
		}
		if json.Unmarshal(r, &row) == nil && row.Table == table {
			return status + " " + string(r)
		}
	}
	t.Fatalf("the list of tables does not list %s: %.200s", table, body)
	return ""
}

// TestAttack_MetricsOracle (issue 17, item 1): an outsider polls every
// public endpoint, /metrics and the profiler included, and watches as a
// spectator, while a night's moves are made at a table of real players:
// /metrics and the profiler are 404, nothing it reads changes with a move,
// and its socket gets no frame; the players get their answers, and a real
// player elsewhere plays a game.
func TestAttack_MetricsOracle(t *testing.T) {
	t.Parallel()
	// The seven players of the night sit from one address: the seats per
	// address are not what this attack is about.
	tg := start(t, func(c *server.Config) { c.SeatsPerAddress = -1 })
	ctx := within(t, 60*time.Second)
	wait := tg.playsMeanwhile(ctx, t, "127.0.0.1")
	api := &client.API{Base: tg.base}
	long := map[string]int64{"speech": 3600000, "defence": 3600000, "tie_speech": 3600000, "last_words": 3600000, "night": 3600000, "vote": 3600000}
	created, err := api.Create(ctx, client.CreateRequest{Name: "night", Players: 7, TimingsMS: long, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	var seats []*client.Conn
	for s := 1; s <= 7; s++ {
		tok := ""
		if s == 1 {
			tok = created.HostToken
		}
		c := sit(ctx, t, api, created.Table, fmt.Sprintf("player %d", s), s, tok)
		seats = append(seats, c)
	}
	spy, err := api.Dial(ctx, created.Table, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer spy.CloseNow()
	call := func(c *client.Conn, m wire.ClientMessage) error {
		id, err := c.Send(ctx, m)
		if err != nil {
			return err
		}
		for {
			got, err := c.Read(ctx)
			if err != nil {
				return err
			}
			if got.ID == id && (got.Type == "reply" || got.Type == "pong") {
				return nil
			}
			if got.ID == id && got.Type == "error" {
				return &client.Error{Code: got.Code, Message: got.Message}
			}
		}
	}
	if err := call(seats[0], wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range seats {
		for c.View == nil || c.View.Phase != "night" {
			if _, err := c.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := call(spy, wire.ClientMessage{Type: "ping"}); err != nil { // everything so far
		t.Fatal(err)
	}
	paths := publicPaths(created.Table)
	// The list of tables holds the game played meanwhile too, which may
	// start or end during the night (under -race on a loaded machine it
	// did): only this table's row is the night's to change.
	pollNight := func() map[string]string {
		got := poll(ctx, t, tg.base, paths)
		got["/api/tables"] = rowOf(t, got["/api/tables"], created.Table)
		return got
	}
	before := pollNight()
	for _, p := range []string{"/metrics", "/debug/pprof/"} {
		if before[p][:3] != "404" {
			t.Errorf("public %s: %.60s", p, before[p])
		}
	}
	moves := 0
	for _, c := range seats {
		l := c.View.Legal
		for _, m := range []struct {
			verb    string
			targets []int
		}{{"kill", l.Kill}, {"check", l.Check}, {"heal", l.Heal}} {
			if len(m.targets) == 0 {
				continue
			}
			if err := call(c, wire.ClientMessage{Type: "command", Verb: m.verb, Target: m.targets[0]}); err != nil {
				t.Fatalf("the %s's %s: %v", c.View.Role, m.verb, err)
			}
			moves++
			// The spy's next frame is the answer to its ping: the move
			// sent it nothing.
			id, err := spy.Send(ctx, wire.ClientMessage{Type: "ping"})
			if err != nil {
				t.Fatal(err)
			}
			if got, err := spy.Read(ctx); err != nil || got.Type != "pong" || got.ID != id {
				t.Errorf("after the %s's %s the spectator got %+v (%v)", c.View.Role, m.verb, got, err)
			}
			after := pollNight()
			for _, p := range paths {
				if after[p] != before[p] {
					t.Errorf("after the %s's %s, public %s changed: %.300s, then %.300s", c.View.Role, m.verb, p, before[p], after[p])
				}
			}
		}
	}
	if moves < 4 {
		t.Errorf("only %d night moves", moves)
	}
	wait()
}
