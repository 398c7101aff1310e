package web_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mafia/client"
	"mafia/locale"
	"mafia/room"
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
	needBrowser(t)
	ts := startPeopleServer(t)
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
	pt := &peopleTable{t: t, ctx: ctx, ts: ts, api: api, table: created.Table}
	var conns []*client.Conn
	for s := 1; s <= 2; s++ {
		tok := ""
		if s == 1 {
			tok = created.HostToken
		}
		j, err := api.Join(ctx, created.Table, names[s-1], s, tok)
		if err != nil {
			t.Fatal(err)
		}
		pt.seats = append(pt.seats, &person{seat: s, token: j.Token})
		c, err := api.Dial(ctx, created.Table, j.Token, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		drain(ctx, c)
		conns = append(conns, c)
	}
	for _, a := range []string{"add_bots", "start"} {
		if _, err := conns[0].Send(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	host := newTab(t, "host", 360, 740)
	pt.open(host, 1)
	conns[1].CloseNow() // seat 2 drops in the first night
	// The host passes their own speech; the test waits for seat 2's floor.
	host.waitJS(60*time.Second, `(() => { const v = window.__mafia.state.view || {};
		if (v.phase === 'speech' && v.speaker === 1) { const b = document.querySelector('#t-act button[data-verb=pass]'); if (b && !b.disabled) b.click(); }
		return v.phase === 'speech' && v.speaker === 2; })()`)
	want := locale.New(locale.En).T("web.floor.stand_in", map[string]any{"Name": names[1]})
	if !host.eventually(slack*5*time.Second, fmt.Sprintf(`(() => { const f = document.querySelector('#t-floor'); return !!f && f.innerText.includes(%q); })()`, want)) {
		t.Errorf("while a bot holds the absent %s's floor the floor does not say so (%q):\n%s", names[1], want,
			eval[string](host, `(document.querySelector('#t-floor') || {}).innerText || ''`))
	}
	host.shot("d8-stand-in-floor-360")
}
