package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/assist"
	"mafia/internal/site"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
)

// startAccountsSite is the whole face with accounts, as mafia serve mounts
// it (argon2id's parameters lowered for the test).
func startAccountsSite(t *testing.T) (string, *account.Service) {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	srv := server.New(server.Config{Store: db, Render: render, Pace: room.PaceInstant, Accounts: svc})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	acct := account.NewHandler(account.HandlerConfig{Service: svc, Render: render})
	hs := httptest.NewServer(site.Handler(srv, assist.New(assist.Config{Store: db}), site.WithAccounts(acct)))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	return hs.URL, svc
}

// playToTheEnd plays every move the page offers until the game-over screen.
func playToTheEnd(p *tab) {
	p.t.Helper()
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Fatalf("no game over:\n%s", p.text())
		}
		if eval[string](p, autoplay) == "over" {
			break
		}
	}
	p.waitJS(10*time.Second, `document.querySelectorAll('#cards li').length > 0`)
}

// startWithBots fills the table with bots and starts it.
func startWithBots(p *tab) {
	p.do(20*time.Second,
		chromedp.WaitVisible(chromedp.CSS("#add-bots")),
		chromedp.Click(chromedp.CSS("#add-bots")),
		chromedp.WaitEnabled(chromedp.CSS("#start")),
		chromedp.Click(chromedp.CSS("#start")),
		chromedp.WaitVisible(chromedp.CSS("#my-card")),
	)
}

// signUp fills the account screen's form (already open) and sends it.
func signUp(p *tab, name, password string) {
	p.do(10*time.Second, chromedp.WaitVisible(chromedp.CSS("#account-form")))
	eval[bool](p, `(() => { for (const id of ['acct-name', 'acct-password']) document.getElementById(id).value = ''; return true; })()`)
	p.do(10*time.Second,
		chromedp.SendKeys(chromedp.CSS("#acct-name"), name),
		chromedp.SendKeys(chromedp.CSS("#acct-password"), password),
		chromedp.Click(chromedp.CSS("#account-submit")),
	)
}

// TestBrowserAccount_SignUpPlayAndThePageCountsTheGame: on a phone, sign
// up from the lobby's account button, play a table with bots to the end
// (the seat is the account's, by its name), and the player's page counts
// the game and links it; then change the password and log out everywhere.
func TestBrowserAccount_SignUpPlayAndThePageCountsTheGame(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	base, svc := startAccountsSite(t)
	p := newTab(t, "account", 360, 740)
	p.do(15*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#account-link")),
		chromedp.Click(chromedp.CSS("#account-link")), chromedp.WaitVisible(chromedp.CSS("#account-form")))
	p.do(5*time.Second, chromedp.Click(chromedp.CSS("#account-switch")), chromedp.WaitVisible(chromedp.CSS("#acct-name")))
	p.shot("account-01-login-360")
	p.do(5*time.Second, chromedp.Click(chromedp.CSS("#account-switch")))
	p.shot("account-02-signup-360")
	// A short password is refused with the catalog's sentence.
	p.expect("status of 400")
	signUp(p, "Nino", "short")
	p.waitJS(10*time.Second, `!!document.querySelector('#account-error')`)
	if got := eval[string](p, `document.querySelector('#account-error').textContent`); !strings.Contains(got, "at least 8") {
		t.Errorf("a short password's refusal: %q", got)
	}
	signUp(p, "Nino", "password1")
	p.waitJS(10*time.Second, `location.pathname === '/players/Nino' && !!document.querySelector('#played')`)
	p.waitJS(5*time.Second, `document.querySelector('#account-link').classList.contains('in')`)

	table := createTable(p, base, "Guest name", 7, fastTimings)
	p.waitJS(10*time.Second, `!!document.querySelector('.seat.me [data-account]')`)
	if got := eval[string](p, `window.__mafia.state.lobby.seats[window.__mafia.state.seat - 1].name`); got != "Nino" {
		t.Errorf("the account's seat is named %q, want Nino", got)
	}
	// A bot account of another player's takes the next seat with its
	// token: the page marks it a bot's.
	owner, _, err := svc.Signup(context.Background(), "Gela", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	_, botToken, err := svc.CreateBot(context.Background(), owner, "Robo")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", base+"/api/tables/"+table+"/join", strings.NewReader(`{"name":"x"}`))
	req.Header.Set("Authorization", "Bearer "+botToken)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("the bot account's join: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	p.waitJS(10*time.Second, `!!document.querySelector('.seat [data-bot-account]')`)
	if got := eval[string](p, `document.querySelector('.seat [data-bot-account]').closest('.seat').innerText`); !strings.Contains(got, "Robo") {
		t.Errorf("the bot account's seat reads %q", got)
	}
	p.shot("account-03a-bot-account-seat-360")
	startWithBots(p)
	playToTheEnd(p)
	if n := eval[int](p, `document.querySelectorAll('#keep-game').length`); n != 0 {
		t.Error("a logged-in player is offered to sign up to keep the game")
	}
	p.do(10*time.Second, chromedp.Click(chromedp.CSS("#account-link")))
	p.waitJS(10*time.Second, `!!document.querySelector('#recent li[data-table="`+table+`"]')`)
	if got := eval[string](p, `document.querySelector('#played').textContent`); !strings.HasPrefix(got, "1 game played") {
		t.Errorf("the page says %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#by-side tbody tr').length + document.querySelectorAll('#by-role tbody tr').length`); n != 2 {
		t.Errorf("%d rows of tallies, want one side and one card", n)
	}
	p.shot("account-03-profile-360")
	p.do(10*time.Second, chromedp.Click(chromedp.CSS(`#recent li[data-table="`+table+`"] a`)))
	p.waitJS(10*time.Second, `location.pathname === '/t/`+table+`/review'`)

	// The settings: change the password, then log out everywhere.
	p.do(10*time.Second, chromedp.Navigate(base+"/account"), chromedp.WaitVisible(chromedp.CSS("#password-form")),
		chromedp.SendKeys(chromedp.CSS("#old-password"), "password1"), chromedp.SendKeys(chromedp.CSS("#new-password"), "password2"),
		chromedp.Click(chromedp.CSS("#password-submit")), chromedp.WaitVisible(chromedp.CSS("#account-done")))
	p.shot("account-04-settings-360")
	// A bot of one's own: its token is shown once, and it joins as the bot.
	p.do(10*time.Second, chromedp.SendKeys(chromedp.CSS("#bot-name"), "Nino_bot"), chromedp.Click(chromedp.CSS("#bot-create")),
		chromedp.WaitVisible(chromedp.CSS("#bot-token-value")))
	p.waitJS(5*time.Second, `!!document.querySelector('#bot-list li[data-bot="Nino_bot"]')`)
	tok := eval[string](p, `document.querySelector('#bot-token-value').value`)
	if bot, err := svc.Authenticate(context.Background(), tok); err != nil || !bot.Bot() || bot.Account.Name != "Nino_bot" {
		t.Errorf("the token shown: %+v, %v", bot, err)
	}
	p.shot("account-04a-bots-360")
	p.do(10*time.Second, chromedp.Click(chromedp.CSS("#logout-all")), chromedp.WaitVisible(chromedp.CSS("#account-form")))
	p.waitJS(5*time.Second, `!document.querySelector('#account-link').classList.contains('in')`)
	p.do(10*time.Second, chromedp.Navigate(base+"/account"), chromedp.WaitVisible(chromedp.CSS("#account-form")))
	// Log in again, with the new password: the page still counts the game.
	// (After logging out the page opens on Log in: issue 28, defect 9.)
	signUp(p, "nino", "password2")
	p.waitJS(10*time.Second, `location.pathname === '/players/Nino' && !!document.querySelector('#recent li[data-table="`+table+`"]')`)
}

// TestBrowserAccount_AGuestKeepsTheGameOnSignUp: a guest plays to the end,
// taps "sign up to keep this game", signs up, and the game is on the new
// account's page.
func TestBrowserAccount_AGuestKeepsTheGameOnSignUp(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	base, _ := startAccountsSite(t)
	p := newTab(t, "guest", 360, 740)
	table := createTable(p, base, "Gela", 7, fastTimings)
	startWithBots(p)
	playToTheEnd(p)
	p.do(10*time.Second, chromedp.WaitVisible(chromedp.CSS("#keep-game")))
	p.shot("account-05-keep-offer-360")
	p.do(10*time.Second, chromedp.Click(chromedp.CSS("#keep-game")), chromedp.WaitVisible(chromedp.CSS("#keep-note")))
	signUp(p, "Gela", "password1")
	p.waitJS(10*time.Second, `location.pathname === '/players/Gela'`)
	p.waitJS(10*time.Second, `!!document.querySelector('#recent li[data-table="`+table+`"]')`)
	p.shot("account-06-kept-360")
}

// TestBrowserAccount_AGuestKeepsTheGameByLoggingIn: the same from an
// account made before: "sign up to keep this game", then log in instead.
func TestBrowserAccount_AGuestKeepsTheGameByLoggingIn(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	base, svc := startAccountsSite(t)
	if _, _, err := svc.Signup(context.Background(), "Tamar", "password1", ""); err != nil {
		t.Fatal(err)
	}
	p := newTab(t, "returning", 360, 740)
	table := createTable(p, base, "Tamar", 7, fastTimings)
	startWithBots(p)
	playToTheEnd(p)
	p.do(10*time.Second, chromedp.WaitVisible(chromedp.CSS("#keep-game")), chromedp.Click(chromedp.CSS("#keep-game")),
		chromedp.WaitVisible(chromedp.CSS("#keep-note")), chromedp.Click(chromedp.CSS("#account-switch")))
	signUp(p, "tamar", "password1")
	p.waitJS(10*time.Second, `location.pathname === '/players/Tamar'`)
	p.waitJS(10*time.Second, `!!document.querySelector('#recent li[data-table="`+table+`"]')`)
}
