package chat

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
)

// TestBrowserAStatementInASpeechReachesAnotherPage: in her speech a player
// taps "My card: detective" and "I suspect…" seat 3 (statements.js); the
// server takes both; another player's page, in Georgian, tells each as a
// sentence of its catalog, in the log and on the floor, and her own page
// in the second person; when the floor passes the buttons go.
func TestBrowserAStatementInASpeechReachesAnotherPage(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartPeopleServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	pt := webtest.NewPeopleTable(ctx, t, ts, "Talk", 5, map[string]string{"first_night": "meeting"}, map[string]int64{
		"night": 1_000, "speech": 600_000, "defence": 2_000, "tie_speech": 2_000, "last_words": 2_000, "vote": 2_000})
	for s := 2; s <= 5; s++ {
		pt.Play(s, webtest.Passer)
	}
	sp := webtest.NewTab(t, "speaker", 360, 780)
	ls := webtest.NewTab(t, "listener-ka", 360, 780)
	ls.Do(10*time.Second, chromedp.Navigate("about:blank"))
	webtest.PreferLanguage(ls, "ka-GE,ka;q=0.9")
	pt.Open(sp, 1)
	pt.Open(ls, 2)
	ls.WaitJS(10*time.Second, `document.documentElement.lang === 'ka'`)
	webtest.WaitPhase(sp, 20*time.Second, "speech", 1, 1)
	sp.WaitJS(10*time.Second, `!!document.querySelector('#say button[data-say=claim][data-role=detective]')`)
	if n := webtest.Eval[int](ls, `document.querySelectorAll('#say').length`); n != 0 {
		t.Errorf("the listener's page offers %d statement parts in another's speech", n)
	}
	sp.Shot("say-speaker-360")

	tap(sp, `#say button[data-say=claim][data-role=detective]`)
	sp.WaitJS(10*time.Second, `(window.__mafia.state.view.talk || []).length === 1`)
	tap(sp, `#say button[data-say-kind=suspect]`)
	sp.WaitJS(5*time.Second, `!!document.querySelector('#say button[data-say=suspect][data-target="3"]')`)
	tap(sp, `#say button[data-say=suspect][data-target="3"]`)
	sp.WaitJS(10*time.Second, `window.__mafia.state.view.talk[0].statements.length === 2`)

	// The store holds both, as said.
	_, log := ts.Game(t, pt.Table)
	var said []engine.Event
	for _, e := range log {
		if e.Kind == engine.EvStatement {
			said = append(said, e)
		}
	}
	if len(said) != 2 || said[0].Verb != engine.Claim || said[0].Role != engine.Detective || said[1].Verb != engine.Suspect || said[1].Target != 3 {
		t.Fatalf("the store holds the statements %+v", said)
	}

	ka, en := locale.New(locale.Ka), locale.New(locale.En)
	who := ka.T("web.who", map[string]any{"Seat": 1, "Name": pt.Name(1)})
	claimKa := ka.T("event.statement_claim", map[string]any{"Actor": who, "Role": ka.Role(engine.Detective)})
	suspectKa := ka.T("event.statement_suspect", map[string]any{"Actor": who, "Target": ka.T("web.who", map[string]any{"Seat": 3, "Name": pt.Name(3)})})
	for _, s := range []string{claimKa, suspectKa} {
		ls.WaitJS(10*time.Second, fmt.Sprintf(`document.querySelector('#log').textContent.includes(%q)`, s))
		ls.WaitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#speech').textContent.includes(%q)`, s))
	}
	webtest.NoEnglish(ls, locale.Ka)
	ls.Shot("say-listener-ka-360")
	mine := en.T("event.statement_claim_you", map[string]any{"Role": en.Role(engine.Detective)})
	sp.WaitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#log').textContent.includes(%q)`, mine))

	// The floor passes: the buttons go, the record stays. The others pass
	// at once and the night is a second, so the floor can be seat 1's
	// again (day 2) a few seconds later: the page itself watches for the
	// moment the floor is another's with no statement button drawn, which
	// a poll from here, on a loaded machine, can miss.
	sp.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`window.__sayGone = false; (() => {
		const iv = setInterval(() => {
			if ((window.__mafia.state.view || {}).speaker !== 1 && document.querySelectorAll('#say button').length === 0) {
				window.__sayGone = true;
				clearInterval(iv);
			}
		}, 10);
	})()`))
	sp.Do(5*time.Second, browsertest.Click(chromedp.CSS(`#t-act button[data-verb=pass]`)))
	// the page draws the new floor: no statement button is left on it
	sp.WaitJS(10*time.Second, `window.__sayGone === true`)
	ls.WaitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#log').textContent.includes(%q)`, claimKa))
}

// tap scrolls the button sel to the middle of the screen, checks that a
// finger there would touch it (nothing docked over it), and taps it.
func tap(tb *webtest.Tab, sel string) {
	tb.T.Helper()
	tb.WaitJS(5*time.Second, fmt.Sprintf(`(() => {
		const b = document.querySelector(%q);
		if (!b || b.disabled) return false;
		b.scrollIntoView({ block: 'center' });
		const r = b.getBoundingClientRect();
		const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return !!at && b.contains(at);
	})()`, sel))
	tb.Do(5*time.Second, browsertest.Click(chromedp.CSS(sel)))
}
