package engine

import (
	"strings"
	"testing"
)

// TestEndOfGame_ChecksInRulebookOrder pins docs/rules.md "End of the game": the
// checks in order, the first that holds decides.
//  1. nobody alive: draw; no mafioso and no maniac alive: town;
//  2. the maniac and at most one other alive: maniac (1x1), and against a
//     mafioso maniac_vs_mafia_1x1 decides;
//  3. living mafiosi at least as many as all others (the maniac among the
//     others): mafia;
//  4. otherwise the game goes on.
func TestEndOfGame_ChecksInRulebookOrder(t *testing.T) {
	// seats: 1 don, 2 mafioso, 3 mafioso, 4 maniac, 5 detective, 6 doctor, 7..11 citizens
	const deal = "don mafia mafia maniac detective doctor citizen citizen citizen citizen citizen"
	for _, tc := range []struct {
		name   string
		alive  []Seat
		option string // maniac_vs_mafia_1x1
		want   Winner
	}{
		{"nobody alive is a draw", nil, "", WinnerDraw},
		{"nobody alive is a draw whatever maniac_vs_mafia_1x1 says", nil, "mafia", WinnerDraw},
		{"town alone wins", []Seat{5, 6, 7}, "", WinnerTown},
		{"one citizen alone wins for the town", []Seat{7}, "", WinnerTown},
		{"maniac alone wins", []Seat{4}, "", WinnerManiac},
		{"maniac and a citizen: maniac 1x1", []Seat{4, 7}, "", WinnerManiac},
		{"maniac and the detective: maniac 1x1", []Seat{4, 5}, "mafia", WinnerManiac},
		{"maniac and a mafioso, default: maniac", []Seat{2, 4}, "", WinnerManiac},
		{"maniac and a mafioso, option maniac", []Seat{2, 4}, "maniac", WinnerManiac},
		{"maniac and a mafioso, option mafia", []Seat{2, 4}, "mafia", WinnerMafia},
		{"maniac and a mafioso, option draw", []Seat{2, 4}, "draw", WinnerDraw},
		{"maniac and the don, option mafia: the don is a mafioso", []Seat{1, 4}, "mafia", WinnerMafia},
		{"maniac and the don, option draw", []Seat{1, 4}, "draw", WinnerDraw},
		{"mafia alone wins", []Seat{2}, "", WinnerMafia},
		{"mafia 1x1 against a citizen", []Seat{1, 7}, "", WinnerMafia},
		{"mafia 2x2", []Seat{1, 2, 5, 7}, "", WinnerMafia},
		{"mafia 3x3", []Seat{1, 2, 3, 5, 6, 7}, "", WinnerMafia},
		{"mafia outnumber the rest", []Seat{1, 2, 3, 7}, "", WinnerMafia},
		{"two mafiosi and the maniac: mafia (the maniac is among the others)", []Seat{1, 2, 4}, "", WinnerMafia},
		{"mafia 2 against maniac and citizen: mafia at parity", []Seat{1, 2, 4, 7}, "", WinnerMafia},
		{"mafioso, maniac, citizen: goes on", []Seat{2, 4, 7}, "", WinnerNone},
		{"mafioso, maniac, citizen: goes on whatever the option", []Seat{2, 4, 7}, "mafia", WinnerNone},
		{"one mafioso against two: goes on", []Seat{1, 5, 6}, "", WinnerNone},
		{"maniac and two citizens: goes on", []Seat{4, 6, 7}, "", WinnerNone},
		{"two mafiosi against two and the maniac: goes on", []Seat{1, 3, 4, 5, 7}, "", WinnerNone},
		{"everyone alive: goes on", []Seat{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "", WinnerNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := DefaultRules()
			if tc.option != "" {
				if err := r.Set("maniac_vs_mafia_1x1", tc.option); err != nil {
					t.Fatal(err)
				}
			}
			var roles []Role
			for _, name := range strings.Fields(deal) {
				role, ok := ParseRole(name)
				if !ok {
					t.Fatalf("role %q", name)
				}
				roles = append(roles, role)
			}
			g, _, err := New(r, roles, 0)
			if err != nil {
				t.Fatal(err)
			}
			g.alive = SetOf(tc.alive...)
			if got := g.result(); got != tc.want {
				t.Errorf("alive %v, maniac_vs_mafia_1x1=%q: winner %q, want %q", tc.alive, tc.option, got, tc.want)
			}
			// endCheck ends the game exactly when result names a winner,
			// with every role revealed.
			ended := g.endCheck()
			if ended != (tc.want != WinnerNone) {
				t.Fatalf("endCheck() = %v, want %v", ended, tc.want != WinnerNone)
			}
			if ended {
				if g.phase != PhaseEnded || g.winner != tc.want {
					t.Errorf("after endCheck: phase %s winner %q", g.phase, g.winner)
				}
				last := g.out[len(g.out)-1]
				if last.Kind != EvGameEnded || last.Winner != tc.want {
					t.Errorf("last event %s winner %q", last.Kind, last.Winner)
				}
				for s := Seat(1); s <= Seat(len(roles)); s++ {
					if Role(last.PerSeat[s]) != roles[s-1] {
						t.Errorf("game_ended shows seat %d as %s, want %s", s, Role(last.PerSeat[s]), roles[s-1])
					}
				}
			}
		})
	}
}

// TestEndOfGame_WithoutManiacAtTheTable pins that a table with no maniac
// never gives the maniac's result.
func TestEndOfGame_WithoutManiacAtTheTable(t *testing.T) {
	roles := []Role{Don, Citizen, Citizen}
	for _, tc := range []struct {
		alive []Seat
		want  Winner
	}{
		{[]Seat{1, 2}, WinnerMafia},
		{[]Seat{2}, WinnerTown},
		{[]Seat{1}, WinnerMafia},
		{[]Seat{1, 2, 3}, WinnerNone},
		{nil, WinnerDraw},
	} {
		g, _, err := New(DefaultRules(), roles, 0)
		if err != nil {
			t.Fatal(err)
		}
		g.alive = SetOf(tc.alive...)
		if got := g.result(); got != tc.want {
			t.Errorf("alive %v: winner %q, want %q", tc.alive, got, tc.want)
		}
	}
}
