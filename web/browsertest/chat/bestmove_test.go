package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/locale"
	"mafia/web/internal/webtest"
)

// TestBrowserTheFirstVictimMakesTheBestMove: the first night's victim, in
// their last words at 360x740, gets the best move's part (no other page
// does): every other seat a 44 px button, the send button off until three
// are chosen, a fourth not choosable; the three sent are the store's
// best-move statement, a Georgian listener's log tells it with the three
// players, and the part is gone once made.
func TestBrowserTheFirstVictimMakesTheBestMove(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	// The server's own clock: a fake one holds the frames' rate limits
	// still, and the page's pings use them up.
	ts := webtest.StartPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	pt := webtest.NewPeopleTable(ctx, t, ts, "Best move", 7, nil, map[string]int64{
		"night": 4_000, "speech": 2_000, "defence": 2_000, "tie_speech": 2_000, "last_words": 600_000, "vote": 3_000})
	don := pt.SeatsWith(engine.Don)[0]
	var victim, listener int
	for s := 1; s <= 7; s++ {
		if !pt.Roles[s-1].IsMafia() {
			if victim == 0 {
				victim = s
			} else if listener == 0 {
				listener = s
			}
		}
	}
	for s := 1; s <= 7; s++ {
		switch s {
		case victim, listener:
		case don:
			pt.Play(s, webtest.With(webtest.Kills(victim, 1)))
		default:
			pt.Play(s, webtest.Passer)
		}
	}
	vp := webtest.NewTab(t, "victim", 360, 740)
	ls := webtest.NewTab(t, "listener-ka", 360, 740)
	ls.Do(10*time.Second, chromedp.Navigate("about:blank"))
	webtest.PreferLanguage(ls, "ka-GE,ka;q=0.9")
	pt.Open(vp, victim)
	pt.Open(ls, listener)
	ls.WaitJS(10*time.Second, `document.documentElement.lang === 'ka'`)
	webtest.WaitPhase(vp, 30*time.Second, "last_words", 1, victim)
	webtest.WaitPhase(ls, 20*time.Second, "last_words", 1, victim)
	vp.WaitJS(10*time.Second, `!!document.querySelector('#best-move button[data-best]')`)
	if n := webtest.Eval[int](ls, `document.querySelectorAll('#best-move').length`); n != 0 {
		t.Errorf("the listener's page offers the best move (%d parts)", n)
	}

	// every other seat, 44 px tall, on the screen's width
	offered := webtest.Eval[[]int](vp, `[...document.querySelectorAll('#best-move button[data-best]')].map((b) => +b.dataset.best)`)
	if len(offered) != 6 || slices.Contains(offered, victim) {
		t.Errorf("the best move offers %v, want the 6 other seats", offered)
	}
	if small := webtest.Eval[[]string](vp, `[...document.querySelectorAll('#best-move button')].filter((b) => {
		const r = b.getBoundingClientRect();
		return r.height < 44 || r.left < 0 || r.right > window.innerWidth;
	}).map((b) => b.id || b.dataset.best)`); len(small) != 0 {
		t.Errorf("best-move buttons under 44 px or off the 360 px screen: %v", small)
	}
	if w := webtest.Eval[int](vp, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the page is %d px wide at 360", w)
	}
	if !webtest.Eval[bool](vp, `document.querySelector('#best-move-send').disabled`) {
		t.Error("the send button is on with nothing chosen")
	}
	vp.Shot("best-move-victim-360")

	guess := offered[:3]
	for _, s := range guess {
		tap(vp, fmt.Sprintf(`#best-move button[data-best="%d"]`, s))
		vp.WaitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#best-move button[data-best="%d"]').getAttribute('aria-pressed') === 'true'`, s))
	}
	if !webtest.Eval[bool](vp, fmt.Sprintf(`document.querySelector('#best-move button[data-best="%d"]').disabled`, offered[3])) {
		t.Error("a fourth seat is choosable")
	}
	vp.Shot("best-move-chosen-360")
	tap(vp, `#best-move-send`)
	vp.WaitJS(10*time.Second, `((window.__mafia.state.view.talk || [])[0] || {statements: []}).statements.some((s) => s.verb === 'best_move')`)
	vp.WaitJS(5*time.Second, `!document.querySelector('#best-move')`)

	// the store holds it, as sent
	_, log := ts.Game(t, pt.Table)
	var made []engine.Event
	for _, e := range log {
		if e.Kind == engine.EvStatement && e.Verb == engine.BestMove {
			made = append(made, e)
		}
	}
	want := engine.SetOf(engine.Seat(guess[0]), engine.Seat(guess[1]), engine.Seat(guess[2]))
	if len(made) != 1 || made[0].Actor != engine.Seat(victim) || made[0].Set != want {
		t.Fatalf("the store holds the best moves %+v, want seat %d's %v", made, victim, guess)
	}

	// the Georgian listener's log tells it, with the three players
	ka := locale.New(locale.Ka)
	head := ka.T("event.statement_best_move", map[string]any{"Actor": ka.T("web.who", map[string]any{"Seat": victim, "Name": pt.Name(victim)}), "Seats": ""})
	ls.WaitJS(10*time.Second, fmt.Sprintf(`[...document.querySelectorAll('#log li, #log p, #log div')].some((l) => l.textContent.includes(%q))`, head[:len(head)-1]))
	line := webtest.Eval[string](ls, fmt.Sprintf(`[...document.querySelectorAll('#log li, #log p, #log div')].map((l) => l.textContent).find((x) => x.includes(%q)) || ''`, head[:len(head)-1]))
	for _, s := range guess {
		if !strings.Contains(line, pt.Name(s)) {
			t.Errorf("the listener's line %q does not name seat %d's player %s", line, s, pt.Name(s))
		}
	}
	webtest.NoEnglish(ls, locale.Ka)
	ls.Shot("best-move-listener-ka-360")
}
