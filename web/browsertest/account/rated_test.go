package account

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/client"
	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/rating"
	"mafia/rng"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/web/internal/webtest"
	"mafia/wire"
)

// playSeat plays one seat over its WebSocket until the end: a legal move
// at random whenever its view offers one (one at a time, each answered
// before the next), else the end of its speech.
func playSeat(ctx context.Context, c *client.Conn, seed uint64) error {
	src := rng.New(seed)
	waiting := int64(0)
	fresh := c.View != nil
	act := func() error {
		v := c.View
		if waiting != 0 || !fresh || v == nil || v.Phase == "ended" {
			return nil
		}
		fresh = false
		m, ok := client.RandomMove(v, &src)
		if !ok && v.Legal.Pass {
			m, ok = wire.ClientMessage{Type: "command", Verb: "pass", Step: v.Step}, true
		}
		if !ok {
			return nil
		}
		id, err := c.Send(ctx, m)
		waiting = id
		return err
	}
	for {
		if err := act(); err != nil {
			return err
		}
		m, err := c.Read(ctx)
		if err != nil {
			return err
		}
		if (m.Type == "reply" || m.Type == "error") && m.ID == waiting {
			waiting = 0
		}
		fresh = fresh || m.View != nil
		if c.View != nil && c.View.Phase == "ended" {
			return nil
		}
	}
}

// ratedUpdates is what rating.Game computes for the stored game of table:
// each seat's account id and its updates, by kind.
func ratedUpdates(t *testing.T, db *sqlite.DB, table string) map[string]map[rating.Kind]rating.Update {
	t.Helper()
	ctx := context.Background()
	_, seats, err := db.Table(ctx, store.KindOnline, table)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(seats))
	for _, s := range seats {
		ids[s.Seat-1] = strconv.FormatInt(s.Account, 10)
	}
	log, err := db.Events(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	rs, res, err := rating.FromLog(log, ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	us, err := rating.Game(rating.ForMafia(), rs, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[rating.Kind]rating.Update{}
	for _, u := range us {
		if out[u.Player] == nil {
			out[u.Player] = map[rating.Kind]rating.Update{}
		}
		out[u.Player][u.Kind] = u
	}
	return out
}

// near says whether the page's number (a data attribute, as JavaScript
// writes a float) is the float want.
func near(got string, want float64) bool {
	g, err := strconv.ParseFloat(got, 64)
	return err == nil && math.Abs(g-want) < 1e-9
}

// TestBrowserRated_AGuestSignsUpInPlaceAndTheRatingsShowEverywhere: on a
// phone, a player signs up, makes five bot accounts on the account page,
// and creates a rated 7-seat table (the form says who fills its seats; the
// table offers its host no server bots); the bot accounts take five seats
// over the API with their tokens. A guest in another tab finds the table
// in the lobby, marked rated and why they cannot sit; at the table the
// seat offers "sign up to sit here", the form opens in place, and the seat
// is taken at once. The two people in the browser and the five bot
// accounts on their WebSockets play to the end: each game-over screen
// shows its player's rating change, the leaderboard lists every player
// and the player's page the rating and the game, linking to its review;
// every number is rating.Game's for the stored result.
func TestBrowserRated_AGuestSignsUpInPlaceAndTheRatingsShowEverywhere(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	base, db := webtest.StartRatedSite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	// A guest may not make a rated table: the box says to log in first.
	p := webtest.NewTab(t, "rated-host", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(base+"/"), browsertest.WaitVisible(chromedp.CSS("#rated-login-link")))
	if !webtest.Eval[bool](p, `document.querySelector('#rated').disabled`) {
		t.Error("a guest may tick the rated box")
	}
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS("#account-link")), browsertest.WaitVisible(chromedp.CSS("#account-form")))
	webtest.SignUp(p, "Nino", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/Nino'`)
	p.Do(10*time.Second, chromedp.Navigate(base+"/account"))
	var tokens []string
	for i := 1; i <= 5; i++ {
		tokens = append(tokens, webtest.MakeBotAccount(p, "Robo"+strconv.Itoa(i)))
	}

	// The rated table, from the lobby's form.
	p.Do(15*time.Second, chromedp.Navigate(base+"/"), browsertest.WaitVisible(chromedp.CSS("#create")))
	p.WaitJS(10*time.Second, `!document.querySelector('#rated').disabled`)
	p.Do(10*time.Second,
		browsertest.SetValue(chromedp.CSS("#your-name"), "Nino"),
		browsertest.SetValue(chromedp.CSS("#create-name"), "Rated"),
		browsertest.SetValue(chromedp.CSS("#players"), "7"))
	for k, v := range webtest.FastTimings {
		p.Do(5*time.Second, browsertest.SetValue(chromedp.CSS("#time-"+k), v))
	}
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS("#rated")), browsertest.WaitVisible(chromedp.CSS("#rated-hint")))
	p.Shot("rated-01-create-360")
	p.Do(15*time.Second, browsertest.Click(chromedp.CSS("#create")), browsertest.WaitVisible(chromedp.CSS("#seated")))
	table := p.TableOf()
	p.WaitJS(10*time.Second, `!!document.querySelector('#rated-host') && !document.querySelector('#add-bots')`)

	// The bot accounts sit with their tokens.
	api := &client.API{Base: base}
	var conns []*client.Conn
	for _, tok := range tokens {
		j, err := api.Join(ctx, table, "ignored", 0, tok)
		if err != nil {
			t.Fatalf("a bot account's join: %v", err)
		}
		c, err := api.Dial(ctx, table, j.Token, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	// Each bot account reads its socket from now on, as a bot program does
	// (a socket nobody reads answers no ping, and the server closes it):
	// it moves once its seat's view offers a move.
	errs := make(chan error, len(conns))
	for i, c := range conns {
		go func() { errs <- playSeat(ctx, c, uint64(i+1)) }()
	}
	p.WaitJS(10*time.Second, `document.querySelectorAll('.seat [data-bot-account]').length === 5`)
	p.Shot("rated-02-host-360")

	// A guest finds it in the lobby: marked, and told why they cannot sit.
	g := webtest.NewTab(t, "rated-guest", 360, 740)
	g.Do(15*time.Second, chromedp.Navigate(base+"/"), browsertest.WaitVisible(chromedp.CSS(`#tables li[data-table="`+table+`"] .badge.rated`)),
		browsertest.WaitVisible(chromedp.CSS("#rated-lobby-guest")))
	if got := webtest.Eval[string](g, `document.querySelector('#tables li[data-table="`+table+`"] .status').textContent`); got != "log in to sit" {
		t.Errorf("the rated table's row tells a guest %q", got)
	}
	g.Shot("rated-03-lobby-guest-360")
	g.Do(10*time.Second, browsertest.Click(chromedp.CSS(`#tables li[data-table="`+table+`"] a`)), browsertest.WaitVisible(chromedp.CSS("#rated-signup")))
	if n := webtest.Eval[int](g, `document.querySelectorAll('#join, #join-name').length`); n != 0 {
		t.Error("a guest at a rated table is offered the guest's seat")
	}
	g.Shot("rated-04-table-guest-360")
	// In Georgian too, the reason and the two ways in fit the phone.
	ka := locale.New(locale.Ka)
	g.Do(10*time.Second, webtest.TapSetting(`button[data-lang="ka"]`))
	g.WaitJS(10*time.Second, fmt.Sprintf(`document.querySelector('#rated-guest').textContent === %q && document.querySelector('#rated-signup').textContent === %q`,
		ka.T("web.rated_seat.guest_note", nil), ka.T("web.rated_seat.signup", nil)))
	g.Shot("rated-04a-table-guest-ka-360")
	g.Do(10*time.Second, webtest.TapSetting(`button[data-lang="en"]`))
	g.WaitJS(10*time.Second, `document.querySelector('#rated-signup').textContent === 'Sign up to sit here'`)
	// The switch of language reconnects the page (for the server's words in
	// it): the tap waits until that is done, so that no banner of the
	// reconnect moves the button under the finger, and is made with the
	// button in the middle of the screen, not under the header (CI once
	// tapped beside it, and the form never opened).
	g.WaitJS(15*time.Second, `window.__mafia.state.conn === 'open'`)
	// "Log in" with no account yet: refused in place; then "sign up".
	g.Expect("status of 403")
	webtest.TapCentered(g, "#rated-login")
	g.Do(10*time.Second, browsertest.WaitVisible(chromedp.CSS("#rated-form")))
	webtest.Eval[bool](g, `(() => { document.getElementById('rated-name').value = ''; return true; })()`)
	g.Do(10*time.Second, browsertest.SendKeys(chromedp.CSS("#rated-name"), "Tamar"),
		browsertest.SendKeys(chromedp.CSS("#rated-password"), "password1"), browsertest.Click(chromedp.CSS("#rated-submit")),
		browsertest.WaitVisible(chromedp.CSS("#rated-error")))
	g.Do(10*time.Second, browsertest.Click(chromedp.CSS("#rated-switch")))
	g.WaitJS(5*time.Second, `document.querySelector('#rated-submit').textContent === 'Sign up' && document.querySelector('#rated-error').hidden`)
	webtest.Eval[bool](g, `(() => { document.getElementById('rated-password').value = ''; return true; })()`)
	g.Do(10*time.Second, browsertest.SendKeys(chromedp.CSS("#rated-password"), "password1"))
	g.Shot("rated-05-signup-in-place-360")
	g.Do(10*time.Second, browsertest.Click(chromedp.CSS("#rated-submit")))
	g.WaitJS(15*time.Second, `location.pathname === '/t/`+table+`' && !!document.querySelector('#seated') && !!document.querySelector('.seat.me [data-account]')`)
	// Logged in, the seat is one tap: leave it and take it again.
	webtest.TapCentered(g, `[data-key="leave"]`)
	g.Do(10*time.Second, browsertest.WaitVisible(chromedp.CSS("#rated-sit")))
	if got := webtest.Eval[string](g, `document.querySelector('#rated-sit').textContent`); got != "Sit here as Tamar" {
		t.Errorf("the logged-in player's seat button: %q", got)
	}
	webtest.TapCentered(g, "#rated-sit")
	g.Do(10*time.Second, browsertest.WaitVisible(chromedp.CSS("#seated")))
	if got := webtest.Eval[string](g, `window.__mafia.state.lobby.seats[window.__mafia.state.seat - 1].name`); got != "Tamar" {
		t.Errorf("the guest's seat is named %q, want Tamar", got)
	}

	// The game: the bots on their sockets (reading since they sat), the
	// people in their pages.
	p.Do(15*time.Second, browsertest.WaitEnabled(chromedp.CSS("#start")), browsertest.Click(chromedp.CSS("#start")),
		browsertest.WaitVisible(chromedp.CSS("#my-card")))
	// Both pages play every move they offer, each by its own timer (not a
	// DevTools round trip from the test 40 times a second), to the end.
	webtest.StartAutoplay(p)
	webtest.StartAutoplay(g)
	for _, tb := range []*webtest.Tab{p, g} {
		tb.WaitJS(40*time.Second, `!!document.querySelector('#winner')`)
	}
	for range conns {
		if err := <-errs; err != nil {
			t.Fatalf("a bot account's seat: %v", err)
		}
	}

	// Each game-over screen shows its player's change, rating.Game's.
	want := ratedUpdates(t, db, table)
	idOf := func(name string) string {
		a, err := db.AccountByKey(ctx, account.Key(name))
		if err != nil {
			t.Fatal(err)
		}
		return strconv.FormatInt(a.ID, 10)
	}
	for _, c := range []struct {
		tab  *webtest.Tab
		name string
	}{{p, "Nino"}, {g, "Tamar"}} {
		u, ok := want[idOf(c.name)][rating.Overall]
		if !ok {
			t.Fatalf("%s has no overall update", c.name)
		}
		c.tab.WaitJS(30*time.Second, `!!document.querySelector('#rating-overall')`)
		el := `document.querySelector('#rating-overall')`
		if got := webtest.Eval[string](c.tab, el+`.dataset.after`); !near(got, u.After.Ordinal()) {
			t.Errorf("%s's page: rating after %s, want %v", c.name, got, u.After.Ordinal())
		}
		if got := webtest.Eval[string](c.tab, el+`.dataset.before`); !near(got, u.Before.Ordinal()) {
			t.Errorf("%s's page: rating before %s, want %v", c.name, got, u.Before.Ordinal())
		}
		if got := webtest.Eval[string](c.tab, el+`.dataset.mu`); !near(got, u.After.Mu) {
			t.Errorf("%s's page: mu %s, want %v", c.name, got, u.After.Mu)
		}
		text := webtest.Eval[string](c.tab, el+`.textContent`)
		if w := fmt.Sprintf("%.1f → %.1f", u.Before.Ordinal(), u.After.Ordinal()); !strings.Contains(strings.ReplaceAll(text, "-0.0", "0.0"), strings.ReplaceAll(w, "-0.0", "0.0")) {
			t.Errorf("%s's game-over screen says %q, want %q in it", c.name, text, w)
		}
	}
	p.Shot("rated-06-over-360")
	g.Shot("rated-07-over-guest-360")

	// The leaderboard lists all seven, each at rating.Game's ordinal.
	p.Do(15*time.Second, chromedp.Navigate(base+"/"), browsertest.WaitVisible(chromedp.CSS("#to-ratings")), browsertest.Click(chromedp.CSS("#to-ratings")))
	p.WaitJS(15*time.Second, `location.pathname === '/ratings' && document.querySelectorAll('#board tbody tr').length === 7`)
	for _, name := range []string{"Nino", "Tamar", "Robo1"} {
		got := webtest.Eval[string](p, `document.querySelector('#board tr[data-player="`+name+`"]').dataset.ordinal`)
		if u := want[idOf(name)][rating.Overall]; !near(got, u.After.Ordinal()) {
			t.Errorf("the board's %s: %s, want %v", name, got, u.After.Ordinal())
		}
	}
	p.Shot("rated-08-leaderboard-360")

	// The player's page: the ratings, and the game with its change,
	// linking to the review.
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS(`#board tr[data-player="Nino"] a`)))
	p.WaitJS(15*time.Second, `location.pathname === '/players/Nino' && !!document.querySelector('#ratings-table tr[data-kind="overall"]') && !!document.querySelector('#recent li[data-table="`+table+`"] .rating-delta')`)
	nino := want[idOf("Nino")]
	for k, u := range nino {
		if got := webtest.Eval[string](p, `document.querySelector('#ratings-table tr[data-kind="`+string(k)+`"]').dataset.ordinal`); !near(got, u.After.Ordinal()) {
			t.Errorf("Nino's page: %s rating %s, want %v", k, got, u.After.Ordinal())
		}
	}
	if got := webtest.Eval[string](p, `document.querySelector('#recent li[data-table="`+table+`"] .rating-delta').dataset.after`); !near(got, nino[rating.Overall].After.Ordinal()) {
		t.Errorf("Nino's game: rating after %s, want %v", got, nino[rating.Overall].After.Ordinal())
	}
	p.Shot("rated-09-profile-360")
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS(`#recent li[data-table="`+table+`"] a`)))
	p.WaitJS(15*time.Second, `location.pathname === '/t/`+table+`/review' && !!document.querySelector('#rv-cards')`)
}
