package web_test

import (
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
	needBrowser(t)
	base, db := startRatedSite(t)

	p := newTab(t, "me-played", 360, 740)
	p.do(15*time.Second, chromedp.Navigate(base+"/account"))
	signUp(p, "Nino", "password1")
	p.waitJS(10*time.Second, `location.pathname === '/players/Nino'`)
	seedGames(t, db, "Nino", 3)
	createTable(p, base, "Nino", 7, fastTimings) // a new load of the page: me answers with 3 games
	p.waitJS(10*time.Second, `!!document.querySelector('.seat.me [data-account]')`)
	if !p.eventually(10*time.Second, `document.querySelector('#t-hint').dataset.hints === 'false'`) || eval[bool](p, `!!document.querySelector('#hint')`) {
		t.Errorf("an account of three games: hints %q", eval[string](p, `document.querySelector('#t-hint').dataset.hints || ''`))
	}
	if asked := eval[[]string](p, playerPageAsked); len(asked) != 0 {
		t.Errorf("the page asked for a player's page to count the games: %v", asked)
	}

	q := newTab(t, "me-new", 360, 740)
	q.do(15*time.Second, chromedp.Navigate(base+"/account"))
	eval[bool](q, `(localStorage.setItem('mafia.played', '5'), true)`)
	signUp(q, "Tamar", "password1")
	q.waitJS(10*time.Second, `location.pathname === '/players/Tamar'`)
	createTable(q, base, "Tamar", 7, fastTimings)
	q.waitJS(10*time.Second, `!!document.querySelector('.seat.me [data-account]')`)
	q.do(10*time.Second, tapSetting(`button[data-lang="en"]`))
	want := locale.New(locale.En).T("web.hint.wait", nil)
	if !q.eventually(10*time.Second, `(() => { const h = document.querySelector('#hint'); return !!h && h.querySelector('.hint-text').textContent === `+strconvQuote(want)+`; })()`) {
		t.Errorf("a new account on a phone of five games: hints %q, want the line %q",
			eval[string](q, `document.querySelector('#t-hint').dataset.hints || ''`), want)
	}
	if asked := eval[[]string](q, playerPageAsked); len(asked) != 0 {
		t.Errorf("the page asked for a player's page to count the games: %v", asked)
	}
	q.shot("hints-me-new-en-360")
}
