package web_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/assist"
	"mafia/client"
	"mafia/internal/site"
	"mafia/locale"
	"mafia/rating"
	"mafia/rng"
	"mafia/room"
	"mafia/server"
	"mafia/store"
	"mafia/store/sqlite"
	"mafia/wire"
	"net/http/httptest"
)

// startRatedSite is the whole face with accounts and ratings, as mafia
// serve mounts it, and its store.
func startRatedSite(t *testing.T) (string, *sqlite.DB) {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	// Every player is on loopback here: no bound on the seats of one address.
	srv := server.New(server.Config{Store: db, Render: render, Pace: room.PaceInstant, Accounts: svc, SeatsPerAddress: -1})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	acct := account.NewHandler(account.HandlerConfig{Service: svc, Render: render, Ratings: srv.PlayerRatings})
	hs := httptest.NewServer(site.Handler(srv, assist.New(assist.Config{Store: db}), site.WithAccounts(acct)))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	return hs.URL, db
}

// makeBotAccount makes a bot account on the account page (POST
// /api/account/bots, as a player's finger does) and returns its token,
// which the page shows once.
func makeBotAccount(p *tab, name string) string {
	p.t.Helper()
	// Typed as a person types (input events): the page redraws when the
	// list of bots arrives, and the name typed so far stays.
	p.do(10*time.Second, chromedp.WaitVisible(chromedp.CSS("#bot-form")), chromedp.SendKeys(chromedp.CSS("#bot-name"), name),
		chromedp.Click(chromedp.CSS("#bot-create")))
	p.waitJS(10*time.Second, `!!document.querySelector('#bot-list li[data-bot="`+name+`"]') && !!document.querySelector('#bot-token-value')`)
	return eval[string](p, `document.querySelector('#bot-token-value').value`)
}

// tapCentered taps the element sel once it is in the middle of the
// screen, as a finger scrolls to it first: chromedp's own scroll leaves it
// at the top edge, under the page's header, which then takes the tap.
func tapCentered(p *tab, sel string) {
	p.t.Helper()
	p.waitJS(10*time.Second, `(() => { const e = document.querySelector('`+sel+`'); if (e) e.scrollIntoView({ block: 'center' }); return !!e; })()`)
	p.do(10*time.Second, chromedp.Click(chromedp.CSS(sel)))
}

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
	needBrowser(t)
	base, db := startRatedSite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	// A guest may not make a rated table: the box says to log in first.
	p := newTab(t, "rated-host", 360, 740)
	p.do(15*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#rated-login-link")))
	if !eval[bool](p, `document.querySelector('#rated').disabled`) {
		t.Error("a guest may tick the rated box")
	}
	p.do(10*time.Second, chromedp.Click(chromedp.CSS("#account-link")), chromedp.WaitVisible(chromedp.CSS("#account-form")))
	signUp(p, "Nino", "password1")
	p.waitJS(10*time.Second, `location.pathname === '/players/Nino'`)
	p.do(10*time.Second, chromedp.Navigate(base+"/account"))
	var tokens []string
	for i := 1; i <= 5; i++ {
		tokens = append(tokens, makeBotAccount(p, "Robo"+strconv.Itoa(i)))
	}

	// The rated table, from the lobby's form.
	p.do(15*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#create")))
	p.waitJS(10*time.Second, `!document.querySelector('#rated').disabled`)
	p.do(10*time.Second,
		chromedp.SetValue(chromedp.CSS("#your-name"), "Nino"),
		chromedp.SetValue(chromedp.CSS("#create-name"), "Rated"),
		chromedp.SetValue(chromedp.CSS("#players"), "7"))
	for k, v := range fastTimings {
		p.do(5*time.Second, chromedp.SetValue(chromedp.CSS("#time-"+k), v))
	}
	p.do(10*time.Second, chromedp.Click(chromedp.CSS("#rated")), chromedp.WaitVisible(chromedp.CSS("#rated-hint")))
	p.shot("rated-01-create-360")
	p.do(15*time.Second, chromedp.Click(chromedp.CSS("#create")), chromedp.WaitVisible(chromedp.CSS("#seated")))
	table := p.tableOf()
	p.waitJS(10*time.Second, `!!document.querySelector('#rated-host') && !document.querySelector('#add-bots')`)

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
	p.waitJS(10*time.Second, `document.querySelectorAll('.seat [data-bot-account]').length === 5`)
	p.shot("rated-02-host-360")

	// A guest finds it in the lobby: marked, and told why they cannot sit.
	g := newTab(t, "rated-guest", 360, 740)
	g.do(15*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`#tables li[data-table="`+table+`"] .badge.rated`)),
		chromedp.WaitVisible(chromedp.CSS("#rated-lobby-guest")))
	if got := eval[string](g, `document.querySelector('#tables li[data-table="`+table+`"] .status').textContent`); got != "log in to sit" {
		t.Errorf("the rated table's row tells a guest %q", got)
	}
	g.shot("rated-03-lobby-guest-360")
	g.do(10*time.Second, chromedp.Click(chromedp.CSS(`#tables li[data-table="`+table+`"] a`)), chromedp.WaitVisible(chromedp.CSS("#rated-signup")))
	if n := eval[int](g, `document.querySelectorAll('#join, #join-name').length`); n != 0 {
		t.Error("a guest at a rated table is offered the guest's seat")
	}
	g.shot("rated-04-table-guest-360")
	// In Georgian too, the reason and the two ways in fit the phone.
	ka := locale.New(locale.Ka)
	g.do(10*time.Second, tapSetting(`button[data-lang="ka"]`))
	g.waitJS(10*time.Second, fmt.Sprintf(`document.querySelector('#rated-guest').textContent === %q && document.querySelector('#rated-signup').textContent === %q`,
		ka.T("web.rated_seat.guest_note", nil), ka.T("web.rated_seat.signup", nil)))
	g.shot("rated-04a-table-guest-ka-360")
	g.do(10*time.Second, tapSetting(`button[data-lang="en"]`))
	g.waitJS(10*time.Second, `document.querySelector('#rated-signup').textContent === 'Sign up to sit here'`)
	// The switch of language reconnects the page (for the server's words in
	// it): the tap waits until that is done, so that no banner of the
	// reconnect moves the button under the finger, and is made with the
	// button in the middle of the screen, not under the header (CI once
	// tapped beside it, and the form never opened).
	g.waitJS(15*time.Second, `window.__mafia.state.conn === 'open'`)
	// "Log in" with no account yet: refused in place; then "sign up".
	g.expect("status of 403")
	tapCentered(g, "#rated-login")
	g.do(10*time.Second, chromedp.WaitVisible(chromedp.CSS("#rated-form")))
	eval[bool](g, `(() => { document.getElementById('rated-name').value = ''; return true; })()`)
	g.do(10*time.Second, chromedp.SendKeys(chromedp.CSS("#rated-name"), "Tamar"),
		chromedp.SendKeys(chromedp.CSS("#rated-password"), "password1"), chromedp.Click(chromedp.CSS("#rated-submit")),
		chromedp.WaitVisible(chromedp.CSS("#rated-error")))
	g.do(10*time.Second, chromedp.Click(chromedp.CSS("#rated-switch")))
	g.waitJS(5*time.Second, `document.querySelector('#rated-submit').textContent === 'Sign up' && document.querySelector('#rated-error').hidden`)
	eval[bool](g, `(() => { document.getElementById('rated-password').value = ''; return true; })()`)
	g.do(10*time.Second, chromedp.SendKeys(chromedp.CSS("#rated-password"), "password1"))
	g.shot("rated-05-signup-in-place-360")
	g.do(10*time.Second, chromedp.Click(chromedp.CSS("#rated-submit")))
	g.waitJS(15*time.Second, `location.pathname === '/t/`+table+`' && !!document.querySelector('#seated') && !!document.querySelector('.seat.me [data-account]')`)
	// Logged in, the seat is one tap: leave it and take it again.
	tapCentered(g, `[data-key="leave"]`)
	g.do(10*time.Second, chromedp.WaitVisible(chromedp.CSS("#rated-sit")))
	if got := eval[string](g, `document.querySelector('#rated-sit').textContent`); got != "Sit here as Tamar" {
		t.Errorf("the logged-in player's seat button: %q", got)
	}
	tapCentered(g, "#rated-sit")
	g.do(10*time.Second, chromedp.WaitVisible(chromedp.CSS("#seated")))
	if got := eval[string](g, `window.__mafia.state.lobby.seats[window.__mafia.state.seat - 1].name`); got != "Tamar" {
		t.Errorf("the guest's seat is named %q, want Tamar", got)
	}

	// The game: the bots on their sockets (reading since they sat), the
	// people in their pages.
	p.do(15*time.Second, chromedp.WaitEnabled(chromedp.CSS("#start")), chromedp.Click(chromedp.CSS("#start")),
		chromedp.WaitVisible(chromedp.CSS("#my-card")))
	for deadline := time.Now().Add(150 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no game over:\n%s", p.text())
		}
		a, b := eval[string](p, autoplay), eval[string](g, autoplay)
		if a == "over" && b == "over" {
			break
		}
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
		tab  *tab
		name string
	}{{p, "Nino"}, {g, "Tamar"}} {
		u, ok := want[idOf(c.name)][rating.Overall]
		if !ok {
			t.Fatalf("%s has no overall update", c.name)
		}
		c.tab.waitJS(30*time.Second, `!!document.querySelector('#rating-overall')`)
		el := `document.querySelector('#rating-overall')`
		if got := eval[string](c.tab, el+`.dataset.after`); !near(got, u.After.Ordinal()) {
			t.Errorf("%s's page: rating after %s, want %v", c.name, got, u.After.Ordinal())
		}
		if got := eval[string](c.tab, el+`.dataset.before`); !near(got, u.Before.Ordinal()) {
			t.Errorf("%s's page: rating before %s, want %v", c.name, got, u.Before.Ordinal())
		}
		if got := eval[string](c.tab, el+`.dataset.mu`); !near(got, u.After.Mu) {
			t.Errorf("%s's page: mu %s, want %v", c.name, got, u.After.Mu)
		}
		text := eval[string](c.tab, el+`.textContent`)
		if w := fmt.Sprintf("%.1f → %.1f", u.Before.Ordinal(), u.After.Ordinal()); !strings.Contains(strings.ReplaceAll(text, "-0.0", "0.0"), strings.ReplaceAll(w, "-0.0", "0.0")) {
			t.Errorf("%s's game-over screen says %q, want %q in it", c.name, text, w)
		}
	}
	p.shot("rated-06-over-360")
	g.shot("rated-07-over-guest-360")

	// The leaderboard lists all seven, each at rating.Game's ordinal.
	p.do(15*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#to-ratings")), chromedp.Click(chromedp.CSS("#to-ratings")))
	p.waitJS(15*time.Second, `location.pathname === '/ratings' && document.querySelectorAll('#board tbody tr').length === 7`)
	for _, name := range []string{"Nino", "Tamar", "Robo1"} {
		got := eval[string](p, `document.querySelector('#board tr[data-player="`+name+`"]').dataset.ordinal`)
		if u := want[idOf(name)][rating.Overall]; !near(got, u.After.Ordinal()) {
			t.Errorf("the board's %s: %s, want %v", name, got, u.After.Ordinal())
		}
	}
	p.shot("rated-08-leaderboard-360")

	// The player's page: the ratings, and the game with its change,
	// linking to the review.
	p.do(10*time.Second, chromedp.Click(chromedp.CSS(`#board tr[data-player="Nino"] a`)))
	p.waitJS(15*time.Second, `location.pathname === '/players/Nino' && !!document.querySelector('#ratings-table tr[data-kind="overall"]') && !!document.querySelector('#recent li[data-table="`+table+`"] .rating-delta')`)
	nino := want[idOf("Nino")]
	for k, u := range nino {
		if got := eval[string](p, `document.querySelector('#ratings-table tr[data-kind="`+string(k)+`"]').dataset.ordinal`); !near(got, u.After.Ordinal()) {
			t.Errorf("Nino's page: %s rating %s, want %v", k, got, u.After.Ordinal())
		}
	}
	if got := eval[string](p, `document.querySelector('#recent li[data-table="`+table+`"] .rating-delta').dataset.after`); !near(got, nino[rating.Overall].After.Ordinal()) {
		t.Errorf("Nino's game: rating after %s, want %v", got, nino[rating.Overall].After.Ordinal())
	}
	p.shot("rated-09-profile-360")
	p.do(10*time.Second, chromedp.Click(chromedp.CSS(`#recent li[data-table="`+table+`"] a`)))
	p.waitJS(15*time.Second, `location.pathname === '/t/`+table+`/review' && !!document.querySelector('#rv-cards')`)
}
