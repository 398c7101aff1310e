package account

import (
	"mafia/web/internal/webtest"

	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/account"
	"mafia/assist"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/internal/site"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
)

// clubCall calls the clubs' API with the club's code (as a bearer token)
// and decodes the answer into out.
func clubCall(t *testing.T, method, url, token string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %s: %v\n%s", method, url, res.Status, err, data)
		}
	}
	return res.StatusCode
}

// TestBrowserThePlayersOwnPageShowsTheirTournamentTable (issue 29's
// leftover): at 360x740, a logged-in player whose club's online
// tournament has opened their round sees on their own page the
// tournament, the round, their table and seat (in Georgian, English and
// Russian, from the catalogs) and a link that opens the table, the one
// GET …/mine gives; someone else reading the same page sees none of it.
func TestBrowserThePlayersOwnPageShowsTheirTournamentTable(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	srv := server.New(server.Config{Store: db, Render: webtest.Render, Pace: room.PaceInstant, Accounts: svc, SeatsPerAddress: -1})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	clubs := clubhttp.New(clubhttp.Config{Store: db, Accounts: svc})
	clubs.ServeOnline(srv)
	host := assist.New(assist.Config{Store: db, Accounts: svc, Clubs: clubs})
	acct := account.NewHandler(account.HandlerConfig{Service: svc, Render: webtest.Render, Clubs: clubs.PlayerClubs, Tables: clubs.PlayerTables})
	hs := httptest.NewServer(site.Handler(srv, host, site.WithAccounts(acct), site.WithClubs(clubs)))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})

	// P01 signs up on the phone; P02..P10 elsewhere.
	p := webtest.NewTab(t, "own-tables", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(hs.URL+"/account"))
	webtest.SignUp(p, "P01", "password1")
	p.WaitJS(10*time.Second, `location.pathname === '/players/P01'`)
	for i := 2; i <= 10; i++ {
		if _, _, err := svc.Signup(context.Background(), fmt.Sprintf("P%02d", i), "password1", ""); err != nil {
			t.Fatal(err)
		}
	}
	var c struct{ ID, Token string }
	if code := clubCall(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Batumi club"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	var ids []string
	for i := 1; i <= 10; i++ {
		var person struct{ ID string }
		if code := clubCall(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token, map[string]any{"name": fmt.Sprintf("Player %02d", i)}, &person); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
		if code := clubCall(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID+"/people/"+person.ID+"/account", c.Token, map[string]any{"name": fmt.Sprintf("P%02d", i)}, nil); code != http.StatusOK {
			t.Fatalf("link P%02d: %d", i, code)
		}
		ids = append(ids, person.ID)
	}
	base := hs.URL + "/host/api/clubs/" + c.ID + "/tournaments"
	var tr struct{ ID string }
	if code := clubCall(t, "POST", base, c.Token, map[string]any{"name": "Batumi cup", "from": "2026-12-06", "to": "2026-12-06",
		"players": ids, "tables": 1, "seats": 10, "games": 1, "final": map[string]any{"size": 0},
		"online": map[string]any{"no_show": "stand_in", "wait_s": 3600}}, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	base += "/" + tr.ID
	if code := clubCall(t, "POST", base+"/rounds", c.Token, nil, nil); code != http.StatusOK {
		t.Fatalf("seat the rounds: %d", code)
	}
	if code := clubCall(t, "POST", base+"/rounds/1/online", c.Token, nil, nil); code != http.StatusOK {
		t.Fatalf("open round 1 online: %d", code)
	}
	// What GET …/mine tells P01, the page must show.
	_, tok, err := svc.Login(context.Background(), "P01", "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	var mine struct {
		Round, Table, Seat int
		Link               string
	}
	req, _ := http.NewRequest("GET", base+"/mine", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || json.NewDecoder(res.Body).Decode(&mine) != nil || mine.Link == "" {
		t.Fatalf("…/mine: %d %+v", res.StatusCode, mine)
	}
	res.Body.Close()

	p.Do(15*time.Second, chromedp.Navigate(hs.URL+"/players/P01"))
	p.WaitJS(10*time.Second, `!!document.querySelector('#my-tables li')`)
	for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
		p.Do(10*time.Second, webtest.TapSetting(fmt.Sprintf(`button[data-lang=%q]`, l)))
		pr := locale.New(l)
		line := pr.T("web.profile.table", map[string]any{"Name": "Batumi cup", "Round": mine.Round, "Table": mine.Table, "Seat": mine.Seat})
		head, sit := pr.T("web.profile.tables", nil), pr.T("web.profile.sit", nil)
		if !p.Eventually(10*time.Second, fmt.Sprintf(`(() => { const s = document.querySelector('#my-tables'); return !!s && s.querySelector('h3').textContent === %q &&
			s.querySelector('.my-table').textContent === %q && s.querySelector('.sit-table').textContent === %q; })()`, head, line, sit)) {
			t.Errorf("in %s the own page's tables read %q, want %q, %q, %q", l, webtest.Eval[string](p, `(document.querySelector('#my-tables') || {}).innerText || ''`), head, line, sit)
		}
		if w := webtest.Eval[float64](p, `document.documentElement.scrollWidth`); w > 360 {
			t.Errorf("in %s the own page is %.0f px wide at 360", l, w)
		}
		p.Shot("own-tables-" + string(l) + "-360")
	}
	if got := webtest.Eval[string](p, `document.querySelector('.sit-table').getAttribute('href')`); got != mine.Link {
		t.Errorf("the link to sit is %q, …/mine's %q", got, mine.Link)
	}
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS(".sit-table")))
	p.WaitJS(10*time.Second, fmt.Sprintf(`location.pathname === %q`, mine.Link))

	// Someone else reading P01's page (a phone not logged in) sees none of it.
	q := webtest.NewTab(t, "other-tables", 360, 740)
	q.Do(15*time.Second, chromedp.Navigate(hs.URL+"/players/P01"))
	q.WaitJS(10*time.Second, `!!document.querySelector('#played')`)
	if webtest.Eval[bool](q, `!!document.querySelector('#my-tables')`) {
		t.Error("a player who is not logged in sees P01's tournament table on P01's page")
	}
}
