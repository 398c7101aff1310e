package account

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/web/internal/webtest"
)

// TestBrowserAccount_SignUpPlayAndThePageCountsTheGame: on a phone, sign
// up from the lobby's account button, play a table with bots to the end
// (the seat is the account's, by its name), and the player's page counts
// the game and links it; then change the password and log out everywhere.
func TestBrowserAccount_SignUpPlayAndThePageCountsTheGame(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, svc := webtest.StartAccountsSite(t)
	p := webtest.NewTab(t, "account", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(base+"/"), browsertest.WaitVisible(chromedp.CSS("#account-link")),
		browsertest.Click(chromedp.CSS("#account-link")), browsertest.WaitVisible(chromedp.CSS("#account-form")))
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#account-switch")), browsertest.WaitVisible(chromedp.CSS("#acct-name")))
	p.Shot("account-01-login-360")
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#account-switch")))
	p.Shot("account-02-signup-360")
	// A short password is refused with the catalog's sentence.
	p.Expect("status of 400")
	webtest.SignUp(p, "Nino", "short")
	p.WaitJS(10*time.Second, `!!document.querySelector('#account-error')`)
	if got := webtest.Eval[string](p, `document.querySelector('#account-error').textContent`); !strings.Contains(got, "at least 8") {
		t.Errorf("a short password's refusal: %q", got)
	}
	webtest.SignUp(p, "Nino", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/Nino' && !!document.querySelector('#played')`)
	p.WaitJS(5*time.Second, `document.querySelector('#account-link').classList.contains('in')`)

	// The bots at instant pace: the page is tested, not the bots' time (at a
	// person's pace the game took some 40 s of the page polled and drawn).
	table := webtest.CreateTableWith(p, base, "Guest name", 7, webtest.FastTimings, "instant", nil)
	p.WaitJS(10*time.Second, `!!document.querySelector('.seat.me [data-account]')`)
	if got := webtest.Eval[string](p, `window.__mafia.state.lobby.seats[window.__mafia.state.seat - 1].name`); got != "Nino" {
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
	p.WaitJS(10*time.Second, `!!document.querySelector('.seat [data-bot-account]')`)
	if got := webtest.Eval[string](p, `document.querySelector('.seat [data-bot-account]').closest('.seat').innerText`); !strings.Contains(got, "Robo") {
		t.Errorf("the bot account's seat reads %q", got)
	}
	p.Shot("account-03a-bot-account-seat-360")
	webtest.StartWithBots(p)
	webtest.PlayToTheEnd(p)
	if n := webtest.Eval[int](p, `document.querySelectorAll('#keep-game').length`); n != 0 {
		t.Error("a logged-in player is offered to sign up to keep the game")
	}
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS("#account-link")))
	p.WaitJS(10*time.Second, `!!document.querySelector('#recent li[data-table="`+table+`"]')`)
	if got := webtest.Eval[string](p, `document.querySelector('#played').textContent`); !strings.HasPrefix(got, "1 game played") {
		t.Errorf("the page says %q", got)
	}
	if n := webtest.Eval[int](p, `document.querySelectorAll('#by-side tbody tr').length + document.querySelectorAll('#by-role tbody tr').length`); n != 2 {
		t.Errorf("%d rows of tallies, want one side and one card", n)
	}
	p.Shot("account-03-profile-360")
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS(`#recent li[data-table="`+table+`"] a`)))
	p.WaitJS(10*time.Second, `location.pathname === '/t/`+table+`/review'`)

	// The settings: change the password, then log out everywhere.
	p.Do(10*time.Second, chromedp.Navigate(base+"/account"), browsertest.WaitVisible(chromedp.CSS("#password-form")),
		browsertest.SendKeys(chromedp.CSS("#old-password"), "password1"), browsertest.SendKeys(chromedp.CSS("#new-password"), "password2"),
		browsertest.Click(chromedp.CSS("#password-submit")), browsertest.WaitVisible(chromedp.CSS("#account-done")))
	p.Shot("account-04-settings-360")
	// A bot of one's own: its token is shown once, and it joins as the bot.
	p.Do(10*time.Second, browsertest.SendKeys(chromedp.CSS("#bot-name"), "Nino_bot"), browsertest.Click(chromedp.CSS("#bot-create")),
		browsertest.WaitVisible(chromedp.CSS("#bot-token-value")))
	p.WaitJS(5*time.Second, `!!document.querySelector('#bot-list li[data-bot="Nino_bot"]')`)
	tok := webtest.Eval[string](p, `document.querySelector('#bot-token-value').value`)
	if bot, err := svc.Authenticate(context.Background(), tok); err != nil || !bot.Bot() || bot.Account.Name != "Nino_bot" {
		t.Errorf("the token shown: %+v, %v", bot, err)
	}
	p.Shot("account-04a-bots-360")
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS("#logout-all")), browsertest.WaitVisible(chromedp.CSS("#account-form")))
	p.WaitJS(5*time.Second, `!document.querySelector('#account-link').classList.contains('in')`)
	p.Do(10*time.Second, chromedp.Navigate(base+"/account"), browsertest.WaitVisible(chromedp.CSS("#account-form")))
	// Log in again, with the new password: the page still counts the game.
	// (After logging out the page opens on Log in: issue 28, defect 9.)
	webtest.SignUp(p, "nino", "password2")
	p.WaitJS(10*time.Second, `location.pathname === '/players/Nino' && !!document.querySelector('#recent li[data-table="`+table+`"]')`)
}

// TestBrowserAccount_AGuestKeepsTheGameOnSignUp: a guest plays to the end,
// taps "sign up to keep this game", signs up, and the game is on the new
// account's page.
func TestBrowserAccount_AGuestKeepsTheGameOnSignUp(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, _ := webtest.StartAccountsSite(t)
	p := webtest.NewTab(t, "guest", 360, 740)
	// The bots at instant pace: the page is tested, not the bots' time (at a
	// person's pace the game took some 40 s of the page polled and drawn).
	table := webtest.CreateTableWith(p, base, "Gela", 7, webtest.FastTimings, "instant", nil)
	webtest.StartWithBots(p)
	webtest.PlayToTheEnd(p)
	p.Do(10*time.Second, browsertest.WaitVisible(chromedp.CSS("#keep-game")))
	p.Shot("account-05-keep-offer-360")
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS("#keep-game")), browsertest.WaitVisible(chromedp.CSS("#keep-note")))
	webtest.SignUp(p, "Gela", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/Gela'`)
	p.WaitJS(10*time.Second, `!!document.querySelector('#recent li[data-table="`+table+`"]')`)
	p.Shot("account-06-kept-360")
}

// TestBrowserAccount_AGuestKeepsTheGameByLoggingIn: the same from an
// account made before: "sign up to keep this game", then log in instead.
func TestBrowserAccount_AGuestKeepsTheGameByLoggingIn(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, svc := webtest.StartAccountsSite(t)
	if _, _, err := svc.Signup(context.Background(), "Tamar", "password1", ""); err != nil {
		t.Fatal(err)
	}
	p := webtest.NewTab(t, "returning", 360, 740)
	// The bots at instant pace: the page is tested, not the bots' time (at a
	// person's pace the game took some 40 s of the page polled and drawn).
	table := webtest.CreateTableWith(p, base, "Tamar", 7, webtest.FastTimings, "instant", nil)
	webtest.StartWithBots(p)
	webtest.PlayToTheEnd(p)
	p.Do(10*time.Second, browsertest.WaitVisible(chromedp.CSS("#keep-game")), browsertest.Click(chromedp.CSS("#keep-game")),
		browsertest.WaitVisible(chromedp.CSS("#keep-note")), browsertest.Click(chromedp.CSS("#account-switch")))
	webtest.SignUp(p, "tamar", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/Tamar'`)
	p.WaitJS(10*time.Second, `!!document.querySelector('#recent li[data-table="`+table+`"]')`)
}

// TestBrowserAccount_AClickOnTheKeepLinkOutlivesARedraw: the game-over
// screen is drawn again with every message after the end (the bots' last
// chat lines, the whole record arriving). A mouse's press on "Sign up to
// keep this game", a chat line arriving and drawn, then the release: the
// account screen opens (issue 26: the link, a node with listeners, was a
// new node after every draw; the press was on the old one, the release
// on the new, and the browser clicked neither).
func TestBrowserAccount_AClickOnTheKeepLinkOutlivesARedraw(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, _ := webtest.StartAccountsSite(t)
	p := webtest.NewTab(t, "redrawn", 360, 740)
	webtest.CreateTableWith(p, base, "Lasha", 7, webtest.FastTimings, "instant", nil)
	webtest.StartWithBots(p)
	webtest.PlayToTheEnd(p)
	p.Do(10*time.Second, browsertest.WaitVisible(chromedp.CSS("#keep-game")))
	at := webtest.Eval[[]float64](p, `(() => {
		const r = document.querySelector('#keep-game').getBoundingClientRect();
		window.__overLinks = ['#keep-game', '#play-again', '#open-review'].map((sel) => document.querySelector(sel));
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`)
	mouse := func(typ input.DispatchMouseEventType) chromedp.Action[chromedp.Void] {
		return chromedp.MouseEvent(typ, at[0], at[1], chromedp.ButtonLeft, chromedp.ClickCount(1))
	}
	p.Do(10*time.Second, mouse(chromedp.MousePressed))
	if !webtest.Eval[bool](p, `window.__mafia.send({ type: 'chat', channel: 'town', text: 'one more?' })`) {
		t.Fatal("the chat line after the end was refused")
	}
	p.WaitJS(10*time.Second, `[...document.querySelectorAll('#chat-msgs li')].some((li) => li.textContent.includes('one more?'))`)
	if got := webtest.Eval[string](p, `['#keep-game', '#play-again', '#open-review'].filter((sel, i) => document.querySelector(sel) !== window.__overLinks[i]).join(' ')`); got != "" {
		t.Errorf("the game-over screen drawn again made new nodes of %s", got)
	}
	p.Do(10*time.Second, mouse(chromedp.MouseReleased))
	p.WaitJS(10*time.Second, `location.pathname === '/account' && !!document.querySelector('#keep-note')`)
}
