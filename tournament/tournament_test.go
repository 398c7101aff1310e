package tournament_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"mafia/club"
	"mafia/engine"
	"mafia/tournament"
)

// seatRole is the card of each seat in the qualifying games of these
// tests: seats 1-6 town, 7 the maniac, 8 the Don, 9-10 mafia. The town
// wins every qualifying game, and since 20 players on 2 tables for 10
// games sit in every seat exactly once, every player has 6 town games:
// 6 wins, 6.00 points, before the changes below.
var seatRole = []string{"detective", "doctor", "citizen", "citizen", "citizen", "citizen", "maniac", "don", "mafioso", "mafioso"}

func pid(n int) string { return fmt.Sprintf("p%02d", n) }

func roster20() *club.Roster {
	var ps []club.Person
	for i := 1; i <= 20; i++ {
		ps = append(ps, club.Person{ID: pid(i), Name: fmt.Sprintf("Player %02d", i)})
	}
	ps = append(ps, club.Person{ID: "x01", Name: "Old entry", MergedInto: pid(1)})
	return club.NewRoster(ps)
}

func config20() tournament.Config {
	c := tournament.Config{ID: "cup", ClubID: "c1", Name: "Winter cup", From: "2026-12-05", To: "2026-12-06",
		Host: "Nino", Referee: "Giorgi", Scoring: club.DefaultScoring(), Tables: 2, Games: 10, Seed: 7,
		TieBreaks: []tournament.TieBreak{tournament.ByWins, tournament.ByBestMove, tournament.ByExtra, tournament.ByFouls}}
	for i := 1; i <= 20; i++ {
		c.Players = append(c.Players, pid(i))
	}
	return c
}

// change is what happens to one player in their k-th qualifying game of a
// given kind of seat (town or not).
type change struct {
	player, k int
	town      bool
	extra     club.Points
	bestMove  bool // first killed, with the three mafia named
	fouls     bool // removed by fouls
}

// theChanges, computed by hand (default scoring: win 1.00, best move of
// three 0.50, removal by fouls -0.50):
//
//	p01: +0.70 -0.20 extra                   6.50, 6 wins, extra 0.50
//	p02: best move 3 of 3                    6.50, 6 wins, best move 0.50
//	p03: removed by fouls as town, +0.70 +0.70 +0.60 extra
//	                                         5 - 0.50 + 2.00 = 6.50, 5 wins
//	p04..p10: +0.20 extra                    6.20
//	p11: removed by fouls as mafia, +0.50    6 - 0.50 + 0.50 = 6.00, extra 0.50, 1 removal
//	p12..p20:                                6.00
var theChanges = []change{
	{player: 1, k: 0, town: true, extra: 70}, {player: 1, k: 1, town: true, extra: -20},
	{player: 2, k: 0, town: true, bestMove: true},
	{player: 3, k: 0, town: true, fouls: true}, {player: 3, k: 1, town: true, extra: 70},
	{player: 3, k: 2, town: true, extra: 70}, {player: 3, k: 3, town: true, extra: 60},
	{player: 4, k: 0, town: true, extra: 20}, {player: 5, k: 0, town: true, extra: 20},
	{player: 6, k: 0, town: true, extra: 20}, {player: 7, k: 0, town: true, extra: 20},
	{player: 8, k: 0, town: true, extra: 20}, {player: 9, k: 0, town: true, extra: 20},
	{player: 10, k: 0, town: true, extra: 20},
	{player: 11, k: 0, town: false, fouls: true}, {player: 11, k: 1, town: true, extra: 50},
}

// playQualifying makes the club's game of every qualifying table under the
// changes, links each, and returns the games by id.
func playQualifying(t *testing.T, tr *tournament.Tournament, roster *club.Roster, changes []change) map[string]club.Game {
	t.Helper()
	games := map[string]club.Game{}
	type at struct{ r, tb, seat int }
	seen := map[string]map[bool][]at{} // player → town? → their games in order
	for r, round := range tr.Rounds {
		for tb, table := range round.Tables {
			for s, p := range table.Players {
				town := s < 6
				if seen[p] == nil {
					seen[p] = map[bool][]at{}
				}
				seen[p][town] = append(seen[p][town], at{r, tb, s})
			}
		}
	}
	built := map[[2]int]*club.Game{}
	for r, round := range tr.Rounds {
		for tb, table := range round.Tables {
			g := &club.Game{ID: fmt.Sprintf("g-%d-%d", r+1, tb+1), Date: "2026-12-05", Winner: "town"}
			for s, p := range table.Players {
				g.Seats = append(g.Seats, club.Seat{Seat: s + 1, Person: p, Name: p, Role: seatRole[s]})
			}
			built[[2]int{r, tb}] = g
		}
	}
	for _, c := range changes {
		where := seen[pid(c.player)][c.town][c.k]
		g := built[[2]int{where.r, where.tb}]
		seat := where.seat + 1
		if c.extra != 0 {
			g.Extra = append(g.Extra, club.Extra{Seat: seat, Points: c.extra})
		}
		if c.bestMove {
			g.Seats[where.seat].Out, g.Seats[where.seat].OutOrder, g.Seats[where.seat].OutRound = "night", 1, 1
			g.BestMove = &club.BestMove{Seat: seat, Guess: []int{8, 9, 10}}
		}
		if c.fouls {
			g.Seats[where.seat].Out, g.Seats[where.seat].OutOrder, g.Seats[where.seat].OutRound = "fouls", 1, 1
		}
	}
	for r, round := range tr.Rounds {
		for tb := range round.Tables {
			g := built[[2]int{r, tb}]
			if err := tr.Link(r+1, tb+1, g, roster); err != nil {
				t.Fatalf("link round %d table %d: %v", r+1, tb+1, err)
			}
			games[g.ID] = *g
		}
	}
	return games
}

// finalRole gives the final's cards by player, not seat: p01..p06 town, p07
// the maniac, p08 the Don, p09 and p10 mafia; the town wins, and p08 has
// +0.70 extra, which the factor 1.5 makes 1.05.
var finalRole = map[string]string{pid(1): "detective", pid(2): "doctor", pid(3): "citizen", pid(4): "citizen",
	pid(5): "citizen", pid(6): "citizen", pid(7): "maniac", pid(8): "don", pid(9): "mafioso", pid(10): "mafioso"}

type row struct {
	place  int
	person string
	points club.Points
	wins   int
}

func rows(st []tournament.Standing) []row {
	out := make([]row, len(st))
	for i, s := range st {
		out[i] = row{s.Place, s.Person, s.Points, s.Wins}
	}
	return out
}

// TestStandings_TwentyPlayersTwoTablesTenRoundsAndAFinal_MatchTheHandComputation:
// the tournament, seated by the generator, its games made under
// the hand-computed changes above; the qualifying standings, the final's
// top ten, and the standings after a final at ×1.5, shared places and the
// tie-breaks (wins, then best move) as computed by hand.
func TestStandings_TwentyPlayersTwoTablesTenRoundsAndAFinal_MatchTheHandComputation(t *testing.T) {
	roster := roster20()
	tr, err := tournament.New(config20(), roster)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SeatRounds(); err != nil {
		t.Fatal(err)
	}
	if len(tr.Rounds) != 10 || len(tr.Rounds[0].Tables) != 2 {
		t.Fatalf("rounds %d", len(tr.Rounds))
	}
	if err := tr.SeatFinal(roster, nil, nil); codeOf(err) != tournament.CodeTournamentState {
		t.Fatalf("final before the rounds are played: %v", err)
	}
	games := playQualifying(t, &tr, roster, theChanges)

	var want []row
	want = append(want, row{1, pid(2), 650, 6}, row{2, pid(1), 650, 6}, row{3, pid(3), 650, 5})
	for i := 4; i <= 10; i++ {
		want = append(want, row{4, pid(i), 620, 6})
	}
	want = append(want, row{11, pid(11), 600, 6})
	for i := 12; i <= 20; i++ {
		want = append(want, row{12, pid(i), 600, 6})
	}
	if got := rows(tr.Standings(roster, games)); !slices.Equal(got, want) {
		t.Errorf("qualifying standings\n got %v\nwant %v", got, want)
	}

	if err := tr.SeatFinal(roster, games, nil); err != nil {
		t.Fatal(err)
	}
	fin := tr.Rounds[len(tr.Rounds)-1]
	if !fin.Final || len(fin.Tables) != 1 || len(fin.Tables[0].Players) != 10 {
		t.Fatalf("final %+v", fin)
	}
	got := slices.Sorted(slices.Values(fin.Tables[0].Players))
	if !slices.Equal(got, []string{pid(1), pid(2), pid(3), pid(4), pid(5), pid(6), pid(7), pid(8), pid(9), pid(10)}) {
		t.Fatalf("finalists %v", got)
	}
	g := club.Game{ID: "final-1", Date: "2026-12-06", Winner: "town"}
	for s, p := range fin.Tables[0].Players {
		g.Seats = append(g.Seats, club.Seat{Seat: s + 1, Person: p, Name: p, Role: finalRole[p]})
		if p == pid(8) {
			g.Extra = []club.Extra{{Seat: s + 1, Points: 70}}
		}
	}
	if err := tr.Link(len(tr.Rounds), 1, &g, roster); err != nil {
		t.Fatal(err)
	}
	games[g.ID] = g
	// p01..p03: 6.50 + 1.50 = 8.00 (wins 7, 7, 6: p03 third; p02's best
	// move puts p02 above p01); p04..p06: 6.20 + 1.50 = 7.70; p08: 6.20 +
	// 1.05 = 7.25; p07, p09, p10: 6.20; then the rest as before, from 11.
	want = []row{{1, pid(2), 800, 7}, {2, pid(1), 800, 7}, {3, pid(3), 800, 6},
		{4, pid(4), 770, 7}, {4, pid(5), 770, 7}, {4, pid(6), 770, 7}, {7, pid(8), 725, 6},
		{8, pid(7), 620, 6}, {8, pid(9), 620, 6}, {8, pid(10), 620, 6}, {11, pid(11), 600, 6}}
	for i := 12; i <= 20; i++ {
		want = append(want, row{12, pid(i), 600, 6})
	}
	st := tr.Standings(roster, games)
	if got := rows(st); !slices.Equal(got, want) {
		t.Errorf("final standings\n got %v\nwant %v", got, want)
	}
	if s := st[6]; s.Qualifying != 620 || s.FinalPoints != 105 || s.Extra != 90 || !s.Finalist || s.Games != 11 {
		t.Errorf("p08's line %+v", s)
	}
	if s := st[10]; s.FoulRemovals != 1 || s.Finalist || s.Games != 10 {
		t.Errorf("p11's line %+v", s)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tr.Link(1, 1, &g, roster); codeOf(err) != tournament.CodeTournamentState {
		t.Errorf("a link after the close: %v", err)
	}
}

// TestStandings_TheDeclaredOrderDecides: the same games under other
// orders: fewer removals by fouls first puts p11 last of the 6.00s; no
// tie-breaks at all makes p01..p03 share first place.
func TestStandings_TheDeclaredOrderDecides(t *testing.T) {
	for _, c := range []struct {
		name  string
		order []tournament.TieBreak
		want  map[string]int
	}{
		{"fouls first", []tournament.TieBreak{tournament.ByFouls, tournament.ByWins},
			map[string]int{pid(1): 1, pid(2): 1, pid(3): 3, pid(4): 4, pid(11): 20, pid(12): 11}},
		{"extra first", []tournament.TieBreak{tournament.ByExtra, tournament.ByWins},
			map[string]int{pid(3): 1, pid(1): 2, pid(2): 3, pid(11): 11, pid(12): 12}},
		{"killed first first", []tournament.TieBreak{tournament.ByFirstKilled},
			map[string]int{pid(2): 1, pid(1): 2, pid(3): 2, pid(4): 4, pid(11): 11, pid(12): 11}},
		{"none", []tournament.TieBreak{},
			map[string]int{pid(1): 1, pid(2): 1, pid(3): 1, pid(10): 4, pid(11): 11, pid(20): 11}},
	} {
		t.Run(c.name, func(t *testing.T) {
			roster := roster20()
			cfg := config20()
			cfg.TieBreaks = c.order
			tr, err := tournament.New(cfg, roster)
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.SeatRounds(); err != nil {
				t.Fatal(err)
			}
			games := playQualifying(t, &tr, roster, theChanges)
			for _, s := range tr.Standings(roster, games) {
				if w, ok := c.want[s.Person]; ok && s.Place != w {
					t.Errorf("%s: place %d, want %d", s.Person, s.Place, w)
				}
			}
		})
	}
}

// TestSeatFinal_ASharedPlaceAtTheCutIsTheOrganisersToBreak: with no
// tie-breaks and p11 at 6.20 too, eight players share fourth place and the
// tenth finalist is not known: refused, until the organiser names the ten.
func TestSeatFinal_ASharedPlaceAtTheCutIsTheOrganisersToBreak(t *testing.T) {
	roster := roster20()
	cfg := config20()
	cfg.TieBreaks = []tournament.TieBreak{}
	tr, err := tournament.New(cfg, roster)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SeatRounds(); err != nil {
		t.Fatal(err)
	}
	changes := slices.Clone(theChanges)
	changes[len(changes)-1].extra = 70 // p11: 6 - 0.50 + 0.70 = 6.20
	games := playQualifying(t, &tr, roster, changes)
	if err := tr.SeatFinal(roster, games, nil); codeOf(err) != tournament.CodeFinalTie {
		t.Fatalf("got %v, want %s", err, tournament.CodeFinalTie)
	}
	ten := []string{pid(1), pid(2), pid(3), pid(4), pid(5), pid(6), pid(7), pid(8), pid(9), pid(11)}
	if err := tr.SeatFinal(roster, games, ten[:9]); codeOf(err) != tournament.CodeBadTournament {
		t.Fatalf("nine finalists: %v", err)
	}
	if err := tr.SeatFinal(roster, games, ten); err != nil {
		t.Fatal(err)
	}
	if err := tr.SeatFinal(roster, games, ten); codeOf(err) != tournament.CodeTournamentState {
		t.Fatalf("the final seated twice: %v", err)
	}
}

// TestStandings_HeadToHeadCountsOnlyTheGamesTheTiedShared: two hand-seated
// rounds of two tables of five, every game a win of the town (the first
// three seats; the Don and a mafioso in seats 4-5), some extra points:
//
//	round 1: [a d e b f] [c g h i j]   i +0.30
//	round 2: [b d g c h] [e f i a j]   h +0.20, f +0.10
//
// d, e, g have 2.00: in games among them d has 2.00 (r1 with e, r2 with
// g), e and g 1.00 each: d first, e and g share second. i 1.30, h 1.20, f
// 1.10. a, b, c have 1.00: among them a met b in r1 (a 1, b 0) and b met c
// in r2 (b 1, c 0): a and b share seventh, c ninth; j (0.00) tenth.
func TestStandings_HeadToHeadCountsOnlyTheGamesTheTiedShared(t *testing.T) {
	ids := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	var ps []club.Person
	for _, id := range ids {
		ps = append(ps, club.Person{ID: id, Name: id})
	}
	roster := club.NewRoster(ps)
	tr, err := tournament.New(tournament.Config{ID: "t", ClubID: "c", Name: "h2h", From: "2026-01-01", To: "2026-01-01",
		Players: ids, Scoring: club.DefaultScoring(), Tables: 2, Seats: 5, Games: 2, Seed: 1, Final: &tournament.Final{},
		TieBreaks: []tournament.TieBreak{tournament.ByHeadToHead}}, roster)
	if err != nil {
		t.Fatal(err)
	}
	seated := [][][]string{{{"a", "d", "e", "b", "f"}, {"c", "g", "h", "i", "j"}}, {{"b", "d", "g", "c", "h"}, {"e", "f", "i", "a", "j"}}}
	extra := map[string]club.Extra{"1-2": {Seat: 4, Points: 30}, "2-1": {Seat: 5, Points: 20}, "2-2": {Seat: 2, Points: 10}}
	tr.State = tournament.StateRounds
	for _, r := range seated {
		round := tournament.Round{}
		for _, tb := range r {
			round.Tables = append(round.Tables, tournament.Table{Players: tb})
		}
		tr.Rounds = append(tr.Rounds, round)
	}
	roles := []string{"citizen", "citizen", "citizen", "don", "mafioso"}
	games := map[string]club.Game{}
	for r, round := range seated {
		for tb, players := range round {
			id := fmt.Sprintf("%d-%d", r+1, tb+1)
			g := club.Game{ID: id, Date: "2026-01-01", Winner: "town"}
			for s, p := range players {
				g.Seats = append(g.Seats, club.Seat{Seat: s + 1, Person: p, Role: roles[s]})
			}
			if x, ok := extra[id]; ok {
				g.Extra = []club.Extra{x}
			}
			if err := tr.Link(r+1, tb+1, &g, roster); err != nil {
				t.Fatal(err)
			}
			games[id] = g
		}
	}
	var got []string
	for _, s := range tr.Standings(roster, games) {
		got = append(got, fmt.Sprintf("%d %s %s", s.Place, s.Person, s.Points))
	}
	want := []string{"1 d 2.00", "2 e 2.00", "2 g 2.00", "4 i 1.30", "5 h 1.20", "6 f 1.10", "7 a 1.00", "7 b 1.00", "9 c 1.00", "10 j 0.00"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func codeOf(err error) engine.Code {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
