package phone

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/assist"
	"mafia/internal/site"
	"mafia/locale"
	"mafia/rating"
	"mafia/room"
	"mafia/server"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/web/internal/webtest"
)

// Issue 28, defect 5: the leaderboard and a rated player's page scrolled
// sideways at 360 px (447 px and 411 px in Georgian), the wins column off
// the screen, "wins by side" out of its card.

// overflowReport is a script that returns "" when the page is no wider
// than its viewport and every table of sel lies inside the part around
// it; else what sticks out.
func overflowReport(sel string) string {
	return fmt.Sprintf(`(() => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw) out.push('page ' + document.documentElement.scrollWidth + ' > ' + vw);
  for (const tb of document.querySelectorAll(%q)) {
    const part = tb.closest('.part') || document.body;
    const r = tb.getBoundingClientRect(), p = part.getBoundingClientRect();
    if (r.right > p.right + 0.5) out.push('#' + tb.id + ' right ' + Math.round(r.right) + ' > its card ' + Math.round(p.right));
    const last = tb.querySelector('thead th:last-child');
    if (last && last.getBoundingClientRect().right > vw + 0.5) out.push('#' + tb.id + ' last column off screen');
  }
  return out.join('; ');
})()`, sel)
}

// TestBrowserNoSidewaysScrollOnTheBoardAndAPlayersPage: with rated games
// of seven accounts (one with a long name), the leaderboard and a rated
// player's page are 360 px wide in Georgian, English and Russian, the
// wins column on screen and every tally inside its card.
func TestBrowserNoSidewaysScrollOnTheBoardAndAPlayersPage(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	srv := server.New(server.Config{Store: db, Render: webtest.Render, Pace: room.PaceInstant, Accounts: svc})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	acct := account.NewHandler(account.HandlerConfig{Service: svc, Render: webtest.Render, Ratings: srv.PlayerRatings})
	hs := httptest.NewServer(site.Handler(srv, assist.New(assist.Config{Store: db}), site.WithAccounts(acct)))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	ctx := context.Background()
	var seats []rating.Seat
	for i, n := range []string{"Nino", "Gio", "Aleksandre_Bagrationi", "Tamar", "Eka", "Dato", "Keti"} {
		a, _, err := svc.Signup(ctx, n, "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		side := rating.Town
		if i < 2 {
			side = rating.Mafia
		}
		seats = append(seats, rating.Seat{Player: strconv.FormatInt(a.Account.ID, 10), Side: side})
	}
	for g, w := range []rating.Side{rating.Mafia, rating.Town} {
		if _, err := db.RateGame(ctx, store.RatedGame{Game: fmt.Sprintf("g%d", g), At: time.Now(), Seats: seats, Result: rating.Result{Winner: w}}); err != nil {
			t.Fatal(err)
		}
	}

	p := webtest.NewTab(t, "widths", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(hs.URL+"/ratings"))
	p.WaitJS(10*time.Second, `document.querySelectorAll('#board tbody tr').length === 7`)
	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p.Do(10*time.Second, chromedp.Navigate(hs.URL+"/ratings"))
		p.Do(10*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		p.WaitJS(10*time.Second, fmt.Sprintf(`document.documentElement.lang === %q && document.querySelectorAll('#board tbody tr').length === 7`, l))
		if got := webtest.Eval[string](p, overflowReport("table")); got != "" {
			t.Errorf("%s: the leaderboard at 360 px: %s", l, got)
		}
		p.Shot("d5-board-" + string(l) + "-360")
		p.Do(10*time.Second, chromedp.Navigate(hs.URL+"/players/Nino"))
		p.WaitJS(10*time.Second, `document.querySelectorAll('#ratings-table tbody tr').length >= 2`)
		if got := webtest.Eval[string](p, overflowReport("table")); got != "" {
			t.Errorf("%s: Nino's page at 360 px: %s", l, got)
		}
		p.Shot("d5-profile-" + string(l) + "-360")
	}
}
