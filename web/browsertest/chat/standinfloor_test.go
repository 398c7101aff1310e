package chat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mafia/client"
	"mafia/locale"
	"mafia/room"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// Issue 28, defect 8: a bot standing in for a person is said where the
// floor is.

// TestBrowserTheFloorSaysABotSpeaksForAnAbsentPlayer: a person drops
// before their speech; while the server's bot holds their floor (at a
// person's pace), the floor box of another player's page says that a bot
// speaks for them, by their name.
func TestBrowserTheFloorSaysABotSpeaksForAnAbsentPlayer(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	api := &client.API{Base: ts.URL}
	grace := int64(300)
	created, err := api.Create(ctx, client.CreateRequest{Name: "stand-in floor", Players: 5, StandInMS: &grace, Pace: room.PaceHuman,
		Options:   map[string]string{"first_night": "meeting"},
		TimingsMS: map[string]int64{"speech": 60_000, "defence": 5_000, "tie_speech": 5_000, "last_words": 5_000, "night": 2_000, "vote": 10_000}})
	if err != nil {
		t.Fatal(err)
	}
	pt := &webtest.PeopleTable{T: t, Ctx: ctx, TS: ts, API: api, Table: created.Table}
	var conns []*client.Conn
	for s := 1; s <= 2; s++ {
		tok := ""
		if s == 1 {
			tok = created.HostToken
		}
		j, err := api.Join(ctx, created.Table, webtest.Names[s-1], s, tok)
		if err != nil {
			t.Fatal(err)
		}
		pt.Seats = append(pt.Seats, &webtest.Person{Seat: s, Token: j.Token})
		c, err := api.Dial(ctx, created.Table, j.Token, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		webtest.Drain(ctx, c)
		conns = append(conns, c)
	}
	for _, a := range []string{"add_bots", "start"} {
		if _, err := conns[0].Send(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	host := webtest.NewTab(t, "host", 360, 740)
	pt.Open(host, 1)
	conns[1].CloseNow() // seat 2 drops in the first night
	// The host passes their own speech; the test waits for seat 2's floor.
	host.WaitJS(60*time.Second, `(() => { const v = window.__mafia.state.view || {};
		if (v.phase === 'speech' && v.speaker === 1) { const b = document.querySelector('#t-act button[data-verb=pass]'); if (b && !b.disabled) b.click(); }
		return v.phase === 'speech' && v.speaker === 2; })()`)
	want := locale.New(locale.En).T("web.floor.stand_in", map[string]any{"Name": webtest.Names[1]})
	if !host.Eventually(webtest.Slack*5*time.Second, fmt.Sprintf(`(() => { const f = document.querySelector('#t-floor'); return !!f && f.innerText.includes(%q); })()`, want)) {
		t.Errorf("while a bot holds the absent %s's floor the floor does not say so (%q):\n%s", webtest.Names[1], want,
			webtest.Eval[string](host, `(document.querySelector('#t-floor') || {}).innerText || ''`))
	}
	host.Shot("d8-stand-in-floor-360")
}
