package account

import (
	"mafia/web/internal/webtest"

	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/locale"
)

// playerPageAsked is the page's requests (since its load) for a player's
// page, as the browser's resource timings list them.
const playerPageAsked = `performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.startsWith('/api/players/'))`

// TestBrowserTheFirstGamesHintsReadTheCountFromMe (issue 28's leftover):
// at 360x740, a page loaded by a logged-in player counts the account's
// games from GET /api/account/me's games, with no request for the player's
// page: an account of three games sits at a table with no hints; a new
// account on a phone that has seen five games gets the hint.
func TestBrowserTheFirstGamesHintsReadTheCountFromMe(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, db := webtest.StartRatedSite(t)

	p := webtest.NewTab(t, "me-played", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(base+"/account"))
	webtest.SignUp(p, "Nino", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/Nino'`)
	seedGames(t, db, "Nino", 3)
	webtest.CreateTable(p, base, "Nino", 7, webtest.FastTimings) // a new load of the page: me answers with 3 games
	p.WaitJS(10*time.Second, `!!document.querySelector('.seat.me [data-account]')`)
	if !p.Eventually(10*time.Second, `document.querySelector('#t-hint').dataset.hints === 'false'`) || webtest.Eval[bool](p, `!!document.querySelector('#hint')`) {
		t.Errorf("an account of three games: hints %q", webtest.Eval[string](p, `document.querySelector('#t-hint').dataset.hints || ''`))
	}
	if asked := webtest.Eval[[]string](p, playerPageAsked); len(asked) != 0 {
		t.Errorf("the page asked for a player's page to count the games: %v", asked)
	}

	q := webtest.NewTab(t, "me-new", 360, 740)
	q.Do(15*time.Second, chromedp.Navigate(base+"/account"))
	webtest.Eval[bool](q, `(localStorage.setItem('mafia.played', '5'), true)`)
	webtest.SignUp(q, "Tamar", "password1")
	q.WaitJS(10*time.Second, `location.pathname === '/players/Tamar'`)
	webtest.CreateTable(q, base, "Tamar", 7, webtest.FastTimings)
	q.WaitJS(10*time.Second, `!!document.querySelector('.seat.me [data-account]')`)
	q.Do(10*time.Second, webtest.TapSetting(`button[data-lang="en"]`))
	want := locale.New(locale.En).T("web.hint.wait", nil)
	if !q.Eventually(10*time.Second, `(() => { const h = document.querySelector('#hint'); return !!h && h.querySelector('.hint-text').textContent === `+webtest.StrconvQuote(want)+`; })()`) {
		t.Errorf("a new account on a phone of five games: hints %q, want the line %q",
			webtest.Eval[string](q, `document.querySelector('#t-hint').dataset.hints || ''`), want)
	}
	if asked := webtest.Eval[[]string](q, playerPageAsked); len(asked) != 0 {
		t.Errorf("the page asked for a player's page to count the games: %v", asked)
	}
	q.Shot("hints-me-new-en-360")
}
