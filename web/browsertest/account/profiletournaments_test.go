package account

import (
	"mafia/web/internal/webtest"

	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/assist"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/internal/site"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
)

// TestBrowserTheRefereesOwnPageListsTheTournamentsTheyReferee (issue 29):
// at 360x740, a logged-in account named the referee of its club's
// tournament at real tables sees on its own page "Tournaments you referee
// or run" (in Georgian, English and Russian, from the catalogs), the
// tournament with its club and their role; its link opens the
// tournament's organiser's screen, which says they are its referee.
// Someone else reading the same page sees none of it.
func TestBrowserTheRefereesOwnPageListsTheTournamentsTheyReferee(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	srv := server.New(server.Config{Store: db, Render: webtest.Render, Pace: room.PaceInstant, Accounts: svc, SeatsPerAddress: -1})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	clubs := clubhttp.New(clubhttp.Config{Store: db, Accounts: svc, Files: assist.Version()})
	host := assist.New(assist.Config{Store: db, Accounts: svc, Clubs: clubs})
	acct := account.NewHandler(account.HandlerConfig{Service: svc, Render: webtest.Render, Clubs: clubs.PlayerClubs,
		Tables: clubs.PlayerTables, Running: clubs.PlayerTournaments})
	hs := httptest.NewServer(site.Handler(srv, host, site.WithAccounts(acct), site.WithClubs(clubs)))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})

	p := webtest.NewTab(t, "own-tournaments", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(hs.URL+"/account"))
	webtest.SignUp(p, "R01", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/R01'`)
	var c struct{ ID, Token string }
	if code := clubCall(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Poti club"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	if code := clubCall(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID+"/members/R01", c.Token, map[string]any{"role": "member"}, nil); code != http.StatusOK {
		t.Fatalf("R01 joins the club: %d", code)
	}
	var ids []string
	for i := 1; i <= 10; i++ {
		var person struct{ ID string }
		if code := clubCall(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token, map[string]any{"name": fmt.Sprintf("Player %02d", i)}, &person); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
		ids = append(ids, person.ID)
	}
	var tr struct{ ID string }
	if code := clubCall(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/tournaments", c.Token, map[string]any{"name": "Poti cup",
		"from": "2026-12-06", "to": "2026-12-06", "players": ids, "tables": 1, "games": 1, "final": map[string]any{"size": 0},
		"referee_account": "R01"}, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}

	p.Do(15*time.Second, chromedp.Navigate(hs.URL+"/players/R01"))
	p.WaitJS(10*time.Second, `!!document.querySelector('#my-tournaments li')`)
	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p.Do(10*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		pr := locale.New(l)
		head, role := pr.T("web.profile.run", nil), pr.T("web.profile.run_referee", nil)
		if !p.Eventually(10*time.Second, fmt.Sprintf(`(() => { const s = document.querySelector('#my-tournaments'); if (!s) return false;
			const li = s.querySelector('li[data-role="referee"]');
			return s.querySelector('h3').textContent === %q && !!li && li.querySelector('.run-link').textContent === 'Poti cup' &&
				li.textContent.includes('Poti club') && li.textContent.includes(%q); })()`, head, role)) {
			t.Errorf("in %s the own page's tournaments read %q, want %q and %q", l, webtest.Eval[string](p, `(document.querySelector('#my-tournaments') || {}).innerText || ''`), head, role)
		}
		if w := webtest.Eval[float64](p, `document.documentElement.scrollWidth`); w > 360 {
			t.Errorf("in %s the own page is %.0f px wide at 360", l, w)
		}
		p.Shot("own-tournaments-" + string(l) + "-360")
	}
	if got, want := webtest.Eval[string](p, `document.querySelector('.run-link').getAttribute('href')`), clubhttp.OrganiserURL(c.ID, tr.ID)+"?lang=ru"; got != want {
		t.Errorf("the tournament's link is %q, want %q", got, want)
	}
	// The tap loads the clubs' page (not this app's route).
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS(".run-link")))
	p.Do(15*time.Second, browsertest.WaitVisible(chromedp.CSS(`[data-t="role"][data-role="referee"]`)))

	q := webtest.NewTab(t, "other-tournaments", 360, 740)
	q.Do(15*time.Second, chromedp.Navigate(hs.URL+"/players/R01"))
	q.WaitJS(10*time.Second, `!!document.querySelector('#played')`)
	if webtest.Eval[bool](q, `!!document.querySelector('#my-tournaments')`) {
		t.Error("a reader who is not logged in sees R01's tournaments on R01's page")
	}
}
