package chat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mafia/client"
	"mafia/locale"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// TestBrowserShowsASeatPlayedByABot: a person's connection drops in the
// middle of a game; once the table's grace period is over a server's bot
// plays the seat, and the host's page shows it on that seat (a badge, in
// the page's language, in place of "offline"); the person comes back and
// the badge goes.
func TestBrowserShowsASeatPlayedByABot(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	api := &client.API{Base: ts.URL}
	grace := int64(300)
	long := int64(600_000) // the game stays in its first night
	created, err := api.Create(ctx, client.CreateRequest{Name: "stand-in", Players: 5, StandInMS: &grace,
		TimingsMS: map[string]int64{"speech": long, "defence": long, "tie_speech": long, "last_words": long, "night": long, "vote": long}})
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
	host := webtest.NewTab(t, "host", 360, 780)
	pt.Open(host, 1)
	conns[1].CloseNow() // seat 2 drops, in the first night
	badge := `document.querySelector('#t-seats li[data-seat="2"] [data-stand-in]')`
	want := locale.New(locale.En).T("web.stand_in", nil)
	host.WaitJS(20*time.Second, fmt.Sprintf(`!!%s && %s.textContent === %q`, badge, badge, want))
	if webtest.Eval[bool](host, `!!document.querySelector('#t-seats li[data-seat="1"] [data-stand-in]')`) {
		t.Error("the host's own seat, connected, is shown as played by a bot")
	}
	host.Shot("70-stand-in-360")
	// Seat 2's person is back: the seat is theirs, the badge goes.
	back, err := api.Dial(ctx, created.Table, pt.Seats[1].Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { back.CloseNow() })
	webtest.Drain(ctx, back)
	host.WaitJS(20*time.Second, `!`+badge)
}
