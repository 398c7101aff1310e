package server

import (
	"slices"

	"mafia/room"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// TestProtocolPage_CommandRefusalsAreAsDocumented pins what docs/protocol.md
// says a command is refused with, over a real socket, as a bot author reads
// it: the host's verbs foul and next sent as command verbs are host_only;
// a verb the protocol does not know is unknown_verb (naming it); a target
// off the table, above or below, is no_such_seat naming the number as sent;
// target 0 for a verb that needs one is no_such_seat too; a target sent with
// a verb that takes none is ignored. Each refusal changes nothing.
func TestProtocolPage_CommandRefusalsAreAsDocumented(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 60*time.Second)
	// An acquaintance night of 100 ms kills nobody; then seat 1 opens day 1
	// and holds the floor for an hour: every refusal is met in its speech,
	// where nominate is legal.
	timings := map[string]int64{"speech": 3600000, "defence": 3600000, "tie_speech": 3600000, "last_words": 3600000, "night": 100, "vote": 3600000}
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "page", Players: 5, TimingsMS: timings,
		Options: map[string]string{"first_night": "meeting"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.api.Join(ctx, created.Table, "Nino", 1, created.HostToken); err != nil {
		t.Fatal(err)
	}
	host, _ := welcomed(ctx, t, ts, created.Table, created.HostToken)
	p := &player{c: host, seat: 1, sent: map[int64]wire.ClientMessage{}}
	for _, a := range []string{"add_bots", "start"} {
		if err := p.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	if err := p.untilPhase(ctx, "speech"); err != nil {
		t.Fatal(err)
	}
	if p.view.Speaker != 1 || len(p.view.Legal.Nominate) == 0 {
		t.Fatalf("seat 1 does not hold the floor with nominate legal: %+v", p.view)
	}
	before := snapshot(ctx, t, ts, created.Table)
	cases := []struct {
		name   string
		m      wire.ClientMessage
		code   string
		naming string // the refusal's sentence names it ("" none)
	}{
		{"foul as a command verb", wire.ClientMessage{Type: "command", Verb: "foul", Target: 2}, "host_only", ""},
		{"next as a command verb", wire.ClientMessage{Type: "command", Verb: "next"}, "host_only", ""},
		{"a verb nobody knows", wire.ClientMessage{Type: "command", Verb: "dance"}, "unknown_verb", ""},
		{"a target above the seats", wire.ClientMessage{Type: "command", Verb: "nominate", Target: 9}, "no_such_seat", "9"},
		{"a target past any table", wire.ClientMessage{Type: "command", Verb: "nominate", Target: 258}, "no_such_seat", "258"},
		{"target -1", wire.ClientMessage{Type: "command", Verb: "nominate", Target: -1}, "no_such_seat", "-1"},
		{"no target for a verb that needs one", wire.ClientMessage{Type: "command", Verb: "nominate"}, "no_such_seat", ""},
	}
	for _, c := range cases {
		err := p.call(ctx, c.m)
		ce, ok := err.(*client.Error)
		if !ok || ce.Code != c.code {
			t.Errorf("%s: got %v, want %s", c.name, err, c.code)
			continue
		}
		if c.naming != "" && !strings.Contains(ce.Message, c.naming) {
			t.Errorf("%s: %q does not name %s", c.name, ce.Message, c.naming)
		}
		checkSentence(t, c.name, "en", ce.Code, ce.Message)
	}
	if after := snapshot(ctx, t, ts, created.Table); string(after) != string(before) {
		t.Errorf("a refused command changed the table:\n%s\n%s", before, after)
	}
	// A verb without a target refuses one as malformed (issue 25), even
	// one off the table; the speaker's pass without one ends the speech.
	for _, target := range []int{-1, 3} {
		err := p.call(ctx, wire.ClientMessage{Type: "command", Verb: "pass", Target: target})
		if ce, ok := err.(*client.Error); !ok || ce.Code != "malformed" {
			t.Errorf("pass with target %d: %v, want malformed", target, err)
		}
	}
	if after := snapshot(ctx, t, ts, created.Table); string(after) != string(before) {
		t.Errorf("a pass with a target changed the table:\n%s\n%s", before, after)
	}
	if err := p.call(ctx, wire.ClientMessage{Type: "command", Verb: "pass"}); err != nil {
		t.Errorf("pass: %v", err)
	}
}

// TestProtocolPage_QuirksAreAsDocumented pins each of docs/protocol.md's
// "Current quirks" over real sockets: a view made while paused offers no
// move, but the pause itself brings no view (the one held still does); the
// invite path is the browser client's page of the table; at night a command's reply comes at once, its view
// only at the next tick, and the old view's move sent again is
// already_acted; a pad carries no now. (A kicked seat's close says why:
// TestAClosedConnectionIsToldWhy.)
func TestProtocolPage_QuirksAreAsDocumented(t *testing.T) {
	var clk *room.FakeClock
	ts := startServerWith(t, "", fakeClocked(&clk))
	ctx := within(t, 60*time.Second)

	t.Run("invite is the browser's page", func(t *testing.T) {
		// The page itself is the browser client's, mounted beside the
		// server (internal/site's tests fetch it).
		created, err := ts.api.Create(ctx, client.CreateRequest{Name: "inv", Players: 5})
		if err != nil {
			t.Fatal(err)
		}
		if created.Invite != "/t/"+created.Table {
			t.Errorf("invite %q, want /t/%s, the web client's page of the table", created.Invite, created.Table)
		}
	})

	// A 5-seat game of people: the deal is the server's, so the test finds
	// the seat with a victim to name.
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "night", Players: 5, TimingsMS: longTimings}, []int{1, 2, 3, 4, 5}, 7)
	for _, p := range tb.players {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
		defer p.c.close()
	}
	host := tb.players[0]
	if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	var killer *player
	for _, p := range tb.players {
		if err := p.untilPhase(ctx, "night"); err != nil {
			t.Fatal(err)
		}
		if len(p.view.Legal.Kill) > 0 && killer == nil {
			killer = p
		}
	}
	if killer == nil {
		t.Fatal("nobody may kill on night 1")
	}
	t.Run("a night move's reply comes first, its view at the tick", func(t *testing.T) {
		target := killer.view.Legal.Kill[0]
		if err := killer.call(ctx, wire.ClientMessage{Type: "command", Verb: "kill", Target: target}); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(killer.view.Legal.Kill, target) {
			t.Errorf("before the tick the view no longer offers kill %d: %+v", target, killer.view.Legal)
		}
		err := killer.call(ctx, wire.ClientMessage{Type: "command", Verb: "kill", Target: target})
		if ce, ok := err.(*client.Error); !ok || ce.Code != "already_acted" {
			t.Errorf("the same kill again: %v, want already_acted", err)
		}
		clk.Advance(time.Second)
		if err := killer.readUntil(ctx, func(m wire.ServerMessage) bool { return m.View != nil }); err != nil {
			t.Fatal(err)
		}
		if len(killer.view.Legal.Kill) != 0 {
			t.Errorf("after the tick the view still offers kill: %+v", killer.view.Legal)
		}
	})
	t.Run("a pad carries no now", func(t *testing.T) {
		other := tb.players[0]
		if other == killer {
			other = tb.players[1]
		}
		clk.Advance(time.Second)
		pads := 0
		for pads < 2 {
			data, m, err := other.c.read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			other.absorb(data, m)
			if m.Type == "pad" {
				pads++
				if m.Now != 0 || strings.Contains(string(data), `"now"`) {
					t.Errorf("a pad carries now: %s", data)
				}
			}
		}
	})
	t.Run("the pause brings no view; a view made while paused offers nothing", func(t *testing.T) {
		var moving *player
		for _, p := range tb.players {
			if l := p.view.Legal; len(l.Kill)+len(l.Check)+len(l.Heal) > 0 || l.Skip {
				moving = p
				break
			}
		}
		if moving == nil {
			t.Fatal("no seat has a night move left")
		}
		held := moving.view
		if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "pause"}); err != nil {
			t.Fatal(err)
		}
		if moving != host { // the host's call read its own
			if err := moving.readUntil(ctx, func(m wire.ServerMessage) bool { return m.Paused }); err != nil {
				t.Fatal(err)
			}
		}
		if moving.view != held {
			t.Errorf("the pause brought seat %d a new view", moving.seat)
		}
		c2, _, err := dialWS(ctx, ts.api.Base, tb.id, moving.token, 0, dialOpts{})
		if err != nil {
			t.Fatal(err)
		}
		defer c2.close()
		_, w, err := c2.read(ctx)
		if err != nil || w.Type != "welcome" || !w.Paused || w.View == nil {
			t.Fatalf("paused welcome: %v %+v", err, w)
		}
		if l := w.View.Legal; len(l.Kill)+len(l.Check)+len(l.Heal)+len(l.Shoot) > 0 || l.Skip {
			t.Errorf("a view made while paused offers moves: %+v", l)
		}
		err = moving.call(ctx, wire.ClientMessage{Type: "command", Verb: "skip"})
		if ce, ok := err.(*client.Error); !ok || ce.Code != "paused" {
			t.Errorf("a move while paused: %v, want paused", err)
		}
	})
}
