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

// StartAccountsSite is the whole face with accounts, as mafia serve mounts
// it (argon2id's parameters lowered for the test).
func StartAccountsSite(t *testing.T) (string, *account.Service) {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	srv := server.New(server.Config{Store: db, Render: Render, Pace: room.PaceInstant, Accounts: svc})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	acct := account.NewHandler(account.HandlerConfig{Service: svc, Render: Render})
	hs := httptest.NewServer(site.Handler(srv, assist.New(assist.Config{Store: db}), site.WithAccounts(acct)))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	return hs.URL, svc
}

// PlayToTheEnd plays every move the page offers until the game-over screen:
// Autoplay every 50 ms, run by the page's own poll (WaitJS), not by a
// DevTools round trip from the test each time (the test binary, the
// browser process and the page all busy 20 times a second for a game).
func PlayToTheEnd(p *Tab) {
	p.T.Helper()
	p.WaitJS(25*time.Second, `(`+Autoplay+`) === 'over'`)
	p.WaitJS(10*time.Second, `document.querySelectorAll('#cards li').length > 0`)
}

// StartWithBots fills the table with bots and starts it.
func StartWithBots(p *Tab) {
	p.Do(20*time.Second,
		browsertest.WaitVisible(chromedp.CSS("#add-bots")),
		browsertest.Click(chromedp.CSS("#add-bots")),
		browsertest.WaitEnabled(chromedp.CSS("#start")),
		browsertest.Click(chromedp.CSS("#start")),
		browsertest.WaitVisible(chromedp.CSS("#my-card")),
	)
}

// StartAutoplay makes the page play every move it offers, Autoplay every
// 50 ms by a timer of its own, until it is closed or leaves: for a test
// that waits on several pages playing at once (PlayToTheEnd waits on one).
func StartAutoplay(p *Tab) {
	p.T.Helper()
	Eval[bool](p, `(setInterval(() => `+Autoplay+`, 50), true)`)
}

// SignUp fills the account screen's form (already open) and sends it.
func SignUp(p *Tab, name, password string) {
	p.Do(10*time.Second, browsertest.WaitVisible(chromedp.CSS("#account-form")))
	Eval[bool](p, `(() => { for (const id of ['acct-name', 'acct-password']) document.getElementById(id).value = ''; return true; })()`)
	p.Do(10*time.Second,
		browsertest.SendKeys(chromedp.CSS("#acct-name"), name),
		browsertest.SendKeys(chromedp.CSS("#acct-password"), password),
		browsertest.Click(chromedp.CSS("#account-submit")),
	)
}
