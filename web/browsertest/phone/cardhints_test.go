package phone

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/web/internal/webtest"
)

// Issue 28, "What to build" 3: each card as a card (its name, its side,
// what it does at night, how it wins), at the deal and from the table, and
// a first game with hints.

// nightOneTable is a 7-seat table of people at night 1, which lasts until
// the test moves the clock (it never does).
func nightOneTable(t *testing.T, ctx context.Context, name string) *webtest.PeopleTable {
	t.Helper()
	clk := room.NewFakeClock(time.Now())
	ts := webtest.StartServerWith(t, func(c *server.Config) { c.SeatsPerAddress = -1; c.Clock = clk })
	return webtest.NewPeopleTable(ctx, t, ts, name, 7, nil, map[string]int64{
		"night": 60_000, "speech": 40_000, "defence": 2_000, "tie_speech": 2_000, "last_words": 2_000, "vote": 3_000})
}

// TestBrowserTheCardIsShownAsACardAtTheDealAndFromTheTable: at 360 px in
// Georgian, English and Russian, the detective's page at the deal says
// what the card does at night and how it wins (its name and side on the
// card above it); "About your card" opens how to play at the player's own
// card, among all six cards, each with its name, night and win.
func TestBrowserTheCardIsShownAsACardAtTheDealAndFromTheTable(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	pt := nightOneTable(t, ctx, "Cards")
	d := pt.SeatsWith(engine.Detective)[0]
	p := webtest.NewTab(t, "detective", 360, 740)
	pt.Open(p, d)
	webtest.WaitPhase(p, 10*time.Second, "night", 1, 0)
	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		cat := locale.New(l)
		p.Do(10*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		p.WaitJS(10*time.Second, fmt.Sprintf(`document.documentElement.lang === %q && !!document.querySelector('#deal .rcard')`, l))
		night, win := cat.T("web.role_night.detective", nil), cat.T("web.role_win.detective", nil)
		p.WaitJS(10*time.Second, fmt.Sprintf(`(() => { const d = document.querySelector('#deal').textContent; return d.includes(%q) && d.includes(%q); })()`, night, win))
		if got := webtest.Eval[string](p, `document.querySelector('#my-card .card-role').textContent`); got != cat.T("role.detective", nil) {
			t.Errorf("%s: the card above the deal is named %q, want %q", l, got, cat.T("role.detective", nil))
		}
		p.Shot("cards-deal-" + string(l) + "-360")

		// From the table: the player's own card among all the cards.
		p.Do(5*time.Second, browsertest.Click(chromedp.CSS(`#card-about`)))
		p.WaitJS(5*time.Second, `document.querySelector('#howto').open && !!document.querySelector('#howto .rcard.mine[data-card="detective"]')`)
		for _, r := range []string{"citizen", "detective", "doctor", "mafia", "don", "maniac"} {
			txt := webtest.Eval[string](p, fmt.Sprintf(`(document.querySelector('#howto .rcard[data-card=%q]') || {}).textContent || ''`, r))
			for _, id := range []string{"role." + r, "web.role_night." + r, "web.role_win." + r} {
				if want := cat.T(id, nil); !strings.Contains(txt, want) {
					t.Errorf("%s: the %s card in how to play does not say %q: %q", l, r, want, txt)
				}
			}
		}
		if n := webtest.Eval[int](p, `document.querySelectorAll('#howto .rcard.mine').length`); n != 1 {
			t.Errorf("%s: %d cards are marked as the player's own, want 1", l, n)
		}
		p.Shot("cards-howto-" + string(l) + "-360")
		p.Do(5*time.Second, browsertest.Click(chromedp.CSS(`#howto button[data-key="howto-close"]`)))
		p.WaitJS(5*time.Second, `!document.querySelector('#howto').open`)
	}
}

// TestBrowserAFirstGameHasHintsThatATapTurnsOff: on a phone that has seen
// no game, the table says under the moves what the step is and what to do
// (the detective: choose a player; a citizen: wait for the morning), in
// Georgian, English and Russian; a tap on × hides the hints, for good on
// that phone (a reload shows none), and how to play turns them on again.
// After three games seen to the end they are off unless switched on.
func TestBrowserAFirstGameHasHintsThatATapTurnsOff(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	pt := nightOneTable(t, ctx, "Hints")
	d, c := pt.SeatsWith(engine.Detective)[0], pt.SeatsWith(engine.Citizen)[0]
	dp, cp := webtest.NewTab(t, "detective", 360, 740), webtest.NewTab(t, "citizen", 360, 740)
	pt.Open(dp, d)
	pt.Open(cp, c)
	hint := func(p *webtest.Tab, id string, l locale.Lang) {
		t.Helper()
		want := locale.New(l).T(id, nil)
		if !p.Eventually(10*time.Second, fmt.Sprintf(`(() => { const h = document.querySelector('#hint'); return !!h && h.dataset.hint === %q && h.querySelector('.hint-text').textContent === %q; })()`, id, want)) {
			t.Errorf("%s in %s: the hint is %q, want %s: %q", p.Name, l, webtest.Eval[string](p, `(document.querySelector('#hint') || {}).textContent || ''`), id, want)
		}
	}
	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		for _, p := range []*webtest.Tab{dp, cp} {
			p.Do(10*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
			p.WaitJS(10*time.Second, fmt.Sprintf(`document.documentElement.lang === %q && !!window.__mafia && !!window.__mafia.state.view`, l))
		}
		hint(dp, "web.hint.night_move", l)
		hint(cp, "web.hint.night_wait", l)
		dp.Shot("hints-night-" + string(l) + "-360")
	}

	// × hides them, for good on this phone.
	cp.Do(5*time.Second, browsertest.Click(chromedp.CSS(`#hint-off`)))
	cp.WaitJS(5*time.Second, `!document.querySelector('#hint') && localStorage.getItem('mafia.hints') === '0'`)
	pt.Open(cp, c)
	if webtest.Eval[bool](cp, `!!document.querySelector('#hint')`) {
		t.Error("after a reload the hints that were turned off are back")
	}
	// How to play turns them on again.
	cp.Do(5*time.Second, browsertest.Click(chromedp.CSS("#howto-open")))
	cp.WaitJS(5*time.Second, `document.querySelector('#howto').open && document.querySelector('#hints-toggle').getAttribute('aria-pressed') === 'false'`)
	cp.Do(5*time.Second, browsertest.Click(chromedp.CSS("#hints-toggle")))
	cp.WaitJS(5*time.Second, `document.querySelector('#hints-toggle').getAttribute('aria-pressed') === 'true'`)
	cp.Do(5*time.Second, browsertest.Click(chromedp.CSS(`#howto button[data-key="howto-close"]`)))
	hint(cp, "web.hint.night_wait", locale.Ru)

	// A player of three games: no hints unless asked for.
	webtest.Eval[bool](dp, `(localStorage.removeItem('mafia.hints'), localStorage.setItem('mafia.played', '3'), true)`)
	pt.Open(dp, d)
	if webtest.Eval[bool](dp, `!!document.querySelector('#hint')`) {
		t.Error("after three games the hints are still on by themselves")
	}
}
