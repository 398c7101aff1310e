package club

import (
	"slices"
	"testing"
)

// TestRoles_APlayersGamesAndWinsByRoleMatchAHandComputation: one person
// plays four games of a season with four cards (seven(): 1 don, 2 mafia,
// 3 maniac, 4 detective, 5 doctor, 6 and 7 citizens), and their line by
// role is counted by hand: town 3 games (detective, doctor, citizen) 2
// wins; mafia 1 game (the Don) 1 win; the Don 1 of 1; the Detective 1 of
// 1; the Doctor 0 of 1; the maniac none.
func TestRoles_APlayersGamesAndWinsByRoleMatchAHandComputation(t *testing.T) {
	roster := NewRoster([]Person{{ID: "x", Name: "Nino"}})
	at := func(id, winner string, seat int) Game {
		g := seven(id, "2026-01-10", winner)
		for i := range g.Seats {
			g.Seats[i].Person = ""
		}
		g.Seats[seat-1].Person = "x"
		return g
	}
	games := []Game{at("g1", "town", 4), at("g2", "mafia", 5), at("g3", "mafia", 1), at("g4", "town", 6)}
	st := DefaultScoring().Standings(Season{From: "2026-01-01", To: "2026-12-31"}, roster, games)
	if len(st) != 1 {
		t.Fatalf("%d standings", len(st))
	}
	want := []RoleLine{
		{Role: "town", Games: 3, Wins: 2, WinRate: 67},
		{Role: "mafia", Games: 1, Wins: 1, WinRate: 100},
		{Role: "don", Games: 1, Wins: 1, WinRate: 100},
		{Role: "detective", Games: 1, Wins: 1, WinRate: 100},
		{Role: "doctor", Games: 1, Wins: 0, WinRate: 0},
		{Role: "maniac", Games: 0, Wins: 0, WinRate: 0},
	}
	if got := st[0].Roles(); !slices.Equal(got, want) {
		t.Errorf("by role:\n%+v\nwant\n%+v", got, want)
	}
}

// TestWinRate_IsAPercentRoundedHalfUp.
func TestWinRate_IsAPercentRoundedHalfUp(t *testing.T) {
	for _, c := range []struct{ wins, games, want int }{{0, 0, 0}, {1, 3, 33}, {2, 3, 67}, {1, 8, 13}, {1, 200, 1}, {1, 201, 0}, {5, 5, 100}} {
		if got := WinRate(c.wins, c.games); got != c.want {
			t.Errorf("WinRate(%d, %d) = %d; want %d", c.wins, c.games, got, c.want)
		}
	}
}
