package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// TestBrowserTheLogIsDayByDayAndTheMomentsAreSignalled: on a player's
// phone in the first day (issue 13, "What to build" 4 and 2) the log is
// grouped by the deal, the night and the day, every group collapsed but
// the current one, and it names the seats (number and name), not bare
// numbers; the morning's announcement stays until dismissed; the
// player's being nominated is signalled, and the moments vibrate where
// the phone can, until the player turns that off.
func TestBrowserTheLogIsDayByDayAndTheMomentsAreSignalled(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	// A long first night (the page opens in it), and speeches that run
	// their time: the day stands still long enough to be looked at.
	pt := webtest.NewPeopleTable(ctx, t, ts, "Day by day", 7, nil, map[string]int64{
		"night": 20_000, "speech": 8_000, "defence": 1_000, "tie_speech": 1_000, "last_words": 1_000, "vote": 3_000})
	citizens := pt.SeatsWith(engine.Citizen, engine.Detective, engine.Doctor)
	me, victim := citizens[0], citizens[1]
	for s := 1; s <= 7; s++ {
		if s != me {
			pt.Play(s, func(v *wire.View) (wire.ClientMessage, bool) {
				for _, pol := range []webtest.Policy{webtest.Kills(victim, 1), webtest.Nominates(me)} {
					if m, ok := pol(v); ok {
						return m, true
					}
				}
				return wire.ClientMessage{}, false // holds the floor
			})
		}
	}
	p := webtest.NewTab(t, "day-by-day", 360, 740)
	// The phone vibrates (a headless browser's navigator.vibrate refuses
	// without a tap): the page is held to calling it.
	p.Do(5*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `navigator.vibrate = (p) => { window.__buzzed = (window.__buzzed || 0) + 1; return true; };`})
		return err
	}))
	pt.Open(p, me)
	p.Do(5*time.Second, webtest.TapSetting(`button[data-lang="en"]`))
	if !p.Eventually(60*time.Second, `window.__mafia.sounds.nominated >= 1`) {
		t.Fatalf("being nominated is not signalled:\n%s", p.Text())
	}
	if n := webtest.Eval[int](p, `window.__mafia.sounds.vibrated`); n < 1 {
		t.Errorf("no moment vibrated (%d calls)", webtest.Eval[int](p, `window.__buzzed || 0`))
	}
	en := locale.New(locale.En)
	groups := webtest.Eval[[]string](p, `[...document.querySelectorAll('#log > li.log-group')].map((g) => g.querySelector('summary').textContent + (g.querySelector('details').open ? ' (open)' : ''))`)
	want := []string{en.T("web.timeline.start", nil), en.T("web.timeline.night", map[string]any{"Round": 1}),
		en.T("web.timeline.day", map[string]any{"Round": 1}) + " (open)"}
	if fmt.Sprint(groups) != fmt.Sprint(want) {
		t.Errorf("the log's groups are %q, want %q: by the deal, night and day, the current one open", groups, want)
	}
	logText := webtest.Eval[string](p, `document.querySelector('#log').textContent`)
	for _, s := range []int{victim, me} {
		if !strings.Contains(logText, pt.Name(s)) {
			t.Errorf("the log does not name seat %d (%s):\n%s", s, pt.Name(s), logText)
		}
	}
	p.Shot("day-by-day-360")
	// The morning's announcement stays until the player dismisses it.
	if !webtest.Eval[bool](p, `!!document.querySelector('#announce[data-kind="morning"]')`) {
		t.Errorf("the morning's announcement is not at the top in the day:\n%s", p.Text())
	} else {
		p.Do(5*time.Second, browsertest.Click(chromedp.CSS(`#announce button[data-key="ann-close"]`)))
		if !p.Eventually(3*time.Second, `!document.querySelector('#announce')`) {
			t.Errorf("the morning's announcement stays when dismissed")
		}
	}
	// The vibration is the player's to turn off, and stays off.
	p.Do(5*time.Second, webtest.TapSetting("#vibrate"))
	if got := webtest.Eval[string](p, `localStorage.getItem('mafia.vibrate') + ' ' + document.querySelector('#vibrate').getAttribute('aria-pressed')`); got != "0 false" {
		t.Errorf("the vibration switch, once tapped: %q, want it off", got)
	}
}

// TestBrowserHowToPlayFromTheLobbyInEachLanguage: the rules in short, each
// card explained, open from the lobby in Georgian, English and Russian
// (issue 13, "What to build" 7; the table's own button is pinned by
// TestBrowserTableTheLobby).
func TestBrowserHowToPlayFromTheLobbyInEachLanguage(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "howto", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#create")))
	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		cat := locale.New(l)
		p.Do(5*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		p.WaitJS(5*time.Second, fmt.Sprintf(`document.documentElement.lang === %q`, l))
		p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#howto-open")))
		p.WaitJS(5*time.Second, `document.querySelector('#howto').open`)
		text := webtest.Eval[string](p, `document.querySelector('#howto').textContent`)
		for _, key := range []string{"web.howto.night", "web.howto.day", "web.howto.vote", "web.role_help.citizen", "web.role_help.detective",
			"web.role_help.doctor", "web.role_help.mafia", "web.role_help.don", "web.role_help.maniac"} {
			if !strings.Contains(text, cat.T(key, nil)) {
				t.Errorf("%s: how to play does not say %q", l, cat.T(key, nil))
			}
		}
		p.Shot("howto-lobby-" + string(l) + "-360")
		p.Do(5*time.Second, browsertest.Click(chromedp.CSS(`#howto button[data-key="howto-close"]`)))
		p.WaitJS(5*time.Second, `!document.querySelector('#howto').open`)
	}
}
