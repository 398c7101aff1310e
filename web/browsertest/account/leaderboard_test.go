package account

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/assist"
	"mafia/internal/browsertest"
	"mafia/internal/site"
	"mafia/rating"
	"mafia/room"
	"mafia/server"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/web/internal/webtest"
)

// TestBrowserLeaderboard_FromTheLobbyOnAPhone: with a rated game in the
// store (rated by the store's RateGame, as the server does at a rated
// table's end), the lobby's link opens the leaderboard at 360x740: the
// winners above the losers, a side's board on a tap, a name linking to the
// player's page, which shows their ratings.
func TestBrowserLeaderboard_FromTheLobbyOnAPhone(t *testing.T) {
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
	}
	if _, err := db.RateGame(ctx, store.RatedGame{Game: "g1", At: time.Now(), Seats: seats, Result: rating.Result{Winner: rating.Mafia}}); err != nil {
		t.Fatal(err)
	}

	p := webtest.NewTab(t, "leaderboard", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(hs.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#to-ratings")),
		browsertest.Click(chromedp.CSS("#to-ratings")))
	p.WaitJS(10*time.Second, `location.pathname === '/ratings' && document.querySelectorAll('#board tbody tr').length === 7`)
	if got := webtest.Eval[string](p, `[...document.querySelectorAll('#board tbody tr')].slice(0, 2).map((r) => r.dataset.player).sort().join(',')`); got != "Gio,Nino" {
		t.Errorf("the top two: %q, want the mafia's winners Gio and Nino", got)
	}
	if w := webtest.Eval[int](p, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the board is %d px wide on a 360 px phone", w)
	}
	p.Shot("leaderboard-01-overall-360")
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS(`#board-kinds [data-kind="mafia"]`)))
	p.WaitJS(10*time.Second, `location.search.includes('kind=mafia') && document.querySelectorAll('#board tbody tr').length === 2`)
	p.Shot("leaderboard-02-mafia-360")
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS(`#board tbody tr[data-player="Nino"] a`)))
	p.WaitJS(10*time.Second, `location.pathname === '/players/Nino' && document.querySelectorAll('#ratings-table tbody tr').length === 2`)
	if got := webtest.Eval[string](p, `[...document.querySelectorAll('#ratings-table tbody tr')].map((r) => r.dataset.kind).join(',')`); got != "overall,mafia" {
		t.Errorf("Nino's ratings: %q", got)
	}
	p.Shot("leaderboard-03-profile-360")
}
