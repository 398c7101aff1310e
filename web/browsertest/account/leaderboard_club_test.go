package account

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/assist"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/internal/site"
	"mafia/rating"
	"mafia/room"
	"mafia/server"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/web/internal/webtest"
)

// TestBrowserLeaderboard_AClubsMembersAlone: a viewer logged in who belongs
// to a club picks it on the leaderboard, which then lists the club's
// members alone, ranked among themselves; the viewer's page names the club
// with their role, linking to its board.
func TestBrowserLeaderboard_AClubsMembersAlone(t *testing.T) {
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
	clubs := clubhttp.New(clubhttp.Config{Store: db, Games: assist.ClubGames(db, nil), Accounts: svc, Files: assist.Version()})
	host := assist.New(assist.Config{Store: db, Accounts: svc, Clubs: clubs})
	acct := account.NewHandler(account.HandlerConfig{Service: svc, Render: webtest.Render, Ratings: srv.PlayerRatings, Clubs: clubs.PlayerClubs})
	hs := httptest.NewServer(site.Handler(srv, host, site.WithAccounts(acct), site.WithClubs(clubs)))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	ctx := context.Background()
	if err := db.CreateClub(ctx, store.Club{ID: "c1", Name: "Tbilisi club", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var seats []rating.Seat
	for i, n := range []string{"Nino", "Gio", "Lasha", "Tamar", "Eka", "Dato", "Keti"} {
		a, _, err := svc.Signup(ctx, n, "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		side := rating.Town
		if i < 2 {
			side = rating.Mafia
		}
		seats = append(seats, rating.Seat{Player: strconv.FormatInt(a.Account.ID, 10), Side: side})
		role := map[string]store.ClubRole{"Nino": store.ClubOwner, "Lasha": store.ClubMember, "Eka": store.ClubHost}[n]
		if role != "" {
			if err := db.SetMember(ctx, store.ClubMembership{Club: "c1", Account: a.Account.ID, Role: role, Added: time.Now()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := db.RateGame(ctx, store.RatedGame{Game: "g1", At: time.Now(), Seats: seats, Result: rating.Result{Winner: rating.Mafia}}); err != nil {
		t.Fatal(err)
	}

	p := webtest.NewTab(t, "leaderboard-club", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(hs.URL+"/"))
	p.WaitJS(10*time.Second, `!!document.querySelector('#to-ratings')`)
	webtest.Eval[bool](p, `(() => { fetch('/api/account/login', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({name: 'Lasha', password: 'password1'})}).then((r) => { window.__login = r.ok; }); return true; })()`)
	p.WaitJS(10*time.Second, `window.__login === true`)
	p.Do(15*time.Second, chromedp.Navigate(hs.URL+"/ratings"))
	p.WaitJS(10*time.Second, `document.querySelectorAll('#board tbody tr').length === 7 && !!document.querySelector('#board-club option[value="c1"]')`)
	webtest.Eval[bool](p, `(() => { const s = document.getElementById('board-club'); s.value = 'c1'; s.dispatchEvent(new Event('change')); return true; })()`)
	p.WaitJS(10*time.Second, `location.search.includes('club=c1') && document.querySelectorAll('#board tbody tr').length === 3`)
	rows := webtest.Eval[string](p, `[...document.querySelectorAll('#board tbody tr')].map((r) => r.cells[0].textContent + ' ' + r.dataset.player).join(',')`)
	if rows != "1 Nino,2 Lasha,3 Eka" && rows != "1 Nino,2 Eka,3 Lasha" {
		t.Errorf("the club's board: %q; want Nino (the mafia's winner) first, then Lasha and Eka, ranked 1 to 3", rows)
	}
	if w := webtest.Eval[int](p, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the board is %d px wide on a 360 px phone", w)
	}
	p.Shot("leaderboard-club-01")
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS(`#board tbody tr[data-player="Eka"] a`)))
	p.WaitJS(10*time.Second, `location.pathname === '/players/Eka' && !!document.querySelector('#clubs a[data-club="c1"]')`)
	if got := webtest.Eval[string](p, `document.getElementById('clubs').textContent`); got == "" || !strings.Contains(got, "Tbilisi club") {
		t.Errorf("Eka's clubs: %q", got)
	}
	p.Shot("leaderboard-club-02-profile")
}
