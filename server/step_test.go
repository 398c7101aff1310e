package server

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/locale"
	"mafia/wire"
)

// TestStaleStep_RefusedInTheSeatsLanguage: over a real WebSocket, a
// command or a host's foul naming a step that has ended is refused with
// stale_step and its sentence in the connection's language; nobody hears
// of it and the log does not move. The same command naming the current
// step is taken.
func TestStaleStep_RefusedInTheSeatsLanguage(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	timings := map[string]int64{}
	for k, v := range longTimings {
		timings[k] = v
	}
	timings["night"] = 100
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "steps", Players: 5, TimingsMS: timings}, seatsUpTo(5), 3)
	for _, p := range tb.players {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	host := tb.players[0]
	if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range tb.players {
		if err := p.untilPhase(ctx, "speech"); err != nil {
			t.Fatal(err)
		}
	}
	speaker := tb.players[host.view.Speaker-1]
	now := speaker.view.Step
	if now < 2 {
		t.Fatalf("day 1's first speech is step %d", now)
	}
	conns := map[string]*wsConn{"en": speaker.c}
	for _, lang := range []string{"ka", "ru"} {
		c, _, err := dialWS(ctx, ts.api.Base, tb.id, speaker.token, 0, dialOpts{query: url.Values{"lang": {lang}}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.close()
		if _, m, err := c.read(ctx); err != nil || m.Type != "welcome" {
			t.Fatalf("%s: %v %+v", lang, err, m)
		}
		conns[lang] = c
	}
	for _, p := range tb.players {
		drain(ctx, t, p.c)
	}
	for _, c := range conns {
		drain(ctx, t, c)
	}
	before := logLen(ctx, t, ts, tb.id)
	for lang, c := range conns {
		for i, frame := range []string{
			`{"v":1,"type":"command","id":%d,"verb":"pass","step":%d}`,
			`{"v":1,"type":"host","id":%d,"action":"foul","target":2,"step":%d}`,
		} {
			id := int64(70 + i)
			conn, lang := c, lang
			if i == 1 {
				conn, lang = host.c, "en" // the host's own connection, in English
			}
			if err := conn.sendRaw(ctx, websocket.MessageText, fmt.Appendf(nil, frame, id, now-1)); err != nil {
				t.Fatal(err)
			}
			m := expectError(ctx, t, lang+": a stale step", conn, "stale_step", id)
			l, _ := locale.Parse(lang)
			if want := locale.New(l).T("error.stale_step", nil); m.Message != want {
				t.Errorf("%s: stale_step says %q, want %q", lang, m.Message, want)
			}
			checkSentence(t, lang+": a stale step", lang, m.Code, m.Message)
		}
	}
	for _, p := range tb.players {
		quiet(ctx, t, fmt.Sprintf("seat %d", p.seat), p.c)
	}
	if n := logLen(ctx, t, ts, tb.id); n != before {
		t.Fatalf("stale messages moved the log from %d to %d events", before, n)
	}
	if err := speaker.call(ctx, wire.ClientMessage{Type: "command", Verb: "pass", Step: now}); err != nil {
		t.Fatalf("the speaker's pass for the current step was refused: %v", err)
	}
	if speaker.view.Step == now {
		t.Fatal("the speech ended and the step did not change")
	}
}
