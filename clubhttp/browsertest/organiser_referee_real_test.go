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
	"mafia/assist"
	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/store"
	"mafia/store/sqlite"
)

// TestTheRefereeSeesOnlyTheirControlsAndGivesARealTablesExtras (issue 29):
// a tournament at real tables names its referee's account; its one
// table's game is linked, its host having given seat 1 +0.30 on the
// assistant. On a phone (360×740, in Georgian) logged in with the
// referee's account, the assistant's first screen lists the tournament
// they referee; its link opens the organiser's screen, which says they are the referee and
// shows none of the organiser's controls (no step, no Change the referee,
// no Free the table), only the table's extras form, filled with the
// host's, saying the rule and that the host's count now. The referee
// takes seat 1's away and gives seat 2 +0.50: after a reload the form holds
// theirs and says they count, the standings (JSON and the printable page)
// count seat 2's 0.50 and seat 1's nothing. The organiser, with the club's
// code on their phone, sees every control on the same page. No page
// scrolls sideways.
func TestTheRefereeSeesOnlyTheirControlsAndGivesARealTablesExtras(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	kept := &keptGames{m: map[string]club.Game{}}
	clubs := clubhttp.New(clubhttp.Config{Store: db, Games: kept, Accounts: svc, Files: assist.Version()})
	host := assist.New(assist.Config{Store: db, Clubs: clubs, Accounts: svc})
	mux := http.NewServeMux()
	mux.Handle("/host/api/clubs", clubs)
	mux.Handle("/host/api/clubs/", clubs)
	mux.Handle("/host/clubs/", clubs)
	mux.Handle("/", host)
	hs := httptest.NewServer(mux)
	defer hs.Close()

	var c struct{ ID, Token, Name string }
	if code := call(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "ზუგდიდის კლუბი"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	var ids []string
	for i := 1; i <= 10; i++ {
		var p struct{ ID string }
		if code := call(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token,
			map[string]any{"name": fmt.Sprintf("ნათია %02d", i)}, &p); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
		ids = append(ids, p.ID)
	}
	_, refTok, err := svc.Signup(context.Background(), "Sopo6", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	// The referee is a member of the club (the making form offers the members).
	if code := call(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID+"/members/Sopo6", c.Token, map[string]any{"role": "member"}, nil); code != http.StatusOK {
		t.Fatalf("Sopo6 joins the club: %d", code)
	}
	base := hs.URL + "/host/api/clubs/" + c.ID + "/tournaments"
	var tr struct {
		ID     string
		Names  map[string]string
		Rounds []struct{ Tables []struct{ Players []string } }
	}
	if code := call(t, "POST", base, c.Token, map[string]any{"name": "ზამთრის თასი", "from": "2026-12-06", "to": "2026-12-06",
		"players": ids, "tables": 1, "games": 1, "seed": 4, "final": map[string]any{"size": 0}, "referee": "სოფო",
		"referee_account": "Sopo6"}, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	turl := base + "/" + tr.ID
	if code := call(t, "POST", turl+"/rounds", c.Token, nil, &tr); code != http.StatusOK {
		t.Fatalf("seat: %d", code)
	}
	players := tr.Rounds[0].Tables[0].Players
	g := club.Game{Date: "2026-12-06", Rules: "std", Winner: "town", Extra: []club.Extra{{Seat: 1, Points: 30}}}
	for s, p := range players {
		g.Seats = append(g.Seats, club.Seat{Seat: s + 1, Person: p, Name: tr.Names[p], Role: seatCards[s]})
	}
	kept.put("real1", g)
	now := time.Now()
	if err := db.CreateTable(context.Background(), store.Table{ID: "real1", Kind: store.KindInPerson, Name: "real1", Status: "in_person_ended",
		CreatedAt: now, UpdatedAt: now}, nil); err != nil {
		t.Fatal(err)
	}
	if err := clubs.AddGame(context.Background(), c.ID, store.ClubGame{TableID: "real1", Day: "2026-12-06"}); err != nil {
		t.Fatal(err)
	}
	if code := call(t, "PUT", turl+"/rounds/1/tables/1/game", c.Token, map[string]any{"game": "real1"}, nil); code != http.StatusOK {
		t.Fatalf("link: %d", code)
	}
	extraOf := func(person string) string {
		t.Helper()
		var rows struct {
			Standings []struct {
				Person string
				Extra  json.Number
			}
		}
		call(t, "GET", turl+"/standings.json", "", nil, &rows)
		for _, r := range rows.Standings {
			if r.Person == person {
				return r.Extra.String()
			}
		}
		return ""
	}
	if got := extraOf(players[0]); got != "0.30" {
		t.Fatalf("the host's extra of seat 1 before: %s", got)
	}

	// The referee, in Georgian, logged in on a phone of their own.
	tab := browsertest.Tab(t, browser.Context(t), chromedp.WithNewBrowserContext())
	tab, cancel := context.WithTimeout(tab, 3*time.Minute)
	defer cancel()
	_, wait, eval, press, wide := drive(t, tab)
	screen := hs.URL + "/host/clubs/" + c.ID + "/organiser/" + tr.ID + "?lang=ka"
	httpOnly := true
	if err := chromedp.Do(tab, chromedp.EmulateViewport(360, 740), chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: account.CookieName, Value: refTok,
			URL: hs.URL + "/", Path: "/", HTTPOnly: &httpOnly})
		return err
	}), chromedp.Navigate(hs.URL+"/host/?lang=ka")); err != nil {
		t.Fatal(err)
	}
	// The assistant's first screen lists the tournament they referee; its
	// link opens the organiser's screen.
	run := `document.querySelector('[data-t="run-tournaments"] li[data-role="referee"] [data-t="run-tournament"]')`
	wait("the tournaments they referee", `!!`+run+` && `+run+`.textContent === 'ზამთრის თასი' &&
		document.querySelector('[data-t="run-tournaments"] h3').textContent === 'ტურნირები, სადაც მსაჯი ან ორგანიზატორი ხარ'`)
	var href string
	eval("the tournament's link", run+`.getAttribute('href')`, &href)
	if want := "/host/clubs/" + c.ID + "/organiser/" + tr.ID + "?lang=ka"; href != want {
		t.Errorf("the tournament's link %q, want %q", href, want)
	}
	wide("the assistant's first screen")
	if err := chromedp.Do(tab, browsertest.Click(chromedp.CSS(`[data-t="run-tournament"]`))); err != nil {
		t.Fatal(err)
	}
	form := `document.querySelector('[data-t="extra"][data-round="1"][data-table="1"]')`
	field := func(s int) string {
		return fmt.Sprintf(`%s.querySelector('[data-t="extra-points"][data-seat="%d"]')`, form, s)
	}
	wait("the referee's screen", `!!document.querySelector('[data-t="role"][data-role="referee"]') && !!`+form)
	var shown struct {
		Role, Rule, Counting, Seat1 string
		Organisers                  int
		Save                        bool
	}
	eval("what the referee is shown", `(() => ({
		role: document.querySelector('[data-t="role"]').textContent,
		rule: `+form+`.querySelector('[data-t="extra-rule"]').textContent,
		counting: `+form+`.querySelector('[data-t="extra-counting"]').dataset.given,
		seat1: `+field(1)+`.value,
		organisers: document.querySelectorAll('[data-t="seat-rounds"], [data-t="seat-final"], [data-t="close"], [data-t="referee-change"], [data-t="unlink"], [data-t="setup"], [data-t="link"], [data-t="open-online"]').length,
		save: !!`+form+`.querySelector('[data-t="extra-save"]'),
	}))()`, &shown)
	if !strings.Contains(shown.Role, "მსაჯი") || shown.Organisers != 0 || !shown.Save || shown.Seat1 != "0.30" || shown.Counting != "host" ||
		!strings.Contains(shown.Rule, "ასისტენტში") {
		t.Errorf("the referee is shown %+v, want their role, no organiser's control, the form filled with the host's 0.30", shown)
	}
	wide("the referee's screen")
	var ok bool
	set := func(s int, v string) {
		eval("fill a field", `(() => { const i = `+field(s)+`; i.value = `+string(mustJSON(v))+`; return true; })()`, &ok)
	}
	set(1, "")
	set(2, "0.5")
	press("save", `[data-t="extra-save"]`)
	wait("saved", `!document.querySelector('[data-t="done"]').hidden`)
	if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	wait("the referee's extras kept after a reload", `!!`+form+` && `+field(2)+`.value === '0.50' && `+field(1)+`.value === '' &&
		`+form+`.querySelector('[data-t="extra-counting"]').dataset.given === 'here'`)
	if a, b := extraOf(players[0]), extraOf(players[1]); a != "0.00" || b != "0.50" {
		t.Errorf("the standings' extras after the referee's: seat 1 %s, seat 2 %s; want 0.00 and 0.50", a, b)
	}
	// The printable standings count them too.
	if err := chromedp.Do(tab, chromedp.Navigate(hs.URL+"/host/clubs/"+c.ID+"/tournaments/"+tr.ID+"?lang=ka")); err != nil {
		t.Fatal(err)
	}
	var pts struct {
		Standings []struct {
			Person string
			Points json.Number
		}
	}
	call(t, "GET", turl+"/standings.json", "", nil, &pts)
	want := ""
	for _, r := range pts.Standings {
		if r.Person == players[1] {
			want = r.Points.String()
		}
	}
	wait("the printable standings", `(() => { for (const tr of document.querySelectorAll('[data-t="standings"] tbody tr')) {
		const name = tr.querySelector('.c-name'); const p = tr.querySelector('.c-points');
		if (name && name.textContent === `+string(mustJSON(tr.Names[players[1]]))+`) return !!p && p.textContent === `+string(mustJSON(want))+`; }
		return false; })()`)

	// The organiser, with the club's code kept on their phone, sees every control.
	org := browsertest.Tab(t, browser.Context(t), chromedp.WithNewBrowserContext())
	org, cancelO := context.WithTimeout(org, 3*time.Minute)
	defer cancelO()
	_, owait, oeval, _, _ := drive(t, org)
	if err := chromedp.Do(org, chromedp.EmulateViewport(360, 740), chromedp.Navigate(screen)); err != nil {
		t.Fatal(err)
	}
	keep, _ := json.Marshal(map[string]string{"id": c.ID, "token": c.Token, "name": c.Name})
	oeval("keep the club", `(() => { localStorage.setItem('assist.club', `+string(mustJSON(string(keep)))+`); return true; })()`, &ok)
	if err := chromedp.Do(org, chromedp.Navigate(screen)); err != nil {
		t.Fatal(err)
	}
	owait("the organiser's controls", `!!document.querySelector('[data-t="seat-final"]') && !!document.querySelector('[data-t="referee-change"]') &&
		!!document.querySelector('[data-t="unlink"]') && !document.querySelector('[data-t="role"]') && !!document.querySelector('[data-t="extra-save"]')`)
}
