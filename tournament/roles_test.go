package tournament_test

import (
	"slices"
	"testing"

	"mafia/club"
	"mafia/tournament"
)

// TestStandings_ByRoleCountsEachCardOnItsSideAndItsOwnRow: 20 players on 2
// tables for 10 games sit in every seat once, so every player holds each
// of seatRole's cards: the Detective and the Doctor once (won, town), four
// citizens (won), the maniac once, the Don once and two mafiosi (lost).
// p03 is removed by fouls in a town game: that game is not won. The JSON's
// by_role and the CSV's per-role columns say so.
func TestStandings_ByRoleCountsEachCardOnItsSideAndItsOwnRow(t *testing.T) {
	roster := roster20()
	tr, err := tournament.New(config20(), roster)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SeatRounds(); err != nil {
		t.Fatal(err)
	}
	games := playQualifying(t, &tr, roster, []change{{player: 3, k: 0, town: true, fouls: true}})
	st := tr.Standings(roster, games)
	line := func(p string) tournament.Standing {
		for _, s := range st {
			if s.Person == p {
				return s
			}
		}
		t.Fatalf("no line for %s", p)
		return tournament.Standing{}
	}
	want := []club.RoleLine{{Role: "town", Games: 6, Wins: 6, WinRate: 100}, {Role: "mafia", Games: 3},
		{Role: "don", Games: 1}, {Role: "detective", Games: 1, Wins: 1, WinRate: 100},
		{Role: "doctor", Games: 1, Wins: 1, WinRate: 100}, {Role: "maniac", Games: 1}}
	if got := line(pid(1)).ByRole; !slices.Equal(got, want) {
		t.Errorf("p01 by role\n got %+v\nwant %+v", got, want)
	}
	p03 := line(pid(3)).ByRole
	if p03[0] != (club.RoleLine{Role: "town", Games: 6, Wins: 5, WinRate: 83}) {
		t.Errorf("p03's town games %+v; want 6 games, 5 wins, 83%%", p03[0])
	}
	rows := tournament.StandingsRows(st)
	if len(tournament.StandingsHeader) != 13+18 || len(rows[0]) != len(tournament.StandingsHeader) {
		t.Fatalf("header %d columns, row %d", len(tournament.StandingsHeader), len(rows[0]))
	}
	col := func(id string) int { return slices.Index(tournament.StandingsHeader, id) }
	for _, r := range rows {
		if r[1] != pid(3) {
			continue
		}
		if r[col("games_town")] != "6" || r[col("wins_town")] != "5" || r[col("win_rate_town")] != "83" ||
			r[col("games_don")] != "1" || r[col("wins_maniac")] != "0" || r[col("win_rate_doctor")] != "100" {
			t.Errorf("p03's CSV row %v", r)
		}
	}
}
