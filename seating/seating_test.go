package seating

import (
	"errors"
	"slices"
	"testing"

	"mafia/engine"
)

// valid fails t unless s is a seating of cfg: its rounds, each of cfg's
// tables of cfg's seats, every player of 1..N at most once a round.
func valid(t *testing.T, cfg Config, s Seating) {
	t.Helper()
	if len(s.Rounds) != cfg.Rounds() {
		t.Fatalf("%+v: %d rounds; want %d", cfg, len(s.Rounds), cfg.Rounds())
	}
	for r, round := range s.Rounds {
		seen := map[int]bool{}
		if len(round) != cfg.Tables {
			t.Fatalf("round %d: %d tables", r+1, len(round))
		}
		for _, tab := range round {
			if len(tab) != cfg.seats() {
				t.Fatalf("round %d: a table of %d seats", r+1, len(tab))
			}
			for _, p := range tab {
				if p < 1 || p > cfg.Players || seen[p] {
					t.Fatalf("round %d: player %d twice or out of range: %v", r+1, p, round)
				}
				seen[p] = true
			}
		}
	}
}

// TestGenerate_KeepsTheBoundsOverSeedsAndSizes: for 10 to 100 players, with
// and without sit-outs, on one table and on ten, for several seeds: every
// player plays exactly G games and sits out the same number of rounds,
// never more than 2 in a row when they sit out at most half of them;
// every player has every seat floor(G/S) or ceil(G/S) times (with 10
// games at 10 seats: every seat once); every pair's meetings lie within 2
// of the floor and ceiling of the mean (docs/tournaments.md: why not
// within 0 for two tables).
func TestGenerate_KeepsTheBoundsOverSeedsAndSizes(t *testing.T) {
	cases := []struct {
		cfg   Config
		seeds []uint64
		slack int // how far the pairs' meetings may lie outside [floor, ceil] of their mean
	}{
		{Config{Players: 10, Tables: 1, Games: 10}, []uint64{1}, 0},
		{Config{Players: 13, Tables: 1, Games: 10}, []uint64{1, 2}, 1},
		{Config{Players: 12, Tables: 1, Games: 5}, []uint64{3}, 1},
		{Config{Players: 20, Tables: 2, Games: 10}, []uint64{1, 2, 3, 4}, 2},
		{Config{Players: 20, Tables: 2, Games: 20}, []uint64{5}, 2},
		{Config{Players: 25, Tables: 2, Games: 8}, []uint64{1, 2}, 2},
		{Config{Players: 22, Tables: 2, Games: 10, Seats: 11}, []uint64{1}, 2},
		{Config{Players: 30, Tables: 3, Games: 10}, []uint64{1, 2}, 2},
		{Config{Players: 30, Tables: 2, Games: 10}, []uint64{1, 2, 3}, 2},
		{Config{Players: 45, Tables: 4, Games: 8}, []uint64{1}, 2},
		{Config{Players: 36, Tables: 3, Games: 10}, []uint64{7}, 2},
		{Config{Players: 50, Tables: 5, Games: 10}, []uint64{1}, 2},
		{Config{Players: 100, Tables: 10, Games: 10}, []uint64{1}, 2},
	}
	for _, c := range cases {
		for _, seed := range c.seeds {
			cfg := c.cfg
			cfg.Seed = seed
			s, err := Generate(cfg)
			if err != nil {
				t.Fatalf("%+v: %v", cfg, err)
			}
			valid(t, cfg, s)
			rep := Measure(cfg, s)
			if rep.GamesMin != cfg.Games || rep.GamesMax != cfg.Games {
				t.Errorf("%+v: games %d..%d; want %d each", cfg, rep.GamesMin, rep.GamesMax, cfg.Games)
			}
			if rep.SitOutMin != rep.SitOutMax {
				t.Errorf("%+v: sit-outs %d..%d; want the same for everyone", cfg, rep.SitOutMin, rep.SitOutMax)
			}
			if run := longestRest(cfg, s); 2*rep.SitOutMax <= rep.Rounds && run > 2 {
				t.Errorf("%+v: a player sits out %d rounds in a row; want at most 2", cfg, run)
			}
			if rep.SeatMin < rep.SeatLow || rep.SeatMax > rep.SeatHigh {
				t.Errorf("%+v: a seat %d..%d times; want %d..%d", cfg, rep.SeatMin, rep.SeatMax, rep.SeatLow, rep.SeatHigh)
			}
			if rep.PairMin < rep.PairLow-c.slack || rep.PairMax > rep.PairHigh+c.slack {
				t.Errorf("%+v: pairs meet %d..%d times; want within %d of %d..%d", cfg, rep.PairMin, rep.PairMax, c.slack, rep.PairLow, rep.PairHigh)
			}
		}
	}
}

// longestRest returns the most rounds in a row a player of s sits out.
func longestRest(cfg Config, s Seating) int {
	longest := 0
	for p := 1; p <= cfg.Players; p++ {
		run := 0
		for _, round := range s.Rounds {
			plays := false
			for _, tab := range round {
				plays = plays || slices.Contains(tab, p)
			}
			if plays {
				run = 0
			} else {
				run++
				longest = max(longest, run)
			}
		}
	}
	return longest
}

// TestGenerate_TwentyPlayersTenGamesHaveEverySeatOnce: the example:
// 20 players, 2 tables, 10 games each: every player in every seat exactly
// once, and no pair meets fewer than 3 or more than 7 times.
func TestGenerate_TwentyPlayersTenGamesHaveEverySeatOnce(t *testing.T) {
	cfg := Config{Players: 20, Tables: 2, Games: 10, Seed: 29}
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	seats := map[[2]int]int{}
	for _, round := range s.Rounds {
		for _, tab := range round {
			for k, p := range tab {
				seats[[2]int{p, k + 1}]++
			}
		}
	}
	for p := 1; p <= 20; p++ {
		for k := 1; k <= 10; k++ {
			if seats[[2]int{p, k}] != 1 {
				t.Errorf("player %d sits in seat %d %d times; want once", p, k, seats[[2]int{p, k}])
			}
		}
	}
	if rep := Measure(cfg, s); rep.PairMin < 3 || rep.PairMax > 7 {
		t.Errorf("pairs meet %d..%d times; want 3..7", rep.PairMin, rep.PairMax)
	}
}

// TestGenerate_TheSameSeedGivesTheSameSeating: a seating replays from its
// seed; another seed gives another.
func TestGenerate_TheSameSeedGivesTheSameSeating(t *testing.T) {
	cfg := Config{Players: 25, Tables: 2, Games: 8, Seed: 42, Avoid: [][2]int{{1, 2}}}
	a, err1 := Generate(cfg)
	b, err2 := Generate(cfg)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !equal(a, b) {
		t.Error("the same seed gave two seatings")
	}
	cfg.Seed = 43
	if c, _ := Generate(cfg); equal(a, c) {
		t.Error("seeds 42 and 43 gave the same seating")
	}
}

func equal(a, b Seating) bool {
	return slices.EqualFunc(a.Rounds, b.Rounds, func(x, y [][]int) bool {
		return slices.EqualFunc(x, y, func(p, q []int) bool { return slices.Equal(p, q) })
	})
}

// TestGenerate_KeepsPairsApart: the pairs to keep apart never share a
// table, and the other bounds still hold.
func TestGenerate_KeepsPairsApart(t *testing.T) {
	for _, cfg := range []Config{
		{Players: 20, Tables: 2, Games: 10, Seed: 1, Avoid: [][2]int{{1, 2}, {3, 4}, {5, 6}, {1, 3}, {20, 19}}},
		{Players: 30, Tables: 2, Games: 10, Seed: 2, Avoid: [][2]int{{1, 2}, {2, 3}, {1, 3}}},
		{Players: 20, Tables: 1, Games: 5, Seed: 3, Avoid: [][2]int{{1, 2}}}, // they take turns
	} {
		s, err := Generate(cfg)
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		valid(t, cfg, s)
		for r, round := range s.Rounds {
			for _, tab := range round {
				for _, p := range cfg.Avoid {
					if slices.Contains(tab, p[0]) && slices.Contains(tab, p[1]) {
						t.Errorf("%+v: round %d seats %d and %d together", cfg, r+1, p[0], p[1])
					}
				}
			}
		}
		rep := Measure(cfg, s)
		if rep.AvoidMet != 0 || rep.GamesMin != cfg.Games || rep.GamesMax != cfg.Games || rep.SeatMax > rep.SeatHigh {
			t.Errorf("%+v: %+v", cfg, rep)
		}
	}
}

// TestGenerate_RefusesWhatCannotBeSeated: each refusal is coded (and the
// catalogs have its sentence: locale and cmd/mafia's tests).
func TestGenerate_RefusesWhatCannotBeSeated(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		code engine.Code
	}{
		{"too few players", Config{Players: 4, Tables: 1, Games: 1, Seats: 5}, CodeBadSeating},
		{"too many players", Config{Players: MaxPlayers + 1, Tables: 1, Games: 1}, CodeBadSeating},
		{"no table", Config{Players: 20, Tables: 0, Games: 10}, CodeBadSeating},
		{"more seats than players", Config{Players: 15, Tables: 2, Games: 10}, CodeBadSeating},
		{"a table too small", Config{Players: 20, Tables: 2, Games: 10, Seats: 4}, CodeBadSeating},
		{"a table too large", Config{Players: 42, Tables: 2, Games: 10, Seats: 21}, CodeBadSeating},
		{"no games", Config{Players: 20, Tables: 2, Games: 0}, CodeBadSeating},
		{"too many games", Config{Players: 20, Tables: 2, Games: MaxGames + 1}, CodeBadSeating},
		{"too many rounds", Config{Players: 300, Tables: 1, Games: 100}, CodeBadSeating},
		{"games that do not fill the rounds", Config{Players: 21, Tables: 2, Games: 10}, CodeSeatingUneven},
		{"a pair of one player", Config{Players: 20, Tables: 2, Games: 10, Avoid: [][2]int{{3, 3}}}, CodeBadAvoid},
		{"a pair with no such player", Config{Players: 20, Tables: 2, Games: 10, Avoid: [][2]int{{1, 21}}}, CodeBadAvoid},
		{"a pair with player 0", Config{Players: 20, Tables: 2, Games: 10, Avoid: [][2]int{{0, 2}}}, CodeBadAvoid},
		{"a pair at the only table", Config{Players: 10, Tables: 1, Games: 3, Avoid: [][2]int{{1, 2}}}, CodeAvoidImpossible},
	} {
		_, err := Generate(c.cfg)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != c.code {
			t.Errorf("%s: %v; want %s", c.name, err, c.code)
		}
	}
}

// TestKinds_EveryCodeHasAKind: each code of the package has its kind.
func TestKinds_EveryCodeHasAKind(t *testing.T) {
	for _, c := range []engine.Code{CodeBadSeating, CodeSeatingUneven, CodeBadAvoid, CodeAvoidImpossible} {
		if Kinds[c] == engine.KindNone {
			t.Errorf("%s has no kind", c)
		}
	}
}

// TestParseAvoid_ReadsPairsAndRefusesTheRest: "a-b,c-d" with spaces; what
// is not two numbers is refused with the pair as given.
func TestParseAvoid_ReadsPairsAndRefusesTheRest(t *testing.T) {
	got, err := ParseAvoid(" 1-2, 7 - 3 ")
	if err != nil || !slices.Equal(got, [][2]int{{1, 2}, {7, 3}}) {
		t.Errorf("ParseAvoid: %v %v", got, err)
	}
	if got, err := ParseAvoid(""); err != nil || got != nil {
		t.Errorf("ParseAvoid of nothing: %v %v", got, err)
	}
	for _, bad := range []string{"1", "1-", "a-b", "1-2,", "1-2-3"} {
		_, err := ParseAvoid(bad)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != CodeBadAvoid || e.Value == "" && bad != "1-2," {
			t.Errorf("ParseAvoid(%q): %v; want %s", bad, err, CodeBadAvoid)
		}
	}
}

// TestMovesFor_TheAnnealingIsBoundedWhateverTheSize: effort moves for each
// place up to MaxMoves (100 players of 10 games each is exactly that), and
// never more, however many players and games a request asks for.
func TestMovesFor_TheAnnealingIsBoundedWhateverTheSize(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want int
	}{
		{"twenty players, ten games", Config{Players: 20, Tables: 2, Games: 10, Seats: 10}, effort * 10 * 20},
		{"a hundred players, ten games: the bound", Config{Players: 100, Tables: 10, Games: 10, Seats: 10}, MaxMoves},
		{"the largest: 300 players, 100 games", Config{Players: MaxPlayers, Tables: 15, Games: MaxGames, Seats: MaxSeats}, MaxMoves},
		{"300 players at tables of ten", Config{Players: MaxPlayers, Tables: 30, Games: MaxGames, Seats: 10}, MaxMoves},
	} {
		if err := tc.cfg.Check(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := movesFor(tc.cfg.Rounds(), tc.cfg.Tables*tc.cfg.Seats); got != tc.want {
			t.Errorf("%s: %d moves; want %d", tc.name, got, tc.want)
		}
	}
}
