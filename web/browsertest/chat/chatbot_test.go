package chat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/client"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// TestBrowserABotsLineInTheChatIsTaggedAsABots: at a table of one person
// and smart bots, a bot's spoken line comes to the person's page as chat of
// its seat, on a phone's screen, with a small "bot" tag in the page's
// language (switched to each of the three); the person's own line has none.
func TestBrowserABotsLineInTheChatIsTaggedAsABots(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	api := &client.API{Base: ts.URL, Lang: "en"}
	short := int64(1500)
	created, err := api.Create(ctx, client.CreateRequest{Name: "bots talk", Players: 5, Bots: "smart",
		Options:   map[string]string{"first_night": "meeting"}, // nobody dies before day 1's speeches
		TimingsMS: map[string]int64{"speech": short, "defence": short, "tie_speech": short, "last_words": short, "night": 3000, "vote": 60_000}})
	if err != nil {
		t.Fatal(err)
	}
	pt := &webtest.PeopleTable{T: t, Ctx: ctx, TS: ts, API: api, Table: created.Table}
	j, err := api.Join(ctx, created.Table, webtest.Names[0], 1, created.HostToken)
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
	const mine = "Good evening, everyone."
	for _, m := range []wire.ClientMessage{
		{Type: "chat", Channel: "town", Text: mine},
		{Type: "host", Action: "add_bots"},
		{Type: "host", Action: "start"},
	} {
		if _, err := c.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	p := webtest.NewTab(t, "person", 360, 740)
	pt.Open(p, 1)
	// The first bot's line of the day, in the town's chat, while the game
	// goes on (a vote waits a minute for the person).
	tagged := `document.querySelector('#chat-msgs li[data-bot] [data-bot]')`
	p.WaitJS(60*time.Second, `!!`+tagged)
	if phase := webtest.Eval[string](p, `window.__mafia.state.view.phase`); phase == "ended" {
		t.Errorf("the game ended before the first bot's line was seen (nobody dies on the acquaintance night, and day 1's vote waits a minute for the person)")
	}
	from := webtest.Eval[int](p, `+document.querySelector('#chat-msgs li[data-bot] .from').textContent.match(/\((\d+)\)/)[1]`)
	if from == 1 {
		t.Fatal("the person's own seat is tagged as a bot's")
	}
	if !webtest.Eval[bool](p, fmt.Sprintf(`window.__mafia.state.lobby.seats[%d].bot === true`, from-1)) {
		t.Fatalf("seat %d is tagged as a bot's, the lobby says a person holds it", from)
	}
	// the person's line, before the start, has no tag
	if n := webtest.Eval[int](p, fmt.Sprintf(`[...document.querySelectorAll('#chat-msgs li')].filter((li) => li.querySelector('.text').textContent === %q && !li.querySelector('[data-bot]')).length`, mine)); n != 1 {
		t.Errorf("the person's own line is shown untagged %d times, want 1:\n%s", n, p.Text())
	}
	p.Do(5*time.Second, browsertest.ScrollIntoView(chromedp.CSS("#chat-msgs li[data-bot]")))
	p.Shot("80-bot-line-360")
	for _, l := range []locale.Lang{locale.Ka, locale.Ru, locale.En} {
		p.Do(5*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		want := locale.New(l).T("web.chat_bot.tag", nil)
		p.WaitJS(5*time.Second, fmt.Sprintf(`document.documentElement.lang === %q && %s.textContent === %q`, l, tagged, want))
	}
}
