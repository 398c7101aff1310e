package webtest

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/assist"
	"mafia/internal/browsertest"
	"mafia/internal/site"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
)

// StartRatedSite is the whole face with accounts and ratings, as mafia
// serve mounts it, and its store.
func StartRatedSite(t *testing.T) (string, *sqlite.DB) {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	// Every player is on loopback here: no bound on the seats of one address.
	srv := server.New(server.Config{Store: db, Render: Render, Pace: room.PaceInstant, Accounts: svc, SeatsPerAddress: -1})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	acct := account.NewHandler(account.HandlerConfig{Service: svc, Render: Render, Ratings: srv.PlayerRatings})
	hs := httptest.NewServer(site.Handler(srv, assist.New(assist.Config{Store: db}), site.WithAccounts(acct)))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	return hs.URL, db
}

// MakeBotAccount makes a bot account on the account page (POST
// /api/account/bots, as a player's finger does) and returns its token,
// which the page shows once.
func MakeBotAccount(p *Tab, name string) string {
	p.T.Helper()
	// Typed as a person types (input events): the page redraws when the
	// list of bots arrives, and the name typed so far stays.
	p.Do(10*time.Second, browsertest.WaitVisible(chromedp.CSS("#bot-form")), browsertest.SendKeys(chromedp.CSS("#bot-name"), name),
		browsertest.Click(chromedp.CSS("#bot-create")))
	p.WaitJS(10*time.Second, `!!document.querySelector('#bot-list li[data-bot="`+name+`"]') && !!document.querySelector('#bot-token-value')`)
	return Eval[string](p, `document.querySelector('#bot-token-value').value`)
}

// TapCentered taps the element sel once it is in the middle of the
// screen, as a finger scrolls to it first: chromedp's own scroll leaves it
// at the top edge, under the page's header, which then takes the tap.
func TapCentered(p *Tab, sel string) {
	p.T.Helper()
	p.WaitJS(10*time.Second, `(() => { const e = document.querySelector('`+sel+`'); if (e) e.scrollIntoView({ block: 'center' }); return !!e; })()`)
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS(sel)))
}
