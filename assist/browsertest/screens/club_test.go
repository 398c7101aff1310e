package screens

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheHostSeatsTheClubsRosterAndRecordsItsPoints: on the host's phone,
// the club is entered by its code; the seats are picked from the roster by
// a search in another script ("nino" finds ნინო and Нино) or added on the
// spot; the protocol's club fields are filled in; the game is played to
// the town's win with a player removed by fouls; at the end the host
// records the first-killed player's best move and extra points. The
// protocol carries the roster ids and points, the removed player is no
// winner, and the season's standings page and CSV match a hand
// computation.
func TestTheHostSeatsTheClubsRosterAndRecordsItsPoints(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	cl, people := hosttest.NewClubWith(t, ts, "ნინო", "Нино", "Гиорги", "Tamar", "დათო", "Levan", "Ana")
	byName := map[string]string{}
	for _, p := range people {
		byName[p.Name] = p.ID
	}
	h := hosttest.OpenHost(t, ts, "club")
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.Tap("size-7")
	h.Click(`[data-t="deal-manual"]`)
	h.SetValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.Tap("club-join")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="club-joined"]')`)

	// Each seat: a search, then a pick (seat 7 is new: added on the spot).
	seats := []struct{ query, pick string }{{"nino", "ნინო"}, {"giorgi", "Гиорги"}, {"тамар", "Tamar"}, {"dato", "დათო"},
		{"levan", "Levan"}, {"ана", "Ana"}, {"Saba", ""}}
	for i, s := range seats {
		n := strconv.Itoa(i + 1)
		h.SetValue(`[data-t="name-`+n+`"]`, s.query)
		if s.pick == "" {
			h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="add-`+n+`"]')`)
			h.Tap("add-" + n)
		} else {
			sel := `[data-t="pick-` + n + `"][data-person="` + byName[s.pick] + `"]`
			h.WaitJS(5*time.Second, `!!document.querySelector('`+sel+`')`)
			if i == 0 {
				found := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t="pick-1"]')].map((b) => b.textContent)`)
				if !slices.Contains(found, "ნინო") || !slices.Contains(found, "Нино") {
					t.Errorf("the search for nino offers %v; want ნინო and Нино", found)
				}
			}
			h.Click(sel)
		}
		h.WaitJS(5*time.Second, `document.querySelector('[data-t="name-`+n+`"]').dataset.person !== ''`)
		h.SetValue(`[data-t="role-`+n+`"]`, hosttest.Roles7[i])
	}
	h.SetValue(`[data-t="club-host"]`, "Irakli")
	h.SetValue(`[data-t="club-referee"]`, "Eka")
	h.SetValue(`[data-t="club-table"]`, "A")
	h.SetValue(`[data-t="club-number"]`, "3")
	h.Shot("club-01-setup")
	h.Tap("create")
	h.WaitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame`)
	id := strings.TrimPrefix(hosttest.Eval[string](h.Tab, `location.hash`), "#/game/")

	// The don kills 1 on night 1; 7 is removed by fouls on day 1; the town
	// votes out 2, then 4.
	fouls := 0
	h.Play(hosttest.Driver{
		Night: func(st record.State, w record.Wake) int {
			if w.Role == "mafia" && st.Round == 1 && slices.Contains(w.Targets, 1) {
				return 1
			}
			return 0
		},
		Fouls: func(st record.State, screen string) []int {
			if screen == "speech" && fouls < 4 {
				fouls++
				return []int{7}
			}
			return nil
		},
		Nominate: func(st record.State) int {
			for _, s := range []int{2, 4} {
				if slices.Contains(st.Nominate, s) {
					return s
				}
			}
			return 0
		},
	})
	h.WaitJS(hosttest.SyncWait, `!!document.querySelector('[data-t="save-score"]')`)
	for _, s := range []string{"2", "4", "5"} {
		h.Tap("guess-" + s)
	}
	h.SetValue(`[data-t="extra-5"]`, "0.3")
	h.SetValue(`[data-t="extra-3"]`, "-0.2")
	h.Tap("save-score")
	// The points of the save's answer (the page's first load of the game's
	// score may draw the points before it, without the guesses and extras).
	h.WaitJS(10*time.Second, `document.querySelector('[data-t="score"]').dataset.saved === 'yes' && !!document.querySelector('[data-t="points-1"]')`)
	h.Shot("club-02-points")
	want := []string{"1.25", "0.00", "0.80", "0.00", "1.30", "1.00", "-0.50"}
	for i, w := range want {
		if got := hosttest.Eval[string](h.Tab, `document.querySelector('[data-t="points-`+strconv.Itoa(i+1)+`"]').textContent`); got != w {
			t.Errorf("seat %d shows %s points; want %s", i+1, got, w)
		}
	}

	var p struct {
		Club  *record.ClubInfo `json:"club"`
		Seats []record.SeatRecord
	}
	tok := h.Token(id)
	ts.GetJSON(t, "/host/api/games/"+id+"/protocol.json", tok, &p)
	if p.Club == nil || p.Club.Host != "Irakli" || p.Club.Referee != "Eka" || p.Club.Table != "A" || p.Club.Number != 3 || len(p.Club.People) != 7 {
		t.Fatalf("the protocol's club fields: %+v", p.Club)
	}
	if p.Seats[0].Person != byName["ნინო"] || p.Seats[6].Person == "" || p.Seats[6].Won || !p.Seats[5].Won {
		t.Errorf("seats: %+v", p.Seats)
	}

	h.PrintPage(id, "club-03-protocol")
	if got := hosttest.Eval[string](h.Tab, `document.querySelector('tr[data-seat="7"] [data-t="won"]').textContent`); got != "" {
		t.Errorf("seat 7, removed by fouls, is marked a winner in the printable protocol: %q", got)
	}
	if !strings.Contains(h.Text(), "Irakli") {
		t.Errorf("the printable protocol does not name the host")
	}

	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/clubs/"+cl.ID+"/seasons/winter", cl.Token,
		map[string]any{"name": "Winter", "from": "2026-01-01", "to": "2030-12-31"}, nil); code != http.StatusOK {
		t.Fatalf("the season: %d", code)
	}
	h.Do(10*time.Second, hosttest.Navigate(ts.URL+"/host/clubs/"+cl.ID+"/seasons/winter?lang=en"))
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="standings"]')`)
	h.Shot("club-04-standings")
	rows := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t="standings"] tbody tr')].map((r) => [...r.cells].slice(0, 7).map((c) => c.textContent).filter((_, i) => i !== 1).join(' '))`)
	// place name points games average wins, by hand as in the API's test.
	wantRows := []string{"1 Levan 1.30 1 1.30 1", "2 ნინო 1.25 1 1.25 1", "3 Ana 1.00 1 1.00 1", "4 Tamar 0.80 1 0.80 1",
		"5 დათო 0.00 1 0.00 0", "5 Гиорги 0.00 1 0.00 0", "7 Saba -0.50 1 -0.50 0"} // a tie: by the name in Latin (dato, giorgi)
	if !slices.Equal(rows, wantRows) {
		t.Errorf("the printable standings:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(wantRows, "\n"))
	}
}

// TestTheClubScreenMakesASeasonAndMergesTwoEntries: on the club's screen
// (#/club) the host enters the club by its code, makes a season, merges
// ნინო, who played a game, into Нино, and makes a win worth 2.00; the
// season's standings count the game as Нино's, by the new points.
func TestTheClubScreenMakesASeasonAndMergesTwoEntries(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	names := []string{"ნინო", "Гиорги", "Tamar", "Дато", "Levan", "Ana", "Saba", "Нино"}
	cl, people := hosttest.NewClubWith(t, ts, names...)
	ids := make([]string, 7)
	for i := range ids {
		ids[i] = people[i].ID
	}
	var c hosttest.Created
	req := map[string]any{"names": names[:7], "deal": record.DealManual, "roles": hosttest.Roles7, "club_token": cl.Token,
		"club": map[string]any{"club": cl.ID, "day": "2026-12-01", "people": ids}}
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	hosttest.PlayClubGame(t, ts, c)
	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/games/"+c.ID+"/score", c.HostToken, map[string]any{
		"best_move": map[string]any{"seat": 1, "guess": []int{2, 4, 5}}, "extra": []any{map[string]any{"seat": 5, "points": 0.3}}}, nil); code != http.StatusOK {
		t.Fatalf("the score: %d", code)
	}

	h := hosttest.OpenHost(t, ts, "club-screen")
	h.Tap("club")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="club-code"]')`)
	h.SetValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.Tap("club-join")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="seasons"]')`)
	h.SetValue(`[data-t="season-name"]`, "Winter 2026")
	h.SetValue(`[data-t="season-from"]`, "2026-12-01")
	h.SetValue(`[data-t="season-to"]`, "2027-02-28")
	h.Tap("season-save")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-season="winter-2026"] [data-t="standings"]')`)

	h.SetValue(`[data-t="merge-`+ids[0]+`"]`, people[7].ID)
	h.Tap("merge-go-" + ids[0])
	h.WaitJS(5*time.Second, `!document.querySelector('[data-t="roster"] [data-person="`+ids[0]+`"]')`)
	// The club's points: a win is 2.00 from now on, for every game.
	h.Click(`[data-t="scoring"] summary`)
	h.SetValue(`[data-t="scoring-win"]`, "2")
	h.Tap("scoring-save")
	h.WaitJS(5*time.Second, `document.querySelector('[data-t="scoring-win"]').value === '2.00'`)
	h.Shot("club-05-screen")

	h.Do(10*time.Second, hosttest.Navigate(ts.URL+"/host/clubs/"+cl.ID+"/seasons/winter-2026?lang=en"))
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="standings"]')`)
	rows := hosttest.Eval[[]string](h.Tab, `[...document.querySelectorAll('[data-t="standings"] tbody tr')].map((r) => [...r.cells].slice(0, 4).map((c) => c.textContent).join(' '))`)
	if len(rows) != 7 || rows[0] != "1 "+ids[4]+" Levan 2.30" || rows[1] != "2 "+people[7].ID+" Нино 2.25" {
		t.Errorf("the standings after the merge:\n%s\nwant Levan 2.30 (a win at 2.00 and 0.30), then ნინო's game under Нино with 2.25", strings.Join(rows, "\n"))
	}
}

// TestWithoutTheServerTheClubsGameIsMadeOnThePhone: the roster needs the
// server; while it cannot be reached, the setup says so, the names typed
// are guests, and the game is made on the phone with the club's fields
// and the roster ids picked before; once the server is back it takes the
// game, which counts for the club.
func TestWithoutTheServerTheClubsGameIsMadeOnThePhone(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	cl, people := hosttest.NewClubWith(t, ts, "ნინო")
	h := hosttest.OpenHost(t, ts, "club-offline")
	h.Tap("new-game")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="create"]')`)
	h.Tap("size-7")
	h.SetValue(`[data-t="club-code"]`, cl.ID+"."+cl.Token)
	h.Tap("club-join")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="club-joined"]')`)
	h.Click(`[data-t="deal-pass"]`)
	h.SetValue(`[data-t="name-1"]`, "nino")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="pick-1"][data-person="`+people[0].ID+`"]')`)
	h.Click(`[data-t="pick-1"][data-person="` + people[0].ID + `"]`)

	ts.Down.Store(true)
	h.SetValue(`[data-t="name-2"]`, "Giorgi")
	h.WaitJS(5*time.Second, `!!document.querySelector('[data-t="found-2"] [data-t="roster-offline"]')`)
	for i, n := range []string{"Tamar", "Levan", "Ana", "Dato", "Eka"} {
		h.SetValue(`[data-t="name-`+strconv.Itoa(i+3)+`"]`, n)
	}
	h.SetValue(`[data-t="club-host"]`, "Irakli")
	// Create is pressed from the page: the roster's "no connection" notes
	// come in one by one under the names as their look-ups fail, moving
	// the button while a tap aimed from the test is on its way (it was
	// lost so in CI).
	hosttest.Eval[bool](h.Tab, `(document.querySelector('[data-t="create"]').click(), true)`)
	h.WaitJS(10*time.Second, `location.hash.startsWith('#/game/') && !!window.__assistGame && !!window.__assistGame.rec.create`)
	id := strings.TrimPrefix(hosttest.Eval[string](h.Tab, `location.hash`), "#/game/")

	ts.Down.Store(false)
	h.WaitJS(hosttest.SyncWait, `!window.__assistGame.rec.create && document.getElementById('sync').dataset.waiting === '0'`)
	var p struct {
		Club *record.ClubInfo `json:"club"`
	}
	ts.GetJSON(t, "/host/api/games/"+id+"/protocol.json", h.Token(id), &p)
	if p.Club == nil || p.Club.Club != cl.ID || p.Club.Host != "Irakli" || p.Club.PersonOf(1) != people[0].ID || p.Club.PersonOf(2) != "" {
		t.Errorf("the game made on the phone: club %+v", p.Club)
	}
	if games, err := ts.DB.ClubGames(t.Context(), cl.ID); err != nil || len(games) != 1 || games[0].TableID != id {
		t.Errorf("the club's games: %+v, %v", games, err)
	}
}
