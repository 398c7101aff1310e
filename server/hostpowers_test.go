package server

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// snapshot is what a refused host action must leave as it was: the
// table's lobby (seats, status, pause) and its stored log.
func snapshot(ctx context.Context, t *testing.T, ts *testServer, table string) []byte {
	t.Helper()
	l, err := ts.api.Table(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := ts.db.Events(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(struct {
		L wire.Lobby
		N int
	}{l, len(evs)})
	return b
}

// welcomed dials a table with a token and reads its welcome.
func welcomed(ctx context.Context, t *testing.T, ts *testServer, table, token string) (*wsConn, wire.ServerMessage) {
	t.Helper()
	c, _, err := dialWS(ctx, ts.api.Base, table, token, 0, dialOpts{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.close)
	_, m, err := c.read(ctx)
	if err != nil || m.Type != "welcome" {
		t.Fatalf("no welcome: %v %+v", err, m)
	}
	return c, m
}

// TestHostPowers_OnlyTheHostsOwnTokenAtItsOwnTable: every host action sent
// by a seat that is not the host's, by a spectator, or by a seat that
// joined with another table's host token, is refused with not_host and
// changes nothing (the lobby, the stored log, what the others are sent);
// a wrong or stale token (another table's host token, another table's
// seat token) does not even connect; a join with another table's host
// token gets an ordinary seat, not the host's. (It catches the planted
// bugs of issue 17: "skipping the host check for kick" and "a join with
// any host token taking the host's seat".)
func TestHostPowers_OnlyTheHostsOwnTokenAtItsOwnTable(t *testing.T) {
	// Many requests in a row from each connection, all from loopback: no
	// rate limit in the way, of a connection or of the address.
	ts := startServerWith(t, "", func(c *Config) {
		c.Rate, c.Burst = 10000, 10000
		c.Limits.Unlimited = loopback
	})
	ctx := within(t, 60*time.Second)
	a, err := ts.api.Create(ctx, client.CreateRequest{Name: "A", Players: 5, TimingsMS: longTimings})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ts.api.Create(ctx, client.CreateRequest{Name: "B", Players: 5, TimingsMS: longTimings})
	if err != nil {
		t.Fatal(err)
	}
	nino, err := ts.api.Join(ctx, a.Table, "Nino", 1, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.api.Join(ctx, a.Table, "Gio", 2, ""); err != nil {
		t.Fatal(err)
	}
	dato, err := ts.api.Join(ctx, b.Table, "Dato", 1, "")
	if err != nil {
		t.Fatal(err)
	}

	// A join at A with B's host token: an ordinary seat with a token of its
	// own, without the host's powers.
	eve, err := ts.api.Join(ctx, a.Table, "Eve", 3, b.HostToken)
	if err != nil {
		t.Fatal(err)
	}
	if eve.Token == b.HostToken || eve.Token == a.HostToken {
		t.Errorf("a join with another table's host token was given a host token")
	}

	watch, _ := welcomed(ctx, t, ts, a.Table, "")
	seat1, w1 := welcomed(ctx, t, ts, a.Table, nino.Token)
	spect, _ := welcomed(ctx, t, ts, a.Table, "")
	eveC, we := welcomed(ctx, t, ts, a.Table, eve.Token)
	drain(ctx, t, watch) // the others' connections
	if w1.Host || we.Host {
		t.Errorf("welcomed as the host: seat 1 %v, the seat joined with B's host token %v", w1.Host, we.Host)
	}

	// Wrong and stale tokens do not connect.
	for what, tok := range map[string]string{"a made-up token": "0123456789abcdef0123456789abcdef0123456789abcdef",
		"B's host token": b.HostToken, "a seat token of B": dato.Token} {
		c, _, err := dialWS(ctx, ts.api.Base, a.Table, tok, 0, dialOpts{})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		expectError(ctx, t, what, c, "bad_token", 0)
		if _, _, err := c.read(ctx); err == nil {
			t.Errorf("%s: the connection stays open", what)
		}
		c.close()
	}

	refuseAll := func(when string, actions []wire.ClientMessage) {
		t.Helper()
		for who, c := range map[string]*wsConn{"seat 1": seat1, "a spectator": spect, "the seat joined with B's host token": eveC} {
			for _, m := range actions {
				before := snapshot(ctx, t, ts, a.Table)
				if code := answer(ctx, t, c, m); code != "not_host" {
					t.Errorf("%s: %s's %s %d: %q, want not_host", when, who, m.Action, m.Target, code)
				}
				if after := snapshot(ctx, t, ts, a.Table); !bytes.Equal(before, after) {
					t.Errorf("%s: %s's %s %d changed the table:\n%s\n%s", when, who, m.Action, m.Target, before, after)
				}
				quiet(ctx, t, "the watcher", watch)
			}
		}
	}
	host := func(action string, target int) wire.ClientMessage {
		return wire.ClientMessage{Type: "host", Action: action, Target: target}
	}
	all := []wire.ClientMessage{host("start", 0), host("add_bots", 0), host("kick", 2), host("kick", 1),
		host("unblock", 0), host("pause", 0), host("resume", 0), host("foul", 1), host("foul", 2)}
	refuseAll("in the lobby", all)

	// The host's own token does it all.
	hostC, wh := welcomed(ctx, t, ts, a.Table, a.HostToken)
	if !wh.Host {
		t.Fatal("the host's token was not welcomed as the host")
	}
	for _, m := range []wire.ClientMessage{host("add_bots", 0), host("start", 0), host("pause", 0)} {
		if code := answer(ctx, t, hostC, m); code != "" {
			t.Fatalf("the host's %s: %s", m.Action, code)
		}
	}
	for _, c := range []*wsConn{watch, seat1, spect, eveC} {
		drain(ctx, t, c)
	}
	refuseAll("paused in the game", all)
	if code := answer(ctx, t, hostC, host("resume", 0)); code != "" {
		t.Fatalf("the host's resume: %s", code)
	}
	for _, c := range []*wsConn{watch, seat1, spect, eveC} {
		drain(ctx, t, c)
	}
	refuseAll("in the game", all)
	if code := answer(ctx, t, hostC, host("foul", 2)); code != "" {
		t.Errorf("the host's foul: %s", code)
	}
}
