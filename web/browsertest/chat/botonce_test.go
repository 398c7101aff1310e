package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/client"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// Issue 28, defect 6: a bot is said once in a chat line.

// TestBrowserABotIsSaidOnceInAChatLine: a server's bot's line in the
// town's chat names it as a bot once, in each of the three languages (it
// read "ბოტი 5 (5) ბოტი": its name and its tag), and keeps its seat.
func TestBrowserABotIsSaidOnceInAChatLine(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	api := &client.API{Base: ts.URL, Lang: "en"}
	short := int64(1500)
	created, err := api.Create(ctx, client.CreateRequest{Name: "bots once", Players: 5, Bots: "smart",
		Options:   map[string]string{"first_night": "meeting"},
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
	for _, m := range []wire.ClientMessage{{Type: "host", Action: "add_bots"}, {Type: "host", Action: "start"}} {
		if _, err := c.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	p := webtest.NewTab(t, "person", 360, 740)
	pt.Open(p, 1)
	p.WaitJS(60*time.Second, `!!document.querySelector('#chat-msgs li[data-bot]')`)
	p.Do(5*time.Second, browsertest.ScrollIntoView(chromedp.CSS("#chat-msgs li[data-bot]")))
	for _, l := range []locale.Lang{locale.Ka, locale.Ru, locale.En} {
		p.Do(5*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		p.WaitJS(5*time.Second, fmt.Sprintf(`document.documentElement.lang === %q`, l))
		tag := locale.New(l).T("web.chat_bot.tag", nil)
		p.WaitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#chat-msgs li[data-bot] [data-bot]').textContent === %q`, tag))
		// the line without its text: who said it
		who := webtest.Eval[string](p, `(() => { const li = document.querySelector('#chat-msgs li[data-bot]').cloneNode(true); li.querySelector('.text').remove(); return li.textContent; })()`)
		if n := strings.Count(strings.ToLower(who), strings.ToLower(tag)); n != 1 {
			t.Errorf("%s: a bot's line says %q %d times: %q", l, tag, n, who)
		}
		if !strings.Contains(webtest.Eval[string](p, `document.querySelector('#chat-msgs li[data-bot] .from').textContent`), "(") {
			t.Errorf("%s: a bot's line lost its seat: %q", l, who)
		}
	}
	p.Shot("d6-bot-once-360")
}
