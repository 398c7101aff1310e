package review

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/client"
	"mafia/internal/browsertest"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// Issue 28, defect 3: a quick game is one tap, and so is the next one.

// TestBrowserQuickGameIsOneTap: on a phone that never played here (no name
// kept), one tap on Quick game seats the player, under a guest's name the
// Quick panel shows (and lets them change), at an 11-seat table of bots
// whose game starts.
func TestBrowserQuickGameIsOneTap(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "newcomer", 360, 740)
	p.Do(15*time.Second,
		chromedp.Navigate(ts.URL+"/"),
		browsertest.WaitVisible(chromedp.CSS("#quick")),
	)
	p.Shot("d3-quick-panel-360")
	shown := webtest.Eval[string](p, `(document.querySelector('#quick-name') || {}).value || ''`)
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#quick")))
	if !p.Eventually(webtest.Slack*20*time.Second, `location.pathname.startsWith('/t/') && !!window.__mafia && !!window.__mafia.state.view`) {
		t.Fatalf("one tap on Quick game did not start a game:\n%s", p.Text())
	}
	got := webtest.Eval[struct {
		Seats int    `json:"seats"`
		Name  string `json:"name"`
	}](p, `(() => { const st = window.__mafia.state; return { seats: st.lobby.seats.filter((s) => s.taken).length, name: st.lobby.seats[st.seat - 1].name }; })()`)
	if got.Seats != 11 {
		t.Errorf("the quick game has %d seats taken, want 11", got.Seats)
	}
	if !regexp.MustCompile(`^Guest \d+$`).MatchString(got.Name) || got.Name != shown {
		t.Errorf("the player sits as %q; the Quick panel showed %q (want a guest's name, \"Guest N\")", got.Name, shown)
	}
}

// TestBrowserPlayAgainWithBotsStarts: after a game of one person and bots,
// Play again makes the next table, seats the bots and starts its game, as
// a quick game does (it used to open an empty pregame).
func TestBrowserPlayAgainWithBotsStarts(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	t.Cleanup(cancel)
	api := &client.API{Base: ts.URL, Lang: "en"}
	short := int64(1000)
	created, err := api.Create(ctx, client.CreateRequest{Name: "again", Players: 5, Bots: "random",
		Options:   map[string]string{"round_limit": "1", "first_night": "meeting"},
		TimingsMS: map[string]int64{"speech": short, "defence": short, "tie_speech": short, "last_words": short, "night": short, "vote": short}})
	if err != nil {
		t.Fatal(err)
	}
	pt := &webtest.PeopleTable{T: t, Ctx: ctx, TS: ts, API: api, Table: created.Table}
	j, err := api.Join(ctx, created.Table, "Mika", 1, created.HostToken)
	if err != nil {
		t.Fatal(err)
	}
	pt.Seats = append(pt.Seats, &webtest.Person{Seat: 1, Token: j.Token})
	c, err := api.Dial(ctx, created.Table, j.Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	webtest.Drain(ctx, c)
	for _, m := range []wire.ClientMessage{{Type: "host", Action: "add_bots"}, {Type: "host", Action: "start"}} {
		if _, err := c.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	p := webtest.NewTab(t, "player", 360, 740)
	pt.Open(p, 1)
	p.WaitJS(90*time.Second, `window.__mafia.state.view.phase === 'ended' && !!document.querySelector('#play-again')`)
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS("#play-again")))
	p.WaitJS(15*time.Second, fmt.Sprintf(`location.pathname.startsWith('/t/') && location.pathname !== '/t/%s'`, created.Table))
	started := `(() => { const st = window.__mafia.state; return !!st.view && st.view.phase !== 'ended' && !!st.lobby && st.lobby.seats.every((s) => s.taken); })()`
	if !p.Eventually(webtest.Slack*20*time.Second, started) {
		t.Fatalf("Play again after a game with bots did not seat the bots and start:\n%s", p.Text())
	}
	p.Shot("d3-play-again-started-360")
}
