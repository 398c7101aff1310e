package assist_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestAClubGameCountsInTheSeasonAsComputedByHand: a club, its roster (a
// search finds ნინო and Нино for "nino"), a game whose seats are the
// roster's, with the club's protocol fields, played to the end; the best
// move and extra points are checked and kept; the protocol exports them in
// JSON, CSV and print; the season's standings and CSVs match a hand
// computation; a merge moves the game to the entry merged into.
func TestAClubGameCountsInTheSeasonAsComputedByHand(t *testing.T) {
	ts := hosttest.StartServer(t)
	names := []string{"ნინო", "Гиорги", "Tamar", "Дато", "Levan", "Ana", "Saba", "Нино"}
	cl, people := hosttest.NewClubWith(t, ts, names...)

	var found struct{ People []hosttest.PersonJSON }
	hosttest.Call(t, "GET", ts.URL+"/host/api/clubs/"+cl.ID+"/people?q=nino", cl.Token, nil, &found)
	if len(found.People) != 2 || !slices.ContainsFunc(found.People, func(p hosttest.PersonJSON) bool { return p.Name == "ნინო" }) ||
		!slices.ContainsFunc(found.People, func(p hosttest.PersonJSON) bool { return p.Name == "Нино" }) {
		t.Errorf("search for nino: %+v; want ნინო and Нино", found.People)
	}
	if code := hosttest.Call(t, "GET", ts.URL+"/host/api/clubs/"+cl.ID+"/people?q=nino", "", nil, nil); code != http.StatusForbidden && code != http.StatusUnauthorized {
		t.Errorf("a search without the club's token: %d", code)
	}

	ids := make([]string, 7)
	for i := range ids {
		ids[i] = people[i].ID
	}
	req := map[string]any{"names": names[:7], "deal": record.DealManual, "roles": hosttest.Roles7, "club_token": cl.Token,
		"club": map[string]any{"club": cl.ID, "day": "2026-12-01", "host": "Irakli", "referee": "Eka", "table": "A", "number": 2, "people": ids}}
	var c hosttest.Created
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("create the club's game: %d", code)
	}
	bad := map[string]any{"names": names[:7], "deal": record.DealManual, "roles": hosttest.Roles7, "club_token": "wrong",
		"club": map[string]any{"club": cl.ID, "people": ids}}
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", bad, nil); code == http.StatusCreated {
		t.Errorf("a game for the club without its token was made")
	}
	hosttest.PlayClubGame(t, ts, c)

	score := func(body map[string]any) (int, string) {
		var out struct{ Error struct{ Code string } }
		code := hosttest.Call(t, "PUT", ts.URL+"/host/api/games/"+c.ID+"/score", c.HostToken, body, &out)
		return code, out.Error.Code
	}
	if code, e := score(map[string]any{"best_move": map[string]any{"seat": 3, "guess": []int{2, 4, 5}}, "extra": []any{}}); code != 400 || e != "bad_best_move" {
		t.Errorf("a best move by seat 3, not the first killed: %d %s", code, e)
	}
	if code, e := score(map[string]any{"best_move": nil, "extra": []any{map[string]any{"seat": 5, "points": 0.8}}}); code != 400 || e != "bad_extra" {
		t.Errorf("0.80 extra, over the club's 0.70: %d %s", code, e)
	}
	if code, e := score(map[string]any{"best_move": map[string]any{"seat": 1, "guess": []int{2, 4, 5}},
		"extra": []any{map[string]any{"seat": 5, "points": 0.3}, map[string]any{"seat": 3, "points": -0.2}}}); code != 200 {
		t.Fatalf("the score: %d %s", code, e)
	}

	// The protocol: JSON.
	var p struct {
		RulesCode string           `json:"rules_code"`
		Club      *record.ClubInfo `json:"club"`
		Seats     []record.SeatRecord
		Score     struct {
			BestMoveRight int `json:"best_move_right"`
			Lines         []struct {
				Total json.RawMessage `json:"total"`
				Won   bool            `json:"won"`
			}
		}
	}
	ts.GetJSON(t, "/host/api/games/"+c.ID+"/protocol.json", c.HostToken, &p)
	if p.RulesCode != "std" || p.Club == nil || p.Club.Host != "Irakli" || p.Club.Number != 2 || p.Seats[0].Person != ids[0] {
		t.Errorf("the protocol's club fields: %s %+v %+v", p.RulesCode, p.Club, p.Seats[0])
	}
	if p.Seats[6].Won || p.Seats[6].Out == nil || p.Seats[6].Out.Cause != "fouls" || !p.Seats[2].Won {
		t.Errorf("seat 7 removed by fouls: %+v; seat 3: %+v", p.Seats[6], p.Seats[2])
	}
	wantTotals := []string{"1.25", "0.00", "0.80", "0.00", "1.30", "1.00", "-0.50"}
	for i, l := range p.Score.Lines {
		if string(l.Total) != wantTotals[i] {
			t.Errorf("seat %d: %s points; want %s", i+1, l.Total, wantTotals[i])
		}
	}
	if p.Score.BestMoveRight != 2 {
		t.Errorf("best move right: %d; want 2 (2 and 4 of 2, 4, 5)", p.Score.BestMoveRight)
	}

	// CSV: the club's rows.
	rows := ts.CsvWith(t, c.ID, c.HostToken)
	kinds := map[string][]string{}
	for _, r := range rows[1:] {
		kinds[r[4]] = r
	}
	if r := kinds["host"]; r == nil || r[11] != "Irakli" {
		t.Errorf("the host's row: %v", r)
	}
	if r := kinds["best_move"]; r == nil || r[5] != "1" || r[15] != "2 4 5" || r[13] != "2" || r[17] != ids[0] {
		t.Errorf("the best move's row: %v", r)
	}
	if r := kinds["rules"]; r == nil || r[11] != "std" {
		t.Errorf("the rules' row: %v", r)
	}

	// Print: the best move, no win for seat 7, the points.
	res, err := http.Get(ts.URL + "/host/games/" + c.ID + "?lang=en")
	if err != nil {
		t.Fatal(err)
	}
	page := hosttest.ReadAll(t, res)
	for _, want := range []string{"Best move by 1\u00a0·\u00a0ნინო: 2\u00a0·\u00a0Гиорги, 4\u00a0·\u00a0Дато, 5\u00a0·\u00a0Levan", "mafia named right: 2 of 3", "Host: Irakli", "Referee: Eka", "Rules code: std",
		`<td data-t="won"></td><td data-t="points">-0.50</td>`, `<td data-t="won">✓</td><td data-t="points">1.25</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the printable protocol lacks %q", want)
		}
	}

	// The season's standings, by hand (the defaults: win 1.00, best move
	// with two right 0.25, extra as given, removal by fouls -0.50).
	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/clubs/"+cl.ID+"/seasons/winter", cl.Token,
		map[string]any{"name": "Winter", "from": "2026-12-01", "to": "2027-02-28"}, nil); code != 200 {
		t.Fatalf("the season: %d", code)
	}
	standing := func() []string {
		res, err := http.Get(ts.URL + "/host/api/clubs/" + cl.ID + "/seasons/winter/standings.csv?lang=en")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out []string
		for _, r := range hosttest.ReadCSV(t, res.Body)[1:] {
			out = append(out, strings.Join([]string{r[0], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[14]}, " "))
		}
		return out
	}
	// place name points games average wins wins_town wins_mafia foul_removals
	want := []string{
		"1 Levan 1.30 1 1.30 1 1 0 0",
		"2 ნინო 1.25 1 1.25 1 1 0 0",
		"3 Ana 1.00 1 1.00 1 1 0 0",
		"4 Tamar 0.80 1 0.80 1 1 0 0",
		"5 Дато 0.00 1 0.00 0 0 0 0",
		"5 Гиорги 0.00 1 0.00 0 0 0 0",
		"7 Saba -0.50 1 -0.50 0 0 0 1",
	}
	if got := standing(); !slices.Equal(got, want) {
		t.Errorf("standings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	res, err = http.Get(ts.URL + "/host/api/clubs/" + cl.ID + "/games.csv?season=winter&lang=en")
	if err != nil {
		t.Fatal(err)
	}
	games := hosttest.ReadCSV(t, res.Body)
	res.Body.Close()
	if len(games) != 8 || games[0][9] != "Roster id" {
		t.Fatalf("games.csv: %d rows, header %v", len(games), games[0])
	}
	row7 := append(slices.Clone(games[7][:2]), games[7][3:]...) // without the game's name
	if got := strings.Join(row7, ","); got != c.ID+",2026-12-01,A,2,Irakli,Eka,std,7,"+ids[6]+",Saba,citizen,town,no,yes,no,,,0.00,0.00,0.00,-0.50,-0.50,0.00" {
		t.Errorf("games.csv, seat 7: %s", got)
	}

	// A merge: ნინო's entry into Нино's; the game counts as Нино's.
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/clubs/"+cl.ID+"/merges", cl.Token, map[string]any{"from": ids[0], "into": people[7].ID}, nil); code != 200 {
		t.Fatalf("merge: %d", code)
	}
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/clubs/"+cl.ID+"/merges", cl.Token, map[string]any{"from": ids[0], "into": people[7].ID}, nil); code != http.StatusConflict {
		t.Errorf("the same merge again: %d; want 409", code)
	}
	want[1] = "2 Нино 1.25 1 1.25 1 1 0 0"
	if got := standing(); !slices.Equal(got, want) {
		t.Errorf("standings after the merge:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
