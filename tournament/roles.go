package tournament

import (
	"strconv"

	"mafia/club"
	"mafia/engine"
)

// roleTally is a player's games and wins per row of club.RoleRows.
type roleTally [6][2]int

// add counts a game with a card (as docs/rules.md spells it) on every row
// it belongs to: its side (town, mafia or the maniac) and its own row for
// the Don, the Detective and the Doctor.
func (t *roleTally) add(card string, won bool) {
	r, ok := engine.ParseRole(card)
	if !ok {
		return
	}
	rows := make([]int, 0, 2)
	switch {
	case r == engine.Maniac:
		rows = append(rows, 5)
	case r.Team() == engine.TeamMafia:
		rows = append(rows, 1)
	default:
		rows = append(rows, 0)
	}
	switch r {
	case engine.Don:
		rows = append(rows, 2)
	case engine.Detective:
		rows = append(rows, 3)
	case engine.Doctor:
		rows = append(rows, 4)
	}
	for _, i := range rows {
		t[i][0]++
		if won {
			t[i][1]++
		}
	}
}

// lines is the tally as club.RoleLine rows, in club.RoleRows' order.
func (t *roleTally) lines() []club.RoleLine {
	out := make([]club.RoleLine, len(club.RoleRows))
	for i, r := range club.RoleRows {
		out[i] = club.RoleLine{Role: r, Games: t[i][0], Wins: t[i][1], WinRate: club.WinRate(t[i][1], t[i][0])}
	}
	return out
}

// roleHeader are the standings' per-role columns: for each row of
// club.RoleRows its games, wins and win rate (percent).
func roleHeader() []string {
	var out []string
	for _, r := range club.RoleRows {
		out = append(out, "games_"+r, "wins_"+r, "win_rate_"+r)
	}
	return out
}

// roleCells are a standing's per-role cells, in roleHeader's order.
func roleCells(s Standing) []string {
	var out []string
	for _, l := range s.ByRole {
		out = append(out, strconv.Itoa(l.Games), strconv.Itoa(l.Wins), strconv.Itoa(l.WinRate))
	}
	return out
}
