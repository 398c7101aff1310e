package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/room"
	"mafia/wire"
)

// health returns /healthz's status and body.
func health(t *testing.T, ts *testServer) (int, string) {
	t.Helper()
	resp, err := http.Get(ts.api.Base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// awaitHealth polls /healthz until it answers status (the heartbeat, every
// few milliseconds here, is what writes while nothing else does).
func awaitHealth(ctx context.Context, t *testing.T, ts *testServer, status int) string {
	t.Helper()
	for {
		code, body := health(t, ts)
		if code == status {
			return body
		}
		select {
		case <-ctx.Done():
			t.Fatalf("/healthz stays %d %q, want %d", code, body, status)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// until reads c until a message m with done(m), and returns what came
// before it.
func until(ctx context.Context, t *testing.T, c *client.Conn, done func(wire.ServerMessage) bool) []wire.ServerMessage {
	t.Helper()
	var before []wire.ServerMessage
	for {
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if done(m) {
			return before
		}
		before = append(before, m)
	}
}

// syncRoom waits until a table's room has handled everything queued before
// it: a leave with a token nobody holds goes through the room and changes
// nothing.
func syncRoom(ctx context.Context, t *testing.T, ts *testServer, id string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.api.Base+"/api/tables/"+id+"/leave", nil)
	req.Header.Set("Authorization", "Bearer a token nobody holds")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

// noEvents fails the test if any message carried events.
func noEvents(t *testing.T, what string, ms []wire.ServerMessage) {
	t.Helper()
	for _, m := range ms {
		if len(m.Events) > 0 {
			t.Errorf("%s: a %s frame carried %d events the store never committed", what, m.Type, len(m.Events))
		}
	}
}

// TestHealth_AStoreThatCannotWrite runs a real server over a real SQLite
// file with games in play, makes the file unable to write (SQLite's
// read-only mode: every write fails as on a read-only file), lets the
// games' clocks run a minute, and checks: /healthz turns 503 with the
// reason; a host's command is refused as internal, a join gets no seat, and
// no connection is sent an event; the log holds a bounded number of lines
// per kind (the first of each at once, then one per 10 s with the count),
// not some per game per second; then, writing again, /healthz is 200 once
// more, the log says so, and the games go on.
func TestHealth_AStoreThatCannotWrite(t *testing.T) {
	ctx := within(t, 2*time.Minute)
	clk := room.NewFakeClock(time.Unix(1_800_000_000, 0))
	var log logBuffer
	ts := startServerWith(t, "", func(c *Config) {
		logTo(&log)(c)
		c.Clock = clk
		c.Heartbeat = 5 * time.Millisecond
		c.StoreHold = time.Nanosecond
		c.Limits.Unlimited = loopback // twelve tables from one address
	})
	const games = 12
	timings := map[string]int64{"speech": 1000, "defence": 1000, "tie_speech": 1000, "last_words": 1000, "night": 1000, "vote": 1000}
	var hosts []*client.Conn
	var ids []string
	for i := 0; i < games; i++ {
		created, err := ts.api.Create(ctx, client.CreateRequest{Name: fmt.Sprint("game ", i), Players: 7, TimingsMS: timings})
		if err != nil {
			t.Fatal(err)
		}
		// A person who never acts keeps the game waiting for the clock.
		if _, err := ts.api.Join(ctx, created.Table, "person", 3, ""); err != nil {
			t.Fatal(err)
		}
		host, err := ts.api.Dial(ctx, created.Table, created.HostToken, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer host.CloseNow()
		for _, a := range []string{"add_bots", "start"} {
			if _, err := host.Send(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
				t.Fatal(err)
			}
		}
		awaitStatus(ctx, t, host, "playing")
		hosts, ids = append(hosts, host), append(ids, created.Table)
	}
	lobby, err := ts.api.Create(ctx, client.CreateRequest{Name: "lobby", Players: 7})
	if err != nil {
		t.Fatal(err)
	}
	if code, body := health(t, ts); code != http.StatusOK || body != "ok\n" {
		t.Fatalf("/healthz before: %d %q", code, body)
	}
	stored := make([]int, games)
	for i, id := range ids {
		evs, _ := ts.db.Events(ctx, id)
		stored[i] = len(evs)
	}

	if err := ts.db.SetReadOnly(ctx, true); err != nil {
		t.Fatal(err)
	}
	failedAt := len(log.String())
	body := awaitHealth(ctx, t, ts, http.StatusServiceUnavailable)
	if !strings.HasPrefix(body, "store cannot write: read-only") {
		t.Errorf("/healthz while failing says %q", body)
	}
	t.Logf("/healthz while the store cannot write: %q", body)

	// A command: refused as internal, nobody sent its events.
	id, err := hosts[0].Send(ctx, wire.ClientMessage{Type: "host", Action: "foul", Target: 3})
	if err != nil {
		t.Fatal(err)
	}
	var reply wire.ServerMessage
	noEvents(t, "a refused foul", until(ctx, t, hosts[0], func(m wire.ServerMessage) bool {
		reply = m
		return (m.Type == "error" || m.Type == "reply") && m.ID == id
	}))
	if reply.Type != "error" || reply.Code != string(room.CodeInternal) {
		t.Errorf("a foul the store cannot record: %+v, want an internal error", reply)
	}
	if j, err := ts.api.Join(ctx, lobby.Table, "late", 0, ""); err == nil || !strings.Contains(err.Error(), "internal") {
		t.Errorf("a join the store cannot record: %+v, %v; want internal", j, err)
	}

	// A minute of every game's clock, a second at a time: each timeout
	// fails and is retried a second later. After each second every host's
	// connection is read up to the answer to a ping, and carried no event:
	// read only at the end, a connection left unread for the whole minute
	// on a loaded machine missed the server's 10 s ping timeout and was
	// dropped.
	const minute = 60 * time.Second
	for d := time.Duration(0); d < minute; d += time.Second {
		clk.Advance(time.Second)
		for _, id := range ids {
			syncRoom(ctx, t, ts, id)
		}
		for i, h := range hosts {
			pid, err := h.Send(ctx, wire.ClientMessage{Type: "ping"})
			if err != nil {
				t.Fatal(err)
			}
			noEvents(t, fmt.Sprint("game ", i, " while the store cannot write, at ", d+time.Second),
				until(ctx, t, h, func(m wire.ServerMessage) bool { return m.Type == "pong" && m.ID == pid }))
		}
	}
	for i, id := range ids {
		if evs, _ := ts.db.Events(ctx, id); len(evs) != stored[i] {
			t.Errorf("game %d: the log grew from %d to %d events while the store could not write", i, stored[i], len(evs))
		}
	}
	// The log: per kind, the first line and then one per 10 s of clock.
	perKind := map[string]int{}
	total := 0
	for _, line := range strings.Split(log.String()[failedAt:], "\n") {
		if strings.Contains(line, `"level":"ERROR"`) || strings.Contains(line, `"level":"WARN"`) {
			msg := line[strings.Index(line, `"msg":`):]
			msg = msg[:strings.Index(msg[6:], `",`)+7]
			perKind[msg]++
			total++
		}
	}
	t.Logf("while failing, %d log lines for %d games over %v: %v", total, games, minute, perKind)
	for kind, n := range perKind {
		if limit := int(minute/(10*time.Second)) + 2; n > limit {
			t.Errorf("%d lines of %s in %v, want at most %d", n, kind, minute, limit)
		}
	}
	if perKind[`"msg":"append events"`] == 0 {
		t.Errorf("no failed append was logged at all:\n%s", log.String()[failedAt:])
	}

	if err := ts.db.SetReadOnly(ctx, false); err != nil {
		t.Fatal(err)
	}
	if body := awaitHealth(ctx, t, ts, http.StatusOK); body != "ok\n" {
		t.Errorf("/healthz once writing again: %q", body)
	}
	for deadline := time.Now().Add(10 * time.Second); len(log.lines("store writes again")) == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("the log never said the store writes again:\n%s", log.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if len(log.lines("store cannot write")) != 1 {
		t.Errorf("the log says %d times that the store cannot write, want once", len(log.lines("store cannot write")))
	}
	// The games go on from where the store has them.
	for d := time.Duration(0); d < 5*time.Second; d += time.Second {
		clk.Advance(time.Second)
		for _, id := range ids {
			syncRoom(ctx, t, ts, id)
		}
	}
	for i := range hosts {
		if evs, _ := ts.db.Events(ctx, ids[i]); len(evs) <= stored[i] {
			t.Errorf("game %d did not go on once the store could write (%d events)", i, len(evs))
		}
	}
}
