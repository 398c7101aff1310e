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
//
// It returns once the game-over screen has settled, as a person would have
// it before tapping on it: every card shown, no move of the player's still
// unanswered, and no alert above the screen. Autoplay's last moves are
// often too late (a bot at instant pace closed the step first): the page
// says so in an alert above the game-over section, which goes by itself
// 8 s later and takes the section up by its height (116 px at 360 px
// wide); a click whose box was taken before it went and whose press came
// after would land that far below its element (issue 26, item 3). The
// alert is closed with its ×, as a person closes it.
func PlayToTheEnd(p *Tab) {
	p.T.Helper()
	p.WaitJS(25*time.Second, `(`+Autoplay+`) === 'over'`)
	p.WaitJS(10*time.Second, `document.querySelectorAll('#cards li').length > 0`)
	p.WaitJS(10*time.Second, CloseAlert)
}

// CloseAlert, polled in a table's page, waits until no move of its own is
// unanswered (busy without waitView: a request in flight, whose refusal
// would come as an alert), then closes the alert shown, if any, with its ×
// (a click in the page: no box to miss); it is true once no alert is shown.
const CloseAlert = `(() => {
  const st = window.__mafia && window.__mafia.state;
  if (!st || (st.busy && !st.waitView)) return false;
  const x = document.querySelector('#t-alert:not([hidden]) button');
  if (x) x.click();
  const alert = document.querySelector('#t-alert');
  return !alert || alert.hidden;
})()`

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
