package server

import (
	"fmt"
	"net/url"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/locale"
	"mafia/wire"
)

// TestStatements_OverARealWebSocket: on a real server over loopback, the
// speaker's statements (claim, report, suspect, vouch, will_nominate, sent
// as raw frames) are answered with a reply, and every seat and a
// spectator get the statement's event and a view whose talk holds it;
// another seat's statement is refused with not_speaker in that
// connection's language, and a statement at night with wrong_phase, and
// neither moves the log.
func TestStatements_OverARealWebSocket(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	timings := map[string]int64{}
	for k, v := range longTimings {
		timings[k] = v
	}
	// Night 1 outlasts the claim refused in it on a loaded machine (a
	// 300 ms night ended before the claim under -race at a load of 30).
	timings["night"] = 3000
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "talk", Players: 5, TimingsMS: timings}, seatsUpTo(5), 5)
	for _, p := range tb.players {
		p.keep = os.Getenv("MAFIA_PRINT_FRAMES") != ""
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	spect := newPlayer(ts.api.Base, tb.id, "", 0, 0)
	if _, err := spect.connect(ctx); err != nil {
		t.Fatal(err)
	}
	host := tb.players[0]
	if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	if err := host.call(ctx, wire.ClientMessage{Type: "command", Verb: "claim", Role: "citizen"}); err == nil || err.(*client.Error).Code != "wrong_phase" {
		t.Fatalf("a claim at night: %v, want wrong_phase", err)
	}
	for _, p := range append(tb.players, spect) {
		if err := p.untilPhase(ctx, "speech"); err != nil {
			t.Fatal(err)
		}
	}
	speaker := tb.players[host.view.Speaker-1]
	other := tb.players[host.view.Speaker%5]
	if !speaker.view.Legal.Claim || len(speaker.view.Legal.Suspect) != 4 || other.view.Legal.Claim || len(other.view.Legal.Report) != 0 {
		t.Fatalf("legal: the speaker %+v, another seat %+v", speaker.view.Legal, other.view.Legal)
	}
	// another seat's claim, refused in Russian
	ru, _, err := dialWS(ctx, ts.api.Base, tb.id, other.token, 0, dialOpts{query: url.Values{"lang": {"ru"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ru.close()
	if _, m, err := ru.read(ctx); err != nil || m.Type != "welcome" {
		t.Fatalf("ru: %v %+v", err, m)
	}
	for _, p := range append(tb.players, spect) {
		drain(ctx, t, p.c)
	}
	drain(ctx, t, ru)
	before := logLen(ctx, t, ts, tb.id)

	if err := ru.sendRaw(ctx, websocket.MessageText, []byte(`{"v":1,"type":"command","id":5,"verb":"claim","role":"detective"}`)); err != nil {
		t.Fatal(err)
	}
	m := expectError(ctx, t, "another seat's claim", ru, "not_speaker", 5)
	if want := locale.New(locale.Ru).T("error.not_speaker", nil); m.Message != want {
		t.Errorf("not_speaker in Russian: %q, want %q", m.Message, want)
	}
	for _, p := range append(tb.players, spect) {
		quiet(ctx, t, fmt.Sprintf("seat %d", p.seat), p.c)
	}
	if n := logLen(ctx, t, ts, tb.id); n != before {
		t.Fatalf("a refused statement moved the log from %d to %d events", before, n)
	}

	s, o := speaker.seat, other.seat
	frames := []string{
		`{"v":1,"type":"command","id":%d,"verb":"claim","role":"detective","step":%d}`,
		`{"v":1,"type":"command","id":%d,"verb":"report","target":` + fmt.Sprint(o) + `,"result":"mafia","step":%d}`,
		`{"v":1,"type":"command","id":%d,"verb":"suspect","target":` + fmt.Sprint(o) + `,"step":%d}`,
		`{"v":1,"type":"command","id":%d,"verb":"vouch","target":` + fmt.Sprint(s%5+2) + `,"step":%d}`,
		`{"v":1,"type":"command","id":%d,"verb":"will_nominate","target":` + fmt.Sprint(o) + `,"step":%d}`,
	}
	want := []wire.Statement{
		{By: s, Phase: "speech", Verb: "claim", Role: "detective"},
		{By: s, Phase: "speech", Verb: "report", Target: o, Result: "mafia"},
		{By: s, Phase: "speech", Verb: "suspect", Target: o},
		{By: s, Phase: "speech", Verb: "vouch", Target: s%5 + 2},
		{By: s, Phase: "speech", Verb: "will_nominate", Target: o},
	}
	refused := len(speaker.refused)
	for i, f := range frames {
		id := int64(10 + i)
		if err := speaker.c.sendRaw(ctx, websocket.MessageText, fmt.Appendf(nil, f, id, speaker.view.Step)); err != nil {
			t.Fatal(err)
		}
		if err := speaker.readUntil(ctx, func(m wire.ServerMessage) bool { return m.ID == id }); err != nil {
			t.Fatal(err)
		}
		if got := speaker.refused; len(got) > refused {
			t.Fatalf("statement %d refused: %+v", i, got[len(got)-1])
		}
		for _, p := range append(tb.players, spect) {
			if p != speaker {
				if err := p.readUntil(ctx, func(m wire.ServerMessage) bool { return m.Type == "update" && len(m.Events) > 0 }); err != nil {
					t.Fatal(err)
				}
			}
			last := p.events[len(p.events)-1]
			if last.Kind != "statement" || last.Actor != s || last.Verb != want[i].Verb {
				t.Errorf("seat %d's last event %+v, want the %s", p.seat, last, want[i].Verb)
			}
			talk := p.view.Talk
			if len(talk) != 1 || talk[0].Round != 1 || len(talk[0].Statements) != i+1 || !reflect.DeepEqual(talk[0].Statements[i], want[i]) {
				t.Fatalf("seat %d's talk after statement %d: %+v", p.seat, i, talk)
			}
		}
	}
	if n := logLen(ctx, t, ts, tb.id); n != before+len(frames) {
		t.Fatalf("the log grew by %d events, want %d", n-before, len(frames))
	}
	// MAFIA_PRINT_FRAMES=1 prints the frames docs/protocol.md shows.
	if os.Getenv("MAFIA_PRINT_FRAMES") != "" {
		for _, f := range other.frames[len(other.frames)-3:] {
			t.Logf("%s", f)
		}
		for _, f := range speaker.frames[len(speaker.frames)-10:] {
			t.Logf("%s", f)
		}
	}
}
