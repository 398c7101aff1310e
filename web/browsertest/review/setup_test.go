package review

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/web/internal/webtest"
)

// TestBrowserCreatesACustomSetup: the lobby's custom deal reaches the
// server as the API spells it (its keys in lower case: the API reads keys
// exactly), and the game is dealt that setup.
func TestBrowserCreatesACustomSetup(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "custom", 1280, 900)
	counts := map[string]string{"Don": "1", "Mafia": "0", "Maniac": "1", "Detective": "1", "Doctor": "1", "Citizens": "2"}
	p.Do(15*time.Second,
		chromedp.Navigate(ts.URL+"/"),
		browsertest.WaitVisible(chromedp.CSS("#create")),
		browsertest.SendKeys(chromedp.CSS("#your-name"), "Nino"),
		browsertest.Click(chromedp.CSS(`input[name=mode][value=custom]`)),
		browsertest.WaitVisible(chromedp.CSS("#count-Don")),
	)
	for k, v := range counts {
		p.Do(5*time.Second, browsertest.SetValue(chromedp.CSS("#count-"+k), v))
	}
	p.Do(15*time.Second,
		browsertest.Click(chromedp.CSS("#create")),
		browsertest.WaitVisible(chromedp.CSS("#seated")),
	)
	table := p.TableOf()
	if n := webtest.Eval[int](p, `window.__mafia.state.lobby.players`); n != 6 {
		t.Fatalf("the table has %d seats, the form asked for 6", n)
	}
	p.Do(10*time.Second,
		browsertest.Click(chromedp.CSS("#add-bots")),
		browsertest.WaitEnabled(chromedp.CSS("#start")),
		browsertest.Click(chromedp.CSS("#start")),
		browsertest.WaitVisible(chromedp.CSS("#my-card")),
	)
	g, _ := ts.Game(t, table)
	got := map[engine.Role]int{}
	for s := engine.Seat(1); s <= engine.Seat(g.Players()); s++ {
		got[g.Role(s)]++
	}
	want := map[engine.Role]int{engine.Don: 1, engine.Maniac: 1, engine.Detective: 1, engine.Doctor: 1, engine.Citizen: 2}
	for r, n := range want {
		if got[r] != n {
			t.Errorf("%d %s dealt, the form asked for %d (deal %v)", got[r], r, n, got)
		}
	}
}

// TestBrowserCreateChoosesTheBots: the create form offers the bots' level
// (the strongest, expert, first), their pace (like people first) and the wait before
// a bot plays for a dropped player (the room's default), and the table is
// made with what was chosen (a lobby without a pace is instant).
func TestBrowserCreateChoosesTheBots(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "bots", 1280, 900)
	p.Do(15*time.Second,
		chromedp.Navigate(ts.URL+"/?lang=en"),
		browsertest.WaitVisible(chromedp.CSS("#create")),
	)
	if got := webtest.Eval[string](p, `document.querySelector('#bots').value + ' ' + document.querySelector('#pace').value + ' ' + document.querySelector('#stand-in').value`); got != "expert human 20" {
		t.Errorf("the form starts at %q, want expert human 20", got)
	}
	if got := webtest.Eval[string](p, `[...document.querySelectorAll('#bots option')].map(o => o.textContent).join('|')`); got != "Expert|Thinking|Random" {
		t.Errorf("the levels read %q", got)
	}
	p.Do(15*time.Second,
		browsertest.SendKeys(chromedp.CSS("#your-name"), "Nino"),
		browsertest.SetValue(chromedp.CSS("#bots"), "random"),
		browsertest.SetValue(chromedp.CSS("#pace"), "instant"),
		browsertest.SetValue(chromedp.CSS("#stand-in"), "5"),
		browsertest.Click(chromedp.CSS("#create")),
		browsertest.WaitVisible(chromedp.CSS("#seated")),
	)
	got := webtest.Eval[string](p, `(l => l.bots + ' ' + (l.pace || 'instant') + ' ' + l.stand_in_ms)(window.__mafia.state.lobby)`)
	if got != "random instant 5000" {
		t.Errorf("the table was made with %q, the form asked for random instant 5000", got)
	}
}
