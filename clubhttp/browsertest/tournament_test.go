// Package browsertest drives a club's tournament in a real Chromium (package
// mafia/internal/browsertest): the assistant's setup opened from a
// tournament table's link, at a phone's 360×740. It is tests only.
package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/store/sqlite"
)

var browser = browsertest.New("clubhttp/browsertest")

func TestMain(m *testing.M) {
	code := m.Run()
	browser.Close()
	os.Exit(code)
}

// call sends a JSON request (with the club's code when token is given) and
// decodes the answer.
func call(t *testing.T, method, url, token string, body, out any) int {
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
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %s: %v\n%s", method, url, res.Status, err, b)
		}
	}
	return res.StatusCode
}

type tournamentAnswer struct {
	ID     string
	Rounds []struct {
		Tables []struct {
			Players []string
			Game    string
		}
	}
	Names map[string]string
	Setup [][]string
}

// TestATournamentsTableOpensTheSetupAndItsGameIsLinked: the host of round 2's
// table 1 opens the table's link on a phone (360×740, Georgian) that keeps
// the club: the setup has the table's ten players seated by the seating,
// each picked from the roster, the round and table in the club's fields,
// and no sideways scroll; Create makes the game, and the tournament's table
// is linked to it. The club's screen lists the tournament; its printable
// page fits 360 px too, in Georgian, its standings and every round's
// tables.
func TestATournamentsTableOpensTheSetupAndItsGameIsLinked(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clubs := clubhttp.New(clubhttp.Config{Store: db, Games: assist.ClubGames(db, nil), Files: assist.Version()})
	host := assist.New(assist.Config{Store: db, Clubs: clubs})
	mux := http.NewServeMux()
	mux.Handle("/host/api/clubs", clubs)
	mux.Handle("/host/api/clubs/", clubs)
	mux.Handle("/host/clubs/", clubs)
	mux.Handle("/", host)
	hs := httptest.NewServer(mux)
	defer hs.Close()

	var c struct{ ID, Token, Name string }
	if code := call(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "თბილისის კლუბი"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	var ids []string
	for i := 1; i <= 20; i++ {
		var p struct{ ID string }
		if code := call(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token,
			map[string]any{"name": fmt.Sprintf("ნინო %02d", i)}, &p); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
		ids = append(ids, p.ID)
	}
	base := hs.URL + "/host/api/clubs/" + c.ID + "/tournaments"
	var tr tournamentAnswer
	if code := call(t, "POST", base, c.Token, map[string]any{"name": "ზამთრის თასი", "from": "2026-12-05", "to": "2026-12-05",
		"host": "ნინო", "referee": "გიორგი", "players": ids, "tables": 2, "games": 10, "seed": 5}, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	if code := call(t, "POST", base+"/"+tr.ID+"/rounds", c.Token, nil, &tr); code != http.StatusOK {
		t.Fatalf("seat: %d", code)
	}
	players := tr.Rounds[1].Tables[0].Players

	ctx := browsertest.Tab(t, browser.Context(t))
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelT()
	page := func() string {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ''`))
		return text
	}
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v\npage:\n%s", what, err, page())
		}
	}
	wait := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond),
			chromedp.WithPollingTimeout(0))); err != nil {
			t.Fatalf("%s: %v\npage:\n%s", what, err, page())
		}
	}
	eval := func(what, expr string, out any) {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](expr))
		if err == nil {
			err = json.Unmarshal(v, out)
		}
		if err != nil {
			t.Fatalf("%s: %v\npage:\n%s", what, err, page())
		}
	}
	keep, _ := json.Marshal(map[string]string{"id": c.ID, "token": c.Token, "name": c.Name})
	run("open the assistant", chromedp.EmulateViewport(360, 740), chromedp.Navigate(hs.URL+"/host/?lang=ka"))
	wait("the home screen", `!!document.querySelector('[data-t="new-game"]')`)
	var ok bool
	eval("keep the club", `(() => { localStorage.setItem('assist.club', `+string(mustJSON(string(keep)))+`); return true; })()`, &ok)
	run("open the table's link", chromedp.Navigate(hs.URL+"/host/?lang=ka"+tr.Setup[1][0][len("/host/"):]))
	want, _ := json.Marshal(tr.Names[players[9]])
	wait("the setup filled in", `(() => { const i = document.querySelector('[data-t="name-10"]'); return !!i && i.value === `+string(want)+`; })()`)

	var seen struct {
		Names, People []string
		Table, Number string
		Wide          bool
	}
	eval("read the setup", `(() => {
		const names = [], people = [];
		for (let s = 1; s <= 10; s++) {
			const i = document.querySelector('[data-t="name-' + s + '"]');
			names.push(i.value); people.push(i.dataset.person || '');
		}
		const v = (k) => (document.querySelector('[data-t="club-' + k + '"]') || {}).value || '';
		return { names, people, table: v('table'), number: v('number'), wide: document.documentElement.scrollWidth > innerWidth + 1 };
	})()`, &seen)
	for s, p := range players {
		if s >= len(seen.Names) || seen.Names[s] != tr.Names[p] || seen.People[s] != p {
			t.Errorf("seat %d: %q (%q), want %q (%q)", s+1, at(seen.Names, s), at(seen.People, s), tr.Names[p], p)
		}
	}
	if seen.Table != "1" || seen.Number != "2" || seen.Wide {
		t.Errorf("the club's fields: table %q, game %q; a sideways scroll: %v", seen.Table, seen.Number, seen.Wide)
	}

	run("create", browsertest.Click(chromedp.CSS(`[data-t="create"]`), chromedp.NodeVisible))
	wait("the game made", `location.hash.startsWith('#/game/')`)
	var hash string
	eval("read the game's id", `location.hash`, &hash)
	id := strings.TrimPrefix(hash, "#/game/")
	var now tournamentAnswer
	if code := call(t, "GET", base+"/"+tr.ID, "", nil, &now); code != http.StatusOK || now.Rounds[1].Tables[0].Game != id {
		t.Errorf("round 2 table 1: linked %q, want the game made there %q", now.Rounds[1].Tables[0].Game, id)
	}

	// The club's screen lists the tournament, its page one tap away.
	run("the club's screen", chromedp.Navigate(hs.URL+"/host/?lang=ka#/club"))
	wait("the club's tournaments", `(() => { const a = document.querySelector('[data-t="tournaments"] a[data-t="tournament"]');
		return !!a && a.getAttribute('href').startsWith('/host/clubs/`+c.ID+`/tournaments/`+tr.ID+`') && a.textContent === 'ზამთრის თასი'; })()`)

	run("the tournament's page", chromedp.Navigate(hs.URL+"/host/clubs/"+c.ID+"/tournaments/"+tr.ID+"?lang=ka"))
	wait("its standings", `document.querySelectorAll('[data-t="standings"] tbody tr').length === 20`)
	var fit struct {
		Wide    bool
		Tables  int
		Past    []string
		Exports int
	}
	eval("the page's width", `(() => ({
		wide: document.documentElement.scrollWidth > innerWidth + 1,
		tables: document.querySelectorAll('[data-t="table"]').length,
		past: [...document.querySelectorAll('[data-t="standings"] td, [data-t="standings"] th')]
			.filter((c) => c.getBoundingClientRect().right > innerWidth + 0.5).map((c) => c.textContent),
		exports: [...document.querySelectorAll('[data-t="game-export"] a')]
			.filter((a) => a.getBoundingClientRect().right <= innerWidth + 0.5 && a.getAttribute('href').includes('/export.json')).length,
	}))()`, &fit)
	if fit.Wide || len(fit.Past) > 0 || fit.Tables != 20 {
		t.Errorf("the page at 360 px: a sideways scroll %v, cells past the edge %v, %d tables (want 20)", fit.Wide, fit.Past, fit.Tables)
	}
	// the linked game's JSON in the three formats, inside the screen
	if fit.Exports == 0 || fit.Exports%3 != 0 {
		t.Errorf("the linked games' exports on the page: %d links inside 360 px", fit.Exports)
	}
}

func at(xs []string, i int) string {
	if i < len(xs) {
		return xs[i]
	}
	return ""
}

func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
