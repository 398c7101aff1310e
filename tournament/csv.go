package tournament

import "strconv"

// StandingsHeader are the ids of the standings' columns (docs/club.md): the
// CSV's header for machines (?header=ids), the same in every language; a
// column's id never changes meaning, new columns only go at the end (the
// per-role ones: games_town, wins_town, win_rate_town, … for each row of
// club.RoleRows).
var StandingsHeader = append([]string{"place", "person", "name", "finalist", "points", "qualifying", "final", "games", "wins",
	"best_move", "extra", "foul_removals", "first_killed"}, roleHeader()...)

// StandingsRows are the standings as CSV rows, in StandingsHeader's order.
func StandingsRows(st []Standing) [][]string {
	out := make([][]string, 0, len(st))
	for _, s := range st {
		fin := "no"
		if s.Finalist {
			fin = "yes"
		}
		out = append(out, []string{strconv.Itoa(s.Place), s.Person, s.Name, fin, s.Points.String(), s.Qualifying.String(),
			s.FinalPoints.String(), strconv.Itoa(s.Games), strconv.Itoa(s.Wins), s.BestMove.String(), s.Extra.String(),
			strconv.Itoa(s.FoulRemovals), strconv.Itoa(s.FirstKilled)})
		out[len(out)-1] = append(out[len(out)-1], roleCells(s)...)
	}
	return out
}
