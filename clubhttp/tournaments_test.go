package clubhttp_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
	"mafia/store"
	"mafia/tournament"
)

// tournamentAnswer is a tournament as the API answers it.
type tournamentAnswer struct {
	tournament.Tournament
	Names   map[string]string
	Version int
	Setup   [][]string
}

// refusal is a coded refusal's body.
type refusal struct {
	Error struct{ Code, Message string }
}

// seatRoles are the cards by seat of the tournament's games here: 1-6
// town, 7 the maniac, 8 the Don, 9-10 mafia; the town wins every game.
var seatRoles = []string{"detective", "doctor", "citizen", "citizen", "citizen", "citizen", "maniac", "don", "mafioso", "mafioso"}

// TestTournaments_TheOrganiserSeatsLinksAndReadsTheStandings: on a real
// server on loopback with a real SQLite file, the club's host makes a
// tournament of 20 roster players on two tables for ten games each, seats
// its rounds, links each table's game (made as the assistant would, kept
// in the club's index), and reads the standings as JSON, CSV (translated
// and with ids) and the printable page in ka/en/ru; a round's table
// played twice, a player not on the roster, a change without the club's
// code and a final whose last place is shared are refused with their codes
// and their sentences in the three languages; the final is seated from
// the finalists the organiser names.
func TestTournaments_TheOrganiserSeatsLinksAndReadsTheStandings(t *testing.T) {
	ctx := context.Background()
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kept := games{}
	h := clubhttp.New(clubhttp.Config{Store: db, Games: kept})
	hs := httptest.NewServer(h)
	defer hs.Close()

	var c struct{ ID, Token string }
	if code := do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Tbilisi club"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	base := hs.URL + "/host/api/clubs/" + c.ID + "/tournaments"
	var ids []string
	for i := 1; i <= 20; i++ {
		var p club.Person
		name := fmt.Sprintf("ნინო %02d", i)
		if code := do(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token, map[string]any{"name": name}, &p); code != http.StatusCreated {
			t.Fatalf("add %s: %d", name, code)
		}
		ids = append(ids, p.ID)
	}
	req := map[string]any{"name": "Winter cup", "from": "2026-12-05", "to": "2026-12-06", "host": "Nino", "referee": "Giorgi",
		"players": ids, "tables": 2, "games": 10, "seed": 7, "tie_breaks": []string{"wins", "best_move", "extra", "fouls"}}

	// Refusals of the making.
	var no refusal
	if code := do(t, "POST", base, "", req, &no); code != http.StatusForbidden || no.Error.Code != "bad_token" {
		t.Errorf("without the club's code: %d %+v", code, no)
	}
	stranger := map[string]any{}
	for k, v := range req {
		stranger[k] = v
	}
	stranger["players"] = append(slices.Clone(ids[:19]), "000000000000")
	for _, lang := range []string{"ka", "en", "ru"} {
		var e refusal
		code := do(t, "POST", base+"?lang="+lang, c.Token, stranger, &e)
		if code != http.StatusBadRequest || e.Error.Code != "tournament_not_player" || !strings.Contains(e.Error.Message, "000000000000") {
			t.Errorf("%s: a player not on the roster: %d %+v", lang, code, e)
		}
	}

	var tr tournamentAnswer
	if code := do(t, "POST", base, c.Token, req, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	if tr.State != tournament.StateOpen || tr.Final.Size != 10 || tr.Final.Factor != 150 || tr.Names[ids[0]] != "ნინო 01" || tr.Version != 1 {
		t.Errorf("made: %+v", tr)
	}
	turl := base + "/" + tr.ID
	if code := do(t, "POST", turl+"/rounds", c.Token, nil, &tr); code != http.StatusOK {
		t.Fatalf("seat the rounds: %d", code)
	}
	if len(tr.Rounds) != 10 || len(tr.Rounds[0].Tables) != 2 || tr.State != tournament.StateRounds || len(tr.Setup) != 10 {
		t.Fatalf("seated: %d rounds, state %s", len(tr.Rounds), tr.State)
	}
	if want := "/host/#/new?club=" + c.ID + "&tournament=" + tr.ID + "&round=3&table=2"; tr.Setup[2][1] != want {
		t.Errorf("round 3 table 2's setup %q, want %q", tr.Setup[2][1], want)
	}
	if code := do(t, "POST", turl+"/rounds", c.Token, nil, &no); code != http.StatusConflict || no.Error.Code != "tournament_state" {
		t.Errorf("the rounds seated twice: %d %+v", code, no)
	}

	// Every table's game, as the assistant keeps it: the town wins; the
	// first town game of ids[0] gives them +0.70 and their second -0.20,
	// ids[1] is killed first in their first town game and names the three
	// mafia (+0.50). So ids[1] 6.50 (the best move breaks the tie), ids[0]
	// 6.50, and the 18 others 6.00, sharing third place.
	town := map[string]int{}
	for r, round := range tr.Rounds {
		for n, tb := range round.Tables {
			id := fmt.Sprintf("g%02d%d", r+1, n+1)
			g := club.Game{Date: "2026-12-05", Rules: "std", Winner: "town"}
			for s, p := range tb.Players {
				g.Seats = append(g.Seats, club.Seat{Seat: s + 1, Person: p, Name: tr.Names[p], Role: seatRoles[s]})
				if s >= 6 {
					continue
				}
				switch k := town[p]; {
				case p == ids[0] && k == 0:
					g.Extra = append(g.Extra, club.Extra{Seat: s + 1, Points: 70})
				case p == ids[0] && k == 1:
					g.Extra = append(g.Extra, club.Extra{Seat: s + 1, Points: -20})
				case p == ids[1] && k == 0:
					g.Seats[s].Out, g.Seats[s].OutOrder, g.Seats[s].OutRound = "night", 1, 1
					g.BestMove = &club.BestMove{Seat: s + 1, Guess: []int{8, 9, 10}}
				}
				town[p]++
			}
			kept[id] = g
			now := time.Now()
			if err := db.CreateTable(ctx, store.Table{ID: id, Kind: store.KindInPerson, Name: id, Status: "in_person_ended",
				CreatedAt: now, UpdatedAt: now}, nil); err != nil {
				t.Fatal(err)
			}
			if err := h.AddGame(ctx, c.ID, store.ClubGame{TableID: id, Day: "2026-12-05"}); err != nil {
				t.Fatal(err)
			}
			link := fmt.Sprintf("%s/rounds/%d/tables/%d/game", turl, r+1, n+1)
			if code := do(t, "PUT", link, c.Token, map[string]any{"game": id}, &tr); code != http.StatusOK {
				t.Fatalf("link %s: %d", id, code)
			}
		}
	}
	for _, lang := range []string{"ka", "en", "ru"} {
		var e refusal
		code := do(t, "PUT", turl+"/rounds/1/tables/1/game?lang="+lang, c.Token, map[string]any{"game": "g012"}, &e)
		if code != http.StatusConflict || e.Error.Code != "tournament_played_twice" || !strings.Contains(e.Error.Message, "1") {
			t.Errorf("%s: a table played twice: %d %+v", lang, code, e)
		}
	}
	if code := do(t, "PUT", turl+"/rounds/1/tables/1/game", c.Token, map[string]any{"game": "nope"}, &no); code != http.StatusNotFound {
		t.Errorf("a game not the club's: %d %+v", code, no)
	}

	var st struct {
		Games     int
		Standings []tournament.Standing
	}
	if code := do(t, "GET", turl+"/standings.json", "", nil, &st); code != http.StatusOK {
		t.Fatalf("standings: %d", code)
	}
	if st.Games != 20 || len(st.Standings) != 20 {
		t.Fatalf("standings: %d games, %d rows", st.Games, len(st.Standings))
	}
	got := []string{}
	for _, s := range st.Standings[:3] {
		got = append(got, fmt.Sprintf("%d %s %s", s.Place, s.Person, s.Points))
	}
	if want := []string{"1 " + ids[1] + " 6.50", "2 " + ids[0] + " 6.50", "3 " + ids[2] + " 6.00"}; !slices.Equal(got, want) {
		t.Errorf("standings %v, want %v", got, want)
	}
	if last := st.Standings[19]; last.Place != 3 || last.Points != 600 || last.Wins != 6 {
		t.Errorf("the last line %+v: place 3 shared by 18", last)
	}
	// By role: every player held every seat's card once.
	if br := st.Standings[0].ByRole; len(br) != 6 || br[0] != (club.RoleLine{Role: "town", Games: 6, Wins: 6, WinRate: 100}) ||
		br[2] != (club.RoleLine{Role: "don", Games: 1}) || br[3] != (club.RoleLine{Role: "detective", Games: 1, Wins: 1, WinRate: 100}) {
		t.Errorf("by role %+v", br)
	}

	// The final: the cut falls inside the shared third place.
	if code := do(t, "POST", turl+"/final", c.Token, map[string]any{}, &no); code != http.StatusConflict || no.Error.Code != "tournament_final_tie" {
		t.Errorf("a final at a shared place: %d %+v", code, no)
	}
	if code := do(t, "POST", turl+"/final", c.Token, map[string]any{"players": ids[:10]}, &tr); code != http.StatusOK {
		t.Fatalf("the final named: %d", code)
	}
	if fin := tr.Rounds[len(tr.Rounds)-1]; !fin.Final || len(fin.Tables[0].Players) != 10 || tr.State != tournament.StateFinal {
		t.Errorf("the final: %+v", fin)
	}

	// The CSVs: translated headers, and the ids for machines.
	rows := getCSV(t, turl+"/standings.csv?header=ids")
	if !slices.Equal(rows[0], tournament.StandingsHeader) || len(rows) != 21 || rows[1][1] != ids[1] || rows[1][3] != "yes" {
		t.Errorf("the CSV with ids: %v … %v", rows[0], rows[1])
	}
	if i := slices.Index(rows[0], "win_rate_town"); i < 0 || rows[1][i] != "100" || rows[1][i-2] != "6" {
		t.Errorf("the CSV's town columns: %v", rows[1])
	}
	if rows := getCSV(t, turl+"/standings.csv?lang=ka"); rows[0][0] != "ადგილი" || rows[1][2] != "ნინო 02" {
		t.Errorf("the CSV in Georgian: %v", rows[:2])
	}

	// The printable page in the three languages, with each table's setup.
	for lang, words := range map[string][]string{"ka": {"ტური 1", "მაგიდა 2", "ფინალი, თამაში 1", "ცხრილი"},
		"en": {"Round 1", "Table 2", "Final, game 1", "Standings"}, "ru": {"Тур 1", "Стол 2", "Финал, игра 1", "Турнирная таблица"}} {
		res, err := http.Get(hs.URL + "/host/clubs/" + c.ID + "/tournaments/" + tr.ID + "?lang=" + lang)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		page := string(b)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s page: %d", lang, res.StatusCode)
		}
		for _, w := range append(words, "Winter cup", "ნინო 02", "Giorgi", "tournament="+tr.ID+"&amp;round=11&amp;table=1",
			`data-t="by-role"`, ">6/6<", ">0/1<") {
			if !strings.Contains(page, w) {
				t.Errorf("%s page lacks %q", lang, w)
			}
		}
	}

	var list struct {
		Tournaments []struct{ ID, Name, State string }
	}
	if code := do(t, "GET", base, "", nil, &list); code != http.StatusOK || len(list.Tournaments) != 1 || list.Tournaments[0].State != "final" {
		t.Errorf("the club's tournaments: %d %+v", code, list)
	}
	if code := do(t, "POST", turl+"/close", c.Token, nil, &tr); code != http.StatusOK || tr.State != tournament.StateClosed {
		t.Errorf("close: %d %s", code, tr.State)
	}
	if code := do(t, "GET", hs.URL+"/host/api/clubs/other/tournaments/"+tr.ID, "", nil, &no); code != http.StatusNotFound {
		t.Errorf("a tournament under another club: %d", code)
	}
}

// getCSV reads a CSV answer, its byte-order mark dropped.
func getCSV(t *testing.T, url string) [][]string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(b), "\ufeff"))).ReadAll()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %v", url, res.StatusCode, err)
	}
	return rows
}
