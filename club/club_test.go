package club

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mafia/engine"
)

// seven is a 7-seat game: 1 don, 2 mafia, 3 maniac, 4 detective, 5 doctor,
// 6 and 7 citizens.
func seven(id, date, winner string, outs ...Seat) Game {
	roles := []string{"don", "mafia", "maniac", "detective", "doctor", "citizen", "citizen"}
	g := Game{ID: id, Date: date, Winner: winner, Rules: "std"}
	for i, r := range roles {
		g.Seats = append(g.Seats, Seat{Seat: i + 1, Person: "p" + string(rune('1'+i)), Name: "P" + string(rune('1'+i)), Role: r})
	}
	for _, o := range outs {
		i := o.Seat - 1
		g.Seats[i].Out, g.Seats[i].OutOrder, g.Seats[i].OutRound = o.Out, o.OutOrder, o.OutRound
	}
	return g
}

// TestWon_ARemovalByFoulsIsNeverAWin, whatever the side's result.
func TestWon_ARemovalByFoulsIsNeverAWin(t *testing.T) {
	for _, c := range []struct {
		role, out, winner string
		want              bool
	}{
		{"citizen", "", "town", true},
		{"citizen", "night", "town", true},
		{"citizen", "fouls", "town", false},
		{"don", "fouls", "mafia", false},
		{"mafia", "vote", "mafia", true},
		{"maniac", "", "maniac", true},
		{"maniac", "", "town", false},
		{"don", "", "maniac", false},
		{"citizen", "", "draw", false},
		{"maniac", "fouls", "maniac", false},
	} {
		if got := Won(Seat{Role: c.role, Out: c.out}, c.winner); got != c.want {
			t.Errorf("%s out by %q, %s won: Won = %v; want %v", c.role, c.out, c.winner, got, c.want)
		}
	}
}

// TestFirstKilled_IsTheFirstNightsVictimBeforeAnyOtherExit.
func TestFirstKilled_IsTheFirstNightsVictimBeforeAnyOtherExit(t *testing.T) {
	for _, c := range []struct {
		name string
		outs []Seat
		want []int
	}{
		{"the first night's victim", []Seat{{Seat: 4, Out: "night", OutOrder: 1, OutRound: 1}, {Seat: 6, Out: "vote", OutOrder: 2, OutRound: 1}}, []int{4}},
		{"two victims of one night", []Seat{{Seat: 4, Out: "night", OutOrder: 1, OutRound: 2}, {Seat: 6, Out: "night", OutOrder: 2, OutRound: 2}}, []int{4, 6}},
		{"the next night's victim is not", []Seat{{Seat: 4, Out: "night", OutOrder: 1, OutRound: 1}, {Seat: 6, Out: "night", OutOrder: 2, OutRound: 2}}, []int{4}},
		{"a vote came first", []Seat{{Seat: 6, Out: "vote", OutOrder: 1, OutRound: 1}, {Seat: 4, Out: "night", OutOrder: 2, OutRound: 2}}, nil},
		{"a removal by fouls came first", []Seat{{Seat: 6, Out: "fouls", OutOrder: 1, OutRound: 1}, {Seat: 4, Out: "night", OutOrder: 2, OutRound: 1}}, nil},
		{"nobody left", nil, nil},
	} {
		g := seven("g", "2026-01-01", "town", c.outs...)
		if got := g.FirstKilled(); !slices.Equal(got, c.want) {
			t.Errorf("%s: FirstKilled = %v; want %v", c.name, got, c.want)
		}
	}
}

// TestCheckBestMove_OnlyTheFirstKilledGuessesThreeOtherSeats.
func TestCheckBestMove_OnlyTheFirstKilledGuessesThreeOtherSeats(t *testing.T) {
	g := seven("g", "2026-01-01", "town", Seat{Seat: 4, Out: "night", OutOrder: 1, OutRound: 1})
	for _, c := range []struct {
		name string
		bm   BestMove
		ok   bool
	}{
		{"three others", BestMove{Seat: 4, Guess: []int{1, 2, 3}}, true},
		{"not the first killed", BestMove{Seat: 5, Guess: []int{1, 2, 3}}, false},
		{"two seats", BestMove{Seat: 4, Guess: []int{1, 2}}, false},
		{"a seat twice", BestMove{Seat: 4, Guess: []int{1, 1, 2}}, false},
		{"themselves", BestMove{Seat: 4, Guess: []int{1, 2, 4}}, false},
		{"off the table", BestMove{Seat: 4, Guess: []int{1, 2, 8}}, false},
	} {
		err := g.CheckBestMove(c.bm)
		var e *engine.Error
		if c.ok != (err == nil) || (err != nil && (!errors.As(err, &e) || e.Code != CodeBadBestMove)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestScore_AddsTheWinTheBestMoveTheExtraAndThePenalty, by hand under the
// defaults (win 1.00, best move 0.25 / 0.50, removal by fouls -0.50).
func TestScore_AddsTheWinTheBestMoveTheExtraAndThePenalty(t *testing.T) {
	s := DefaultScoring()
	// The town wins; 4 (detective) was killed on night 1 and named 1, 2, 6
	// (two mafia right); 7 (citizen) was removed by fouls; the host gave 5
	// +0.30 and 2 -0.20.
	g := seven("g", "2026-01-01", "town", Seat{Seat: 4, Out: "night", OutOrder: 1, OutRound: 1},
		Seat{Seat: 7, Out: "fouls", OutOrder: 2, OutRound: 1}, Seat{Seat: 1, Out: "vote", OutOrder: 3, OutRound: 1})
	g.BestMove = &BestMove{Seat: 4, Guess: []int{1, 2, 6}}
	g.Extra = []Extra{{Seat: 5, Points: 30}, {Seat: 2, Points: -20}}
	want := map[int]string{1: "0.00", 2: "-0.20", 3: "0.00", 4: "1.25", 5: "1.30", 6: "1.00", 7: "-0.50"}
	for _, l := range s.Score(&g) {
		if l.Total.String() != want[l.Seat.Seat] {
			t.Errorf("seat %d: %s (%+v); want %s", l.Seat.Seat, l.Total, l, want[l.Seat.Seat])
		}
		if l.Seat.Seat == 7 && l.Won {
			t.Errorf("seat 7, removed by fouls, is marked a winner")
		}
	}
	// The maniac is no mafia: 1 2 3 is two right.
	g.BestMove = &BestMove{Seat: 4, Guess: []int{1, 2, 3}}
	if l := s.Score(&g)[3]; l.BestMoveRight != 2 || l.BestMove != 25 {
		t.Errorf("1 2 3 (the maniac is no mafia): %+v; want two right, 0.25", l)
	}
}

// TestCheckExtra_IsBoundByTheClubsRange.
func TestCheckExtra_IsBoundByTheClubsRange(t *testing.T) {
	s := DefaultScoring()
	g := seven("g", "2026-01-01", "town")
	for _, c := range []struct {
		x  []Extra
		ok bool
	}{
		{[]Extra{{Seat: 1, Points: 70}, {Seat: 2, Points: -50}}, true},
		{[]Extra{{Seat: 1, Points: 71}}, false},
		{[]Extra{{Seat: 1, Points: -51}}, false},
		{[]Extra{{Seat: 8, Points: 10}}, false},
		{[]Extra{{Seat: 1, Points: 10}, {Seat: 1, Points: 10}}, false},
	} {
		if err := s.CheckExtra(&g, c.x); c.ok != (err == nil) {
			t.Errorf("%+v: %v", c.x, err)
		}
	}
}

// TestPoints_ReadAndWriteTwoDecimals.
func TestPoints_ReadAndWriteTwoDecimals(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Points
		ok   bool
	}{{"1.25", 125, true}, {"-0.5", -50, true}, {"2", 200, true}, {".3", 30, true}, {"0.125", 0, false},
		{"x", 0, false}, {"", 0, false}, {"1.-5", 0, false}, {"--1", 0, false}} {
		got, ok := ParsePoints(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("ParsePoints(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	if s := Points(-5).String(); s != "-0.05" {
		t.Errorf("-5 hundredths: %s", s)
	}
}

// TestStandings_MatchAHandComputation: three games of a season and one
// outside it, with a merge, under the defaults.
func TestStandings_MatchAHandComputation(t *testing.T) {
	s := DefaultScoring()
	people := []Person{{ID: "p1", Name: "Don"}, {ID: "p2", Name: "Mafia"}, {ID: "p3", Name: "Maniac"},
		{ID: "p4", Name: "Detective"}, {ID: "p5", Name: "Doctor"}, {ID: "p6", Name: "Citizen"}, {ID: "p7", Name: "Seven"},
		{ID: "p8", Name: "Seven again", MergedInto: "p7"}}
	roster := NewRoster(people)
	g1 := seven("g1", "2026-01-10", "town", Seat{Seat: 4, Out: "night", OutOrder: 1, OutRound: 1},
		Seat{Seat: 7, Out: "fouls", OutOrder: 2, OutRound: 1})
	g1.BestMove = &BestMove{Seat: 4, Guess: []int{1, 2, 3}} // two right: +0.25
	g1.Extra = []Extra{{Seat: 5, Points: 30}}
	g2 := seven("g2", "2026-01-17", "mafia") // p1 and p2 win
	g2.Seats[6].Person = "p8"                // the second entry of the person in seat 7
	g3 := seven("g3", "2026-02-01", "maniac")
	g3.Seats[5].Person = "" // a guest in seat 6
	outside := seven("g0", "2025-12-31", "town")
	season := Season{ID: "s", Name: "Winter", From: "2026-01-01", To: "2026-02-28"}
	got := s.Standings(season, roster, []Game{g1, outside, g2, g3})
	// Hand computation:
	// p1 don:      0 + 1 + 0    = 1.00, 3 games, 1 win (mafia)
	// p2 mafia:    0 + 1 + 0    = 1.00, 3 games, 1 win (mafia)
	// p3 maniac:   0 + 0 + 1    = 1.00, 3 games, 1 win (maniac)
	// p4 detect.:  1.25 + 0 + 0 = 1.25, 3 games, 1 win (town)
	// p5 doctor:   1.30 + 0 + 0 = 1.30, 3 games, 1 win (town)
	// p6 citizen:  1 + 0        = 1.00, 2 games (a guest sat in g3)
	// p7 seven:    -0.50 + 0 + 0 = -0.50, 3 games (g2 as p8), no win
	want := []string{
		"1 p5 1.30 3 1 town=1 avg=0.43",
		"2 p4 1.25 3 1 town=1 avg=0.42",
		"3 p6 1.00 2 1 town=1 avg=0.50",
		"4 p1 1.00 3 1 mafia=1 avg=0.33",
		"4 p2 1.00 3 1 mafia=1 avg=0.33",
		"4 p3 1.00 3 1 maniac=1 avg=0.33",
		"7 p7 -0.50 3 0 avg=-0.17",
	}
	var lines []string
	for _, x := range got {
		l := strings.Join([]string{itoa(x.Place), x.Person, x.Points.String(), itoa(x.Games), itoa(x.Wins)}, " ")
		for _, side := range []struct {
			n    int
			name string
		}{{x.WinsTown, "town"}, {x.WinsMafia, "mafia"}, {x.WinsManiac, "maniac"}} {
			if side.n > 0 {
				l += " " + side.name + "=" + itoa(side.n)
			}
		}
		lines = append(lines, l+" avg="+x.Average.String())
	}
	if !slices.Equal(lines, want) {
		t.Errorf("standings:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if got[6].FoulRemovals != 1 || got[6].GamesTown != 3 {
		t.Errorf("p7: %+v", got[6])
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestMerge_KeepsEveryGameOfBothUnderOneID and refuses the merges that
// would lose one.
func TestMerge_KeepsEveryGameOfBothUnderOneID(t *testing.T) {
	people := []Person{{ID: "a", Name: "Nino"}, {ID: "b", Name: "ნინო"}, {ID: "c", Name: "Other"}}
	r := NewRoster(people)
	if err := r.CheckMerge("b", "a"); err != nil {
		t.Fatal(err)
	}
	people[1].MergedInto = "a"
	r = NewRoster(people)
	for _, c := range [][2]string{{"a", "a"}, {"b", "c"}, {"c", "b"}, {"x", "a"}} {
		if err := r.CheckMerge(c[0], c[1]); err == nil {
			t.Errorf("merge %s into %s: no refusal", c[0], c[1])
		}
	}
	if r.Resolve("b") != "a" || r.Resolve("a") != "a" || r.Resolve("zz") != "" {
		t.Errorf("resolve: b→%q a→%q", r.Resolve("b"), r.Resolve("a"))
	}
	g1 := seven("g1", "2026-01-10", "town")
	g1.Seats[3].Person = "a"
	g2 := seven("g2", "2026-01-11", "town")
	g2.Seats[3].Person = "b"
	st := DefaultScoring().Standings(Season{Name: "s", From: "2026-01-01", To: "2026-12-31"}, r, []Game{g1, g2})
	for _, x := range st {
		if x.Person == "b" {
			t.Errorf("the merged entry stands on its own: %+v", x)
		}
		if x.Person == "a" && (x.Games != 2 || x.Points != 200 || x.Name != "Nino") {
			t.Errorf("a after the merge: %+v; want both games, 2.00", x)
		}
	}
}

// TestRows_OneRowPerPlayerPerGame: the CSV's columns, by hand.
func TestRows_OneRowPerPlayerPerGame(t *testing.T) {
	g := seven("g1", "2026-01-10", "town", Seat{Seat: 4, Out: "night", OutOrder: 1, OutRound: 1},
		Seat{Seat: 7, Out: "fouls", OutOrder: 2, OutRound: 1})
	g.Table, g.Number, g.Host, g.Referee = "A", 2, "Host", "Ref"
	g.BestMove = &BestMove{Seat: 4, Guess: []int{1, 2, 6}}
	rows := DefaultScoring().Rows(NewRoster(nil), []Game{g})
	if len(rows) != 7 {
		t.Fatalf("%d rows; want 7", len(rows))
	}
	want4 := "g1,2026-01-10,,A,2,Host,Ref,std,4,,P4,detective,town,yes,no,yes,1 2 6,2,1.00,0.25,0.00,0.00,1.25,0.00"
	want7 := "g1,2026-01-10,,A,2,Host,Ref,std,7,,P7,citizen,town,no,yes,no,,,0.00,0.00,0.00,-0.50,-0.50,0.00"
	if got := strings.Join(rows[3], ","); got != want4 {
		t.Errorf("row of seat 4:\n%s\nwant\n%s", got, want4)
	}
	if got := strings.Join(rows[6], ","); got != want7 {
		t.Errorf("row of seat 7:\n%s\nwant\n%s", got, want7)
	}
	for _, r := range rows {
		if len(r) != len(CSVHeader) {
			t.Errorf("a row of %d columns; the header has %d", len(r), len(CSVHeader))
		}
	}
}

// TestSeasonAndScoringChecks refuse what cannot be kept.
func TestSeasonAndScoringChecks(t *testing.T) {
	for _, s := range []Season{{Name: "", From: "2026-01-01", To: "2026-02-01"}, {Name: "x", From: "2026-13-01", To: "2026-02-01"},
		{Name: "x", From: "2026-02-02", To: "2026-02-01"}} {
		if s.Check() == nil {
			t.Errorf("season %+v: no refusal", s)
		}
	}
	if err := (Season{Name: "x", From: "2026-02-01", To: "2026-02-01"}).Check(); err != nil {
		t.Errorf("a season of one day: %v", err)
	}
	if err := DefaultScoring().Check(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	bad := DefaultScoring()
	bad.Fouls = 10
	if bad.Check() == nil {
		t.Errorf("a bonus for a removal by fouls: no refusal")
	}
}

// TestPoints_AreJSONNumbersOfPoints.
func TestPoints_AreJSONNumbersOfPoints(t *testing.T) {
	b, err := json.Marshal(DefaultScoring())
	if err != nil || string(b) != `{"win":1.00,"best_move_2":0.25,"best_move_3":0.50,"extra_min":-0.50,"extra_max":0.70,"fouls":-0.50}` {
		t.Errorf("defaults as JSON: %s, %v", b, err)
	}
	var s Scoring
	if err := json.Unmarshal([]byte(`{"win":2,"best_move_2":0.3,"best_move_3":0.6,"extra_min":-1,"extra_max":1,"fouls":-1}`), &s); err != nil || s.Win != 200 || s.BestMove2 != 30 {
		t.Errorf("read back: %+v, %v", s, err)
	}
	if err := json.Unmarshal([]byte(`{"win":0.125}`), &s); err == nil {
		t.Errorf("three decimals: no refusal")
	}
}
