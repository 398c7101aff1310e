package account

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/web/internal/webtest"
)

// seedGames records n finished online games with the account of name in
// seat 1 (each a table of seven, the others guests), as the server keeps
// a game its account played: the player's page counts them.
func seedGames(t *testing.T, db *sqlite.DB, name string, n int) {
	t.Helper()
	ctx := context.Background()
	a, err := db.AccountByKey(ctx, account.Key(name))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-time.Hour)
	for g := range n {
		id := fmt.Sprintf("seeded%s%d", name, g)
		seats := make([]store.Seat, 7)
		for i := range seats {
			seats[i] = store.Seat{Seat: i + 1, Name: fmt.Sprintf("P%d", i+1), TokenHash: fmt.Sprintf("%s-tok%d", id, i+1)}
		}
		seats[0].Name, seats[0].Account = name, a.ID
		tb := store.Table{ID: id, Kind: store.KindOnline, Name: "table " + id, Status: store.StatusPlaying, CreatedAt: at, UpdatedAt: at}
		if err := db.CreateTable(ctx, tb, seats); err != nil {
			t.Fatal(err)
		}
		tb.Status, tb.Winner, tb.UpdatedAt = store.StatusEnded, "town", at.Add(time.Minute)
		if err := db.UpdateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowserTheFirstGamesHintsCountTheAccountsGames (issue 28, "What to
// build" 3, the first game with hints): at 360x740, a logged-in player's
// first games are the account's, not the phone's. An account of three
// games on a phone that has seen none sits at a table: no hints. A new
// account on a phone that has seen five games sits: the hint says what to
// do now, in Georgian, English and Russian. Logged out on that phone, a
// guest is counted by the phone again: no hints.
func TestBrowserTheFirstGamesHintsCountTheAccountsGames(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, db := webtest.StartRatedSite(t)

	// Nino has played three games, on another phone.
	p := webtest.NewTab(t, "played-account", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(base+"/account"))
	webtest.SignUp(p, "Nino", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/Nino'`)
	seedGames(t, db, "Nino", 3)
	webtest.CreateTable(p, base, "Nino", 7, webtest.FastTimings)
	p.WaitJS(10*time.Second, `!!document.querySelector('.seat.me [data-account]')`)
	if !p.Eventually(10*time.Second, `document.querySelector('#t-hint').dataset.hints === 'false'`) || webtest.Eval[bool](p, `!!document.querySelector('#hint')`) {
		t.Errorf("an account of three games on a new phone: hints %q, the line %q",
			webtest.Eval[string](p, `document.querySelector('#t-hint').dataset.hints || ''`), webtest.Eval[string](p, `(document.querySelector('#hint') || {}).textContent || ''`))
	}
	p.Shot("hints-account-played-360")

	// Tamar's account is new; the phone has seen five games (someone
	// else's).
	q := webtest.NewTab(t, "new-account", 360, 740)
	q.Do(15*time.Second, chromedp.Navigate(base+"/account"))
	webtest.Eval[bool](q, `(localStorage.setItem('mafia.played', '5'), true)`)
	webtest.SignUp(q, "Tamar", "password1")
	q.WaitJS(10*time.Second, `location.pathname === '/players/Tamar'`)
	webtest.CreateTable(q, base, "Tamar", 7, webtest.FastTimings)
	q.WaitJS(10*time.Second, `!!document.querySelector('.seat.me [data-account]')`)
	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		q.Do(10*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		want := locale.New(l).T("web.hint.wait", nil)
		if !q.Eventually(10*time.Second, fmt.Sprintf(`(() => { const h = document.querySelector('#hint'); return !!h && h.dataset.hint === 'web.hint.wait' && h.querySelector('.hint-text').textContent === %q; })()`, want)) {
			t.Errorf("a new account on a phone of five games, in %s: hints %q, the line %q, want %q", l,
				webtest.Eval[string](q, `document.querySelector('#t-hint').dataset.hints || ''`), webtest.Eval[string](q, `(document.querySelector('#hint') || {}).textContent || ''`), want)
		}
		q.Shot("hints-account-new-" + string(l) + "-360")
	}

	// Logged out, the guest is the phone's five games: no hints.
	q.Do(10*time.Second, chromedp.Navigate(base+"/account"), browsertest.WaitVisible(chromedp.CSS("#logout")), browsertest.Click(chromedp.CSS("#logout")),
		browsertest.WaitVisible(chromedp.CSS("#account-form")))
	webtest.CreateTable(q, base, "Guest", 7, webtest.FastTimings)
	if !q.Eventually(10*time.Second, `document.querySelector('#t-hint').dataset.hints === 'false'`) || webtest.Eval[bool](q, `!!document.querySelector('#hint')`) {
		t.Errorf("a guest on a phone of five games: hints %q", webtest.Eval[string](q, `document.querySelector('#t-hint').dataset.hints || ''`))
	}
}
