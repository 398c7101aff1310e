package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist"
	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/store"
	"mafia/store/sqlite"
)

// keptGames are the club's finished games as the assistant would keep them
// (clubhttp.Games), made by the test.
type keptGames struct {
	mu sync.Mutex
	m  map[string]club.Game
}

func (k *keptGames) ClubGame(_ context.Context, id string) (club.Game, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	g, ok := k.m[id]
	return g, ok
}

func (k *keptGames) put(id string, g club.Game) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.m[id] = g
}

// seatCards are the cards by seat of the organiser test's games: the town
// wins each.
var seatCards = []string{"detective", "doctor", "citizen", "citizen", "citizen", "citizen", "maniac", "don", "mafioso", "mafioso"}

// TestTheOrganiserRunsATournamentFromTheScreen: on a phone (360×740, in
// Georgian) that keeps the club, the club's screen links to the
// organiser's screen; a tournament with no name is refused with the API's
// Georgian sentence shown; the organiser ticks 20 players of the roster,
// chooses the FIIM scoring, a tie-break order, 2 tables, 2 games, a final
// of 10 at ×1.5, the host, the referee and a pair kept apart, and makes
// it; seats the rounds (each table's seats shown as the API has them, the
// pair never at one table, every game missing); a game id that is not the
// club's is refused in Georgian; each table's game is linked from its card
// (each then offers its extra points' form, saying the rule for its host's);
// the final is seated (the finalists ticked when the cut is in a shared
// place), its game linked, and the tournament closed, the standings one
// tap away. No page scrolls sideways.
func TestTheOrganiserRunsATournamentFromTheScreen(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kept := &keptGames{m: map[string]club.Game{}}
	clubs := clubhttp.New(clubhttp.Config{Store: db, Games: kept, Files: assist.Version()})
	host := assist.New(assist.Config{Store: db, Clubs: clubs})
	mux := http.NewServeMux()
	mux.Handle("/host/api/clubs", clubs)
	mux.Handle("/host/api/clubs/", clubs)
	mux.Handle("/host/clubs/", clubs)
	mux.Handle("/", host)
	hs := httptest.NewServer(mux)
	defer hs.Close()

	var c struct{ ID, Token, Name string }
	if code := call(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "ქუთაისის კლუბი"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	var ids []string
	for i := 1; i <= 21; i++ {
		var p struct{ ID string }
		if code := call(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token,
			map[string]any{"name": fmt.Sprintf("თამარ %02d", i)}, &p); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
		ids = append(ids, p.ID)
	}
	base := hs.URL + "/host/api/clubs/" + c.ID + "/tournaments"

	ctx := browsertest.Tab(t, browser.Context(t))
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	defer cancelT()
	page, wait, eval, press, fits := drive(t, ctx)
	// wide checks the page's width and keeps its screenshot where
	// screenshots are kept.
	wide := func(what string) {
		t.Helper()
		fits(what)
		if !browsertest.KeepShots() {
			return // kept nowhere: not taken
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("%s: screenshot: %v", what, err)
		}
		dir := os.Getenv("MAFIA_SCREENSHOTS")
		if dir == "" {
			dir = t.ArtifactDir()
		}
		_ = os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, "organiser-"+strings.ReplaceAll(what, " ", "-")+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v\npage:\n%s", what, err, page())
		}
	}
	errorShown := func(what, want string) {
		t.Helper()
		wait(what, `(() => { const e = document.querySelector('[data-t="error"]'); return !!e && !e.hidden && e.textContent === `+
			string(mustJSON(want))+`; })()`)
	}

	keep, _ := json.Marshal(map[string]string{"id": c.ID, "token": c.Token, "name": c.Name})
	run("open the assistant", chromedp.EmulateViewport(360, 740), chromedp.Navigate(hs.URL+"/host/?lang=ka"))
	wait("the home screen", `!!document.querySelector('[data-t="new-game"]')`)
	var ok bool
	eval("keep the club", `(() => { localStorage.setItem('assist.club', `+string(mustJSON(string(keep)))+`); return true; })()`, &ok)
	run("the club's screen", chromedp.Navigate(hs.URL+"/host/?lang=ka#/club"))
	wait("the organiser's link", `(() => { const a = document.querySelector('[data-t="tournaments"] a[data-t="organiser"]');
		return !!a && a.getAttribute('href') === '/host/clubs/`+c.ID+`/organiser?lang=ka'; })()`)
	run("follow the link", chromedp.Navigate(hs.URL+"/host/clubs/"+c.ID+"/organiser?lang=ka"))
	wait("the form", `document.querySelectorAll('[data-t="player"]').length === 21`)
	wide("the making page")

	// A tournament with no name: the API's refusal, in Georgian, on the page.
	var want struct {
		Error struct{ Code, Message string }
	}
	call(t, "POST", base+"?lang=ka", c.Token, map[string]any{"name": "", "from": "2026-12-06", "to": "2026-12-06"}, &want)
	if want.Error.Code != "bad_tournament" || want.Error.Message == "" {
		t.Fatalf("the API's refusal of no name: %+v", want)
	}
	press("make it with no name", `[data-t="create"]`)
	errorShown("the refusal of no name", want.Error.Message)

	// The form, filled in as the organiser would.
	fill := `(() => {
		const set = (t, v) => { const e = document.querySelector('[data-t="' + t + '"]'); e.value = v; e.dispatchEvent(new Event('input', { bubbles: true })); e.dispatchEvent(new Event('change', { bubbles: true })); };
		set('name', 'შემოდგომის თასი'); set('from', '2026-12-06'); set('to', '2026-12-07');
		const skip = ` + string(mustJSON(ids[20])) + `;
		for (const b of document.querySelectorAll('[data-t="player"]')) if (b.value !== skip) b.click();
		set('scoring', 'fiim'); set('tie-1', 'wins'); set('tie-2', 'head_to_head'); set('tie-3', ''); set('tie-4', ''); set('tie-5', '');
		set('tables', '2'); set('seats', '10'); set('games', '2'); set('final-size', '10'); set('final-games', '1'); set('final-factor', '1.5');
		set('host', 'ნინო'); set('referee', 'გიორგი'); set('seed', '3');
		document.querySelector('[data-t="pair-add"]').click();
		set('pair-1-a', ` + string(mustJSON(ids[0])) + `); set('pair-1-b', ` + string(mustJSON(ids[1])) + `);
		return document.querySelector('[data-t="players-n"]').textContent;
	})()`
	var n string
	eval("fill the form", fill, &n)
	if !strings.Contains(n, "20") {
		t.Errorf("the players counted: %q", n)
	}
	press("make it", `[data-t="create"]`)
	wait("the tournament's page", `location.pathname.startsWith('/host/clubs/`+c.ID+`/organiser/') && !!document.querySelector('[data-t="seat-rounds"]')`)
	var path string
	eval("its address", `location.pathname`, &path)
	tid := path[strings.LastIndex(path, "/")+1:]

	type answer struct {
		State     string
		Host      string
		Referee   string
		TieBreaks []string `json:"tie_breaks"`
		Scoring   club.Scoring
		Avoid     [][2]string
		Final     struct {
			Size, Games int
			Factor      club.Points
		}
		Rounds []struct {
			Final  bool
			Tables []struct {
				Players []string
				Game    string
			}
		}
		Names map[string]string
	}
	var tr answer
	if code := call(t, "GET", base+"/"+tid, "", nil, &tr); code != http.StatusOK {
		t.Fatalf("read the tournament: %d", code)
	}
	fiim, _ := club.PresetScoring(club.PresetFIIM)
	if tr.State != "open" || tr.Host != "ნინო" || tr.Referee != "გიორგი" || !slices.Equal(tr.TieBreaks, []string{"wins", "head_to_head"}) ||
		tr.Scoring != fiim || len(tr.Avoid) != 1 || tr.Avoid[0] != [2]string{ids[0], ids[1]} || tr.Final.Size != 10 ||
		tr.Final.Factor != 150 || len(tr.Names) != 20 {
		t.Errorf("made: %+v", tr)
	}

	press("seat the rounds", `[data-t="seat-rounds"]`)
	wait("the seating", `document.querySelectorAll('[data-t="table"]').length === 4 && document.querySelectorAll('[data-t="missing"]').length === 4`)
	wide("the seating")
	if code := call(t, "GET", base+"/"+tid, "", nil, &tr); code != http.StatusOK || tr.State != "rounds" || len(tr.Rounds) != 2 {
		t.Fatalf("seated: %d %s %d rounds", code, tr.State, len(tr.Rounds))
	}
	var shown [][][]string // round, table, seats' names
	eval("the seating shown", `[...document.querySelectorAll('[data-t="round"]')].map((r) =>
		[...r.querySelectorAll('[data-t="table"]')].map((tb) => [...tb.querySelectorAll('li')].map((li) => li.dataset.person)))`, &shown)
	for r, round := range tr.Rounds {
		for n, tb := range round.Tables {
			if r >= len(shown) || n >= len(shown[r]) || !slices.Equal(shown[r][n], tb.Players) {
				t.Errorf("round %d table %d: shown %v, want %v", r+1, n+1, shown, tb.Players)
			}
			if slices.Contains(tb.Players, ids[0]) && slices.Contains(tb.Players, ids[1]) {
				t.Errorf("round %d table %d seats the pair kept apart", r+1, n+1)
			}
		}
	}

	// Each table's game, kept by the club, linked from the table's card.
	ctxb := context.Background()
	makeGame := func(id string, players []string) {
		g := club.Game{Date: "2026-12-06", Rules: "std", Winner: "town"}
		for s, p := range players {
			g.Seats = append(g.Seats, club.Seat{Seat: s + 1, Person: p, Name: tr.Names[p], Role: seatCards[s]})
		}
		kept.put(id, g)
		now := time.Now()
		if err := db.CreateTable(ctxb, store.Table{ID: id, Kind: store.KindInPerson, Name: id, Status: "in_person_ended",
			CreatedAt: now, UpdatedAt: now}, nil); err != nil {
			t.Fatal(err)
		}
		if err := clubs.AddGame(ctxb, c.ID, store.ClubGame{TableID: id, Day: "2026-12-06"}); err != nil {
			t.Fatal(err)
		}
	}
	link := func(r, n int, id string) {
		t.Helper()
		card := fmt.Sprintf(`[data-t="table"][data-round="%d"][data-table="%d"]`, r, n)
		var ok bool
		eval("type the game's id", `(() => { const i = document.querySelector('`+card+` [data-t="game-id"]'); if (!i) return false;
			i.value = `+string(mustJSON(id))+`; return true; })()`, &ok)
		if !ok {
			t.Fatalf("round %d table %d has no game field\npage:\n%s", r, n, page())
		}
		press("link", card+` [data-t="link"]`)
	}
	var notFound struct {
		Error struct{ Code, Message string }
	}
	call(t, "PUT", base+"/"+tid+"/rounds/1/tables/1/game?lang=ka", c.Token, map[string]any{"game": "nope"}, &notFound)
	link(1, 1, "nope")
	errorShown("a game not the club's", notFound.Error.Message)
	for r, round := range tr.Rounds {
		for n, tb := range round.Tables {
			id := fmt.Sprintf("g%d%d", r+1, n+1)
			makeGame(id, tb.Players)
			link(r+1, n+1, id)
			wait("linked", fmt.Sprintf(`(() => { const c = document.querySelector('[data-t="table"][data-round="%d"][data-table="%d"] [data-t="linked"]');
				return !!c && c.textContent.includes('%s'); })()`, r+1, n+1, id))
		}
	}
	// A real table's linked game takes its extras here too: each form says
	// that the ones saved here replace its host's, and that the host's
	// (none in these games) count now.
	var atTable struct {
		Forms, Rules, Host int
		Text               string
	}
	eval("the real tables' extras", `(() => { const r = document.querySelectorAll('[data-t="extra-rule"]');
		return { forms: document.querySelectorAll('[data-t="extra"]').length, rules: r.length,
			host: document.querySelectorAll('[data-t="extra-counting"][data-given="host"]').length, text: r.length ? r[0].textContent : '' }; })()`, &atTable)
	if atTable.Forms != 4 || atTable.Rules != 4 || atTable.Host != 4 || !strings.Contains(atTable.Text, "ასისტენტში") {
		t.Errorf("the real tables' extras: %d forms, %d rules, %d counting the host's, %q", atTable.Forms, atTable.Rules, atTable.Host, atTable.Text)
	}

	// The final: the top ten, or the ten the organiser ticks at a shared place.
	var before struct{ Standings []struct{ Place int } }
	if code := call(t, "GET", base+"/"+tid+"/standings.json", "", nil, &before); code != http.StatusOK || len(before.Standings) != 20 {
		t.Fatalf("the standings before the final: %d", code)
	}
	shared := before.Standings[9].Place == before.Standings[10].Place
	t.Logf("the cut of the final in a shared place: %v", shared)
	press("seat the final", `[data-t="seat-final"]`)
	wait("the final or its finalists", `!!document.querySelector('[data-t="seat-finalists"]') || document.querySelector('[data-t="state"]').dataset.state === 'final'`)
	var ticked bool
	eval("finalists asked", `!!document.querySelector('[data-t="seat-finalists"]')`, &ticked)
	if ticked != shared {
		t.Errorf("the finalists asked for: %v; the cut in a shared place: %v", ticked, shared)
	}
	if ticked {
		var tie struct {
			Error struct{ Code, Message string }
		}
		call(t, "POST", base+"/"+tid+"/final?lang=ka", c.Token, map[string]any{}, &tie)
		errorShown("the shared place's refusal", tie.Error.Message)
		var count int
		eval("the ticks", `document.querySelectorAll('[data-t="finalist"]:checked').length`, &count)
		if count != 10 {
			t.Errorf("%d finalists ticked first, want 10", count)
		}
		press("seat these finalists", `[data-t="seat-finalists"]`)
	}
	wait("the final seated", `document.querySelector('[data-t="state"]').dataset.state === 'final' && document.querySelectorAll('[data-t="round"]').length === 3`)
	if code := call(t, "GET", base+"/"+tid, "", nil, &tr); code != http.StatusOK || len(tr.Rounds) != 3 || !tr.Rounds[2].Final {
		t.Fatalf("the final: %d %+v", code, tr.Rounds)
	}
	makeGame("final1", tr.Rounds[2].Tables[0].Players)
	link(3, 1, "final1")
	wait("the final linked", `!!document.querySelector('[data-t="table"][data-round="3"] [data-t="linked"]')`)
	press("close", `[data-t="close"]`)
	wait("closed", `document.querySelector('[data-t="state"]').dataset.state === 'closed' && !document.querySelector('[data-t="game-id"]')`)
	wide("the closed tournament")
	var href string
	eval("the standings' link", `document.querySelector('[data-t="standings"]').getAttribute('href')`, &href)
	if href != "/host/clubs/"+c.ID+"/tournaments/"+tid+"?lang=ka" {
		t.Errorf("the standings' link %q", href)
	}
	var st struct {
		State     string
		Games     int
		Standings []struct{ Finalist bool }
	}
	if code := call(t, "GET", base+"/"+tid+"/standings.json", "", nil, &st); code != http.StatusOK || st.State != "closed" || st.Games != 5 || len(st.Standings) != 20 {
		t.Errorf("the standings: %d %s, %d games, %d lines", code, st.State, st.Games, len(st.Standings))
	}
}
