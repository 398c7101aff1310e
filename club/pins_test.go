package club

import (
	"slices"
	"strings"
	"testing"
)

// TestScore_ABestMoveEarnsOnlyWithTwoOrThreeRight: the first-killed
// player's best move earns BestMove2 for two mafia right, BestMove3 for
// three, and nothing for one or none.
func TestScore_ABestMoveEarnsOnlyWithTwoOrThreeRight(t *testing.T) {
	s := Scoring{Win: 100, BestMove2: 25, BestMove3: 50, ExtraMin: -50, ExtraMax: 70, Fouls: -50}
	// The mafia wins; 4 (detective) was killed on night 1: the town lost,
	// so a point of the line is the best move's alone.
	for _, c := range []struct {
		guess []int
		right int
		want  Points
	}{
		{[]int{5, 6, 7}, 0, 0},
		{[]int{1, 6, 7}, 1, 0},
		{[]int{6, 2, 7}, 1, 0},
		{[]int{1, 3, 7}, 1, 0}, // the maniac is no mafia
		{[]int{1, 2, 7}, 2, 25},
		{[]int{3, 2, 1}, 2, 25},
	} {
		g := seven("g", "2026-01-01", "mafia", Seat{Seat: 4, Out: "night", OutOrder: 1, OutRound: 1})
		g.BestMove = &BestMove{Seat: 4, Guess: c.guess}
		l := s.Score(&g)[3]
		if l.BestMoveRight != c.right || l.BestMove != c.want || l.Total != c.want {
			t.Errorf("best move %v: %d right, %s, total %s; want %d right, %s", c.guess, l.BestMoveRight, l.BestMove, l.Total, c.right, c.want)
		}
		st := s.Standings(Season{Name: "s", From: "2026-01-01", To: "2026-01-01"}, NewRoster([]Person{{ID: "p4", Name: "Detective"}}), []Game{g})
		if len(st) != 1 || st[0].Points != c.want || (st[0].BestMoves == 1) != (c.want > 0) {
			t.Errorf("best move %v: standings %+v; want %s and a best move counted only if it earned", c.guess, st, c.want)
		}
	}
}

// TestSeason_HoldsBothItsFirstAndItsLastDay: a season is From to To, both
// days included, in Holds and in the standings.
func TestSeason_HoldsBothItsFirstAndItsLastDay(t *testing.T) {
	season := Season{ID: "s", Name: "Winter", From: "2026-01-01", To: "2026-02-28"}
	for _, c := range []struct {
		date string
		in   bool
	}{{"2025-12-31", false}, {"2026-01-01", true}, {"2026-01-31", true}, {"2026-02-28", true}, {"2026-03-01", false}} {
		if got := season.Holds(c.date); got != c.in {
			t.Errorf("Holds(%s) = %v, want %v", c.date, got, c.in)
		}
		g := seven("g", c.date, "town")
		st := DefaultScoring().Standings(season, NewRoster([]Person{{ID: "p4", Name: "Detective"}}), []Game{g})
		if counted := len(st) == 1 && st[0].Games == 1; counted != c.in {
			t.Errorf("a game of %s in the standings of %s..%s: %v, want %v", c.date, season.From, season.To, counted, c.in)
		}
	}
}

// TestScore_TheHostsExtraPointsAreClampedToTheClubsRange: extra points
// recorded under other rules (the club's range narrowed since) count as
// the nearest end of the range, in a game's line and in the standings.
func TestScore_TheHostsExtraPointsAreClampedToTheClubsRange(t *testing.T) {
	s := Scoring{Win: 100, BestMove2: 25, BestMove3: 50, ExtraMin: -30, ExtraMax: 40, Fouls: -50}
	g := seven("g", "2026-01-01", "draw")
	g.Extra = []Extra{{Seat: 1, Points: 500}, {Seat: 2, Points: -500}, {Seat: 3, Points: 40}, {Seat: 4, Points: -30}, {Seat: 5, Points: 10}}
	want := map[int]Points{1: 40, 2: -30, 3: 40, 4: -30, 5: 10, 6: 0, 7: 0}
	for _, l := range s.Score(&g) {
		if l.Extra != want[l.Seat.Seat] || l.Total != want[l.Seat.Seat] {
			t.Errorf("seat %d: extra %s, total %s; want %s", l.Seat.Seat, l.Extra, l.Total, want[l.Seat.Seat])
		}
	}
	people := []Person{{ID: "p1", Name: "One"}, {ID: "p2", Name: "Two"}}
	for _, st := range s.Standings(Season{Name: "s", From: "2026-01-01", To: "2026-01-01"}, NewRoster(people), []Game{g}) {
		if w := want[int(st.Person[1]-'0')]; st.Points != w {
			t.Errorf("%s in the standings: %s, want %s", st.Person, st.Points, w)
		}
	}
}

// TestStandings_LeaveOutAGameWithNoWinner: a game with no result recorded
// (no winner) counts for nobody, while a draw is a game for everyone and
// a win for nobody.
func TestStandings_LeaveOutAGameWithNoWinner(t *testing.T) {
	s := DefaultScoring()
	season := Season{Name: "s", From: "2026-01-01", To: "2026-12-31"}
	roster := NewRoster([]Person{{ID: "p1", Name: "Don"}, {ID: "p4", Name: "Detective"}})
	unfinished := seven("u", "2026-01-02", "")
	unfinished.Extra = []Extra{{Seat: 1, Points: 50}}
	if st := s.Standings(season, roster, []Game{unfinished}); len(st) != 0 {
		t.Errorf("a game with no winner makes standings %+v, want none", st)
	}
	draw := seven("d", "2026-01-03", "draw")
	st := s.Standings(season, roster, []Game{unfinished, draw})
	if len(st) != 2 {
		t.Fatalf("standings %+v, want p1 and p4", st)
	}
	for _, x := range st {
		if x.Games != 1 || x.Wins != 0 || x.Points != 0 {
			t.Errorf("%s: %d games, %d wins, %s; want the draw alone: 1 game, no win, 0.00", x.Person, x.Games, x.Wins, x.Points)
		}
	}
}

// TestRoster_HasEveryEntryMergedOrNot.
func TestRoster_HasEveryEntryMergedOrNot(t *testing.T) {
	r := NewRoster([]Person{{ID: "a", Name: "Nino"}, {ID: "b", Name: "ნინო", MergedInto: "a"}})
	for id, want := range map[string]bool{"a": true, "b": true, "c": false, "": false, "A": false} {
		if got := r.Has(id); got != want {
			t.Errorf("Has(%q) = %v, want %v", id, got, want)
		}
	}
}

// TestStandingsRows_OneRowPerPlayerUnderTheHeader: each standing is one row,
// its cells in StandingsHeader's order, points and averages with two
// decimals.
func TestStandingsRows_OneRowPerPlayerUnderTheHeader(t *testing.T) {
	st := []Standing{
		{Place: 1, Person: "p5", Name: "Doctor", Points: 130, Games: 3, Average: 43, Wins: 1, WinsTown: 1, WinsMafia: 2,
			WinsManiac: 3, GamesTown: 4, GamesMafia: 5, GamesManiac: 6, BestMoves: 7, FoulRemovals: 8,
			GamesDon: 9, WinsDon: 10, GamesDetective: 11, WinsDetective: 12, GamesDoctor: 13, WinsDoctor: 14},
		{Place: 2, Person: "p7", Name: "Seven, \"the\" one", Points: -50, Games: 3, Average: -17},
	}
	rows := StandingsRows(st)
	want := [][]string{
		{"1", "p5", "Doctor", "1.30", "3", "0.43", "1", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"},
		{"2", "p7", "Seven, \"the\" one", "-0.50", "3", "-0.17", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i := range want {
		if len(rows[i]) != len(StandingsHeader) || !slices.Equal(rows[i], want[i]) {
			t.Errorf("row %d: %s\nwant:  %s\nunder: %s", i, strings.Join(rows[i], "|"), strings.Join(want[i], "|"), strings.Join(StandingsHeader, "|"))
		}
	}
	if rows := StandingsRows(nil); len(rows) != 0 {
		t.Errorf("no standings: %d rows", len(rows))
	}
}
