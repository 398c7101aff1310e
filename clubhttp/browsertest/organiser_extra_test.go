package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/client"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
)

// TestTheOrganiserAndTheRefereeGiveExtraPointsOnTheScreen (issue 29): an
// online tournament of ten accounts names its referee's account; its one
// table is started with one player at it (the server's bots play the
// other nine) and played to its end. On a phone (360×740, in English) the
// organiser sees the finished table's extra points form (each seat with
// its player, the scoring's range shown), gives 0.9 to a seat and is
// refused with the API's sentence naming that seat; then gives the player
// 0.3 and saves with one tap: after a reload the field holds 0.30 (the
// refused seat's is empty), the standings count 0.30 as the player's
// extra and the printable page shows the points that count it. On another
// phone, in Georgian, a stranger's account is shown the extras read only
// (the API refuses them not_referee), and the
// referee logged in with their account (come by the tournament's public
// page's link to the organiser's screen) is refused a value past the range
// naming the seat, then changes the player's extra to -0.2: kept after a
// reload and counted. Last the organiser names another referee's account
// on the tournament's page (an unknown one refused with its sentence). No
// page scrolls sideways.
func TestTheOrganiserAndTheRefereeGiveExtraPointsOnTheScreen(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	srv := server.New(server.Config{Store: db, Accounts: svc, SeatsPerAddress: -1, Pace: room.PaceInstant})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	clubs := clubhttp.New(clubhttp.Config{Store: db, Accounts: svc})
	clubs.ServeOnline(srv)
	mux := http.NewServeMux()
	mux.Handle("/host/", clubs)
	mux.Handle("/", srv.Handler())
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer(mux)
	hs.Listener = srv.Listener(hs.Listener)
	hs.Start()
	defer func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	}()
	var c struct{ ID, Token, Name string }
	if code := call(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Batumi club"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	signup := func(name string) string {
		_, tok, err := svc.Signup(context.Background(), name, "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	var ids, creds []string
	for i := 1; i <= 10; i++ {
		name := fmt.Sprintf("M%02d", i)
		creds = append(creds, signup(name))
		var p struct{ ID string }
		if code := call(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token,
			map[string]any{"name": fmt.Sprintf("მარიამ %02d", i)}, &p); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
		if code := call(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID+"/people/"+p.ID+"/account", c.Token, map[string]any{"name": name}, nil); code != http.StatusOK {
			t.Fatalf("link %s: %d", name, code)
		}
		ids = append(ids, p.ID)
	}
	referee, stranger := signup("Tamar5"), signup("Gia5")
	base := hs.URL + "/host/api/clubs/" + c.ID + "/tournaments"
	var tr struct{ ID string }
	timings := map[string]int64{"speech": 300, "defence": 300, "tie_speech": 300, "last_words": 300, "night": 150, "vote": 300}
	if code := call(t, "POST", base, c.Token, map[string]any{"name": "Extras cup", "from": "2026-12-06", "to": "2026-12-06",
		"players": ids, "tables": 1, "games": 1, "seed": 2, "final": map[string]any{"size": 0}, "referee_account": "Tamar5",
		"online": map[string]any{"no_show": "stand_in", "wait_s": 3600, "timings_ms": timings}}, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	base += "/" + tr.ID
	if code := call(t, "POST", base+"/rounds", c.Token, nil, nil); code != http.StatusOK {
		t.Fatalf("seat: %d", code)
	}
	if code := call(t, "POST", base+"/rounds/1/online", c.Token, nil, nil); code != http.StatusOK {
		t.Fatalf("open round 1: %d", code)
	}
	// The first player sits (and only reads); the others do not come:
	// started now, the server's bots play their seats to the game's end.
	var mine struct {
		Seat int
		Link string
	}
	if code := call(t, "GET", base+"/mine", creds[0], nil, &mine); code != http.StatusOK {
		t.Fatalf("the player's table: %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	api := &client.API{Base: hs.URL}
	table := strings.TrimPrefix(mine.Link, "/t/")
	j, err := api.Join(ctx, table, "ignored", 0, creds[0])
	if err != nil {
		t.Fatal(err)
	}
	conn, err := api.Dial(ctx, table, j.Token, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		for {
			if _, err := conn.ReadRaw(ctx); err != nil {
				return
			}
		}
	}()
	if code := call(t, "POST", base+"/rounds/1/tables/1/start", c.Token, nil, nil); code != http.StatusOK {
		t.Fatalf("start the table: %d", code)
	}
	for {
		var st struct {
			Tables []struct{ State, Game string }
		}
		call(t, "GET", base+"/rounds/1/online", "", nil, &st)
		if len(st.Tables) == 1 && st.Tables[0].State == "finished" && st.Tables[0].Game != "" {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the table's game did not end")
		case <-time.After(100 * time.Millisecond):
		}
	}
	seat := mine.Seat
	other := seat%10 + 1
	who := "მარიამ 01"

	// The organiser, in English, on a phone that keeps the club.
	tab := browsertest.Tab(t, browser.Context(t))
	tab, cancelT := context.WithTimeout(tab, 3*time.Minute)
	defer cancelT()
	_, wait, eval, press, wide := drive(t, tab)
	page := hs.URL + "/host/clubs/" + c.ID + "/organiser/" + tr.ID
	keep, _ := json.Marshal(map[string]string{"id": c.ID, "token": c.Token, "name": c.Name})
	if err := chromedp.Do(tab, chromedp.EmulateViewport(360, 740), chromedp.Navigate(page+"?lang=en")); err != nil {
		t.Fatal(err)
	}
	var ok bool
	eval("keep the club", `(() => { localStorage.setItem('assist.club', `+string(mustJSON(string(keep)))+`); return true; })()`, &ok)
	if err := chromedp.Do(tab, chromedp.Navigate(page+"?lang=en")); err != nil {
		t.Fatal(err)
	}
	form := `document.querySelector('[data-t="extra"][data-round="1"][data-table="1"]')`
	field := func(s int) string {
		return fmt.Sprintf(`%s.querySelector('[data-t="extra-points"][data-seat="%d"]')`, form, s)
	}
	wait("the extras form", `!!`+form+` && `+form+`.querySelectorAll('[data-t="extra-points"]').length === 10`)
	var text string
	eval("the form's text", form+`.innerText`, &text)
	if !strings.Contains(text, "-0.50") || !strings.Contains(text, "0.70") || !strings.Contains(text, who) {
		t.Errorf("the form shows no range or no players: %q", text)
	}
	eval("the referee shown", `document.querySelector('[data-t="head"]').innerText`, &text)
	if !strings.Contains(text, "Tamar5") {
		t.Errorf("the head names no referee's account: %q", text)
	}
	wide("the extras form")
	set := func(s int, v string) {
		eval("fill a field", `(() => { const i = `+field(s)+`; i.value = `+string(mustJSON(v))+`; return true; })()`, &ok)
	}
	set(other, "0.9")
	press("save", `[data-t="extra-save"]`)
	var bad struct {
		Error struct{ Code, Message string }
	}
	call(t, "PUT", base+"/rounds/1/tables/1/extra?lang=en", c.Token, map[string]any{"extra": []map[string]any{{"seat": other, "points": 0.9}}}, &bad)
	if bad.Error.Code != "bad_extra" || !strings.Contains(bad.Error.Message, fmt.Sprint(other)) {
		t.Fatalf("the API's refusal: %+v", bad)
	}
	wait("the refusal naming the seat", `(() => { const e = document.querySelector('[data-t="error"]'); return !e.hidden && e.textContent === `+
		string(mustJSON(bad.Error.Message))+`; })()`)
	set(other, "")
	set(seat, "0.3")
	press("save", `[data-t="extra-save"]`)
	wait("saved", `!document.querySelector('[data-t="done"]').hidden`)
	if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	wait("the extras kept after a reload", `!!`+form+` && `+field(seat)+` && `+field(seat)+`.value === '0.30' && `+field(other)+`.value === ''`)
	// The standings: the player's extra (JSON) is what was given, and the
	// printable page shows the points that count it.
	standings := func(lang, want string) {
		t.Helper()
		var rows struct {
			Standings []struct {
				Name          string
				Points, Extra json.Number
			}
		}
		call(t, "GET", base+"/standings.json", "", nil, &rows)
		points := ""
		for _, r := range rows.Standings {
			if r.Name == who {
				if r.Extra.String() != want {
					t.Errorf("the standings' extra of %s: %s, want %s", who, r.Extra, want)
				}
				points = r.Points.String()
			}
		}
		if err := chromedp.Do(tab, chromedp.Navigate(hs.URL+"/host/clubs/"+c.ID+"/tournaments/"+tr.ID+"?lang="+lang)); err != nil {
			t.Fatal(err)
		}
		wait("the standings show the points", `(() => { for (const tr of document.querySelectorAll('[data-t="standings"] tbody tr')) {
			const name = tr.querySelector('.c-name'); const p = tr.querySelector('.c-points');
			if (name && name.textContent === `+string(mustJSON(who))+`) return !!p && p.textContent === `+string(mustJSON(points))+`; }
			return false; })()`)
	}
	standings("en", "0.30")

	// The referee, in Georgian, logged in with their account on a phone
	// of their own (no club's code there).
	ref := browsertest.Tab(t, browser.Context(t), chromedp.WithNewBrowserContext())
	ref, cancelR := context.WithTimeout(ref, 3*time.Minute)
	defer cancelR()
	_, rwait, reval, rpress, rwide := drive(t, ref)
	login := func(tok string) {
		t.Helper()
		httpOnly := true
		if err := chromedp.Do(ref, chromedp.EmulateViewport(360, 740), chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: account.CookieName, Value: tok,
				URL: hs.URL + "/", Path: "/", HTTPOnly: &httpOnly})
			return err
		}), chromedp.Navigate(page+"?lang=ka")); err != nil {
			t.Fatal(err)
		}
	}
	rform := form
	rfield := func(s int) string {
		return fmt.Sprintf(`%s.querySelector('[data-t="extra-points"][data-seat="%d"]')`, rform, s)
	}
	rset := func(s int, v string) {
		reval("fill a field", `(() => { const i = `+rfield(s)+`; i.value = `+string(mustJSON(v))+`; return true; })()`, &ok)
	}
	// A stranger's account first: the server says they are the public, so
	// the extras are shown read only, with no Save (the API refuses them).
	login(stranger)
	rwait("the extras read only", `!!`+rform+` && `+rfield(seat)+`.value === '0.30' && `+rfield(seat)+`.disabled &&
		!document.querySelector('[data-t="extra-save"]') && !!document.querySelector('[data-t="role"][data-role="public"]')`)
	call(t, "PUT", base+"/rounds/1/tables/1/extra?lang=ka", stranger, map[string]any{"extra": []map[string]any{}}, &bad)
	if bad.Error.Code != "not_referee" {
		t.Fatalf("the API's refusal of a stranger: %+v", bad)
	}
	// The referee: a bad value refused naming the seat, then -0.2 kept.
	// The referee comes from the tournament's public page, by its link to
	// the organiser's screen.
	login(referee)
	if err := chromedp.Do(ref, chromedp.Navigate(hs.URL+"/host/clubs/"+c.ID+"/tournaments/"+tr.ID+"?lang=ka")); err != nil {
		t.Fatal(err)
	}
	rwait("the link to the organiser's screen", `!!document.querySelector('[data-t="organiser"]')`)
	// (This server has no assistant, so the public page has no style
	// here: its fit at 360 px is tournament_test.go's.)
	rpress("the organiser's screen", `[data-t="organiser"]`)
	rwait("the extras form", `!!`+rform+` && `+rfield(seat)+`.value === '0.30'`)
	var kaText string
	reval("the Georgian form", rform+`.innerText`, &kaText)
	if !strings.Contains(kaText, "დამატებითი ქულები") || !strings.Contains(kaText, "-0.50") {
		t.Errorf("the referee's form in Georgian: %q", kaText)
	}
	rwide("the referee's extras form")
	rset(other, "-0.75")
	rpress("save", `[data-t="extra-save"]`)
	call(t, "PUT", base+"/rounds/1/tables/1/extra?lang=ka", referee, map[string]any{"extra": []map[string]any{{"seat": other, "points": -0.75}}}, &bad)
	if bad.Error.Code != "bad_extra" || !strings.Contains(bad.Error.Message, "ადგილი "+fmt.Sprint(other)) {
		t.Fatalf("the API's Georgian refusal: %+v", bad)
	}
	rwait("the refusal naming the seat, in Georgian", `(() => { const e = document.querySelector('[data-t="error"]'); return !e.hidden && e.textContent === `+
		string(mustJSON(bad.Error.Message))+`; })()`)
	rset(other, "")
	rset(seat, "-0.2")
	rpress("save", `[data-t="extra-save"]`)
	rwait("saved", `!document.querySelector('[data-t="done"]').hidden`)
	if err := chromedp.Do(ref, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	rwait("the referee's extras kept after a reload", `!!`+rform+` && `+rfield(seat)+` && `+rfield(seat)+`.value === '-0.20'`)
	standings("ka", "-0.20")

	// The organiser names another referee's account on the tournament's
	// page: an account the site has not is refused with its sentence, then
	// Gia5 is kept and shown.
	if err := chromedp.Do(tab, chromedp.Navigate(page+"?lang=en")); err != nil {
		t.Fatal(err)
	}
	wait("the referee's form", `!!document.querySelector('[data-t="referee-change"]')`)
	name := func(v string) {
		eval("the referee's account", `(() => { const d = document.querySelector('[data-t="referee-change"]'); d.open = true;
			d.querySelector('[data-t="referee-login"]').value = `+string(mustJSON(v))+`; return true; })()`, &ok)
	}
	name("nobody-here")
	press("save the referee", `[data-t="referee-save"]`)
	call(t, "PUT", base+"/referee?lang=en", c.Token, map[string]any{"referee": "Tamar5", "account": "nobody-here"}, &bad)
	if bad.Error.Code != "bad_member" {
		t.Fatalf("the API's refusal of an unknown account: %+v", bad)
	}
	wait("the unknown account refused", `(() => { const e = document.querySelector('[data-t="error"]'); return !e.hidden && e.textContent === `+
		string(mustJSON(bad.Error.Message))+`; })()`)
	name("Gia5")
	press("save the referee", `[data-t="referee-save"]`)
	wait("the new referee shown", `(() => { const r = document.querySelector('[data-t="referee-shown"]'); return !!r && r.textContent.includes('Gia5'); })()`)
	var now struct {
		RefereeLogin string `json:"referee_login"`
	}
	call(t, "GET", base, "", nil, &now)
	if now.RefereeLogin != "Gia5" {
		t.Errorf("the referee's account kept: %q, want Gia5", now.RefereeLogin)
	}
	wide("the tournament's page with the referee's form")
}
