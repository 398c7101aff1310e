package club

import (
	"strconv"
	"strings"
)

// CSVHeader names the columns of Rows: one row per player per game, for a
// club's spreadsheet. The names in each language are the catalogs'
// (assist.club.csv.<id>); docs/club.md says what each holds.
var CSVHeader = []string{"game", "date", "game_name", "table", "number", "host", "referee", "rules",
	"seat", "person", "name", "role", "winner", "won", "removed_by_fouls", "first_killed", "best_move",
	"best_move_right", "points_win", "points_best_move", "points_extra", "points_fouls", "points",
	"points_compensation"}

// Rows lays games out under CSVHeader: one row per seat, in the order of the
// games and their seats. Person is the roster id the seat's games count
// under now (after merges); a guest's is empty. Won, removed_by_fouls and
// first_killed are yes or no; best_move is the guess ("3 5 8") on the row of
// the one who made it, with best_move_right the mafia it names; points are
// written as Points.String does.
func (s Scoring) Rows(roster *Roster, games []Game) [][]string {
	var rows [][]string
	for i := range games {
		g := &games[i]
		for _, l := range s.Score(g) {
			r := make([]string, len(CSVHeader))
			r[0], r[1], r[2], r[3] = g.ID, g.Date, g.Name, g.Table
			if g.Number > 0 {
				r[4] = strconv.Itoa(g.Number)
			}
			r[5], r[6], r[7] = g.Host, g.Referee, g.Rules
			r[8], r[9], r[10], r[11] = strconv.Itoa(l.Seat.Seat), roster.Resolve(l.Seat.Person), l.Seat.Name, l.Seat.Role
			r[12], r[13], r[14], r[15] = g.Winner, yesNo(l.Won), yesNo(l.RemovedByFouls), yesNo(l.FirstKilled)
			if l.BestMoveRight >= 0 {
				r[16], r[17] = seatList(g.BestMove.Guess), strconv.Itoa(l.BestMoveRight)
			}
			r[18], r[19], r[20], r[21], r[22] = l.Win.String(), l.BestMove.String(), l.Extra.String(), l.Fouls.String(), l.Total.String()
			r[23] = l.Compensation.String()
			rows = append(rows, r)
		}
	}
	return rows
}

// StandingsHeader names the columns of StandingsRows (assist.club.col.<id>
// in the catalogs).
var StandingsHeader = []string{"place", "person", "name", "points", "games", "average", "wins",
	"wins_town", "wins_mafia", "wins_maniac", "games_town", "games_mafia", "games_maniac", "best_moves", "foul_removals",
	"games_don", "wins_don", "games_detective", "wins_detective", "games_doctor", "wins_doctor"}

// StandingsPrinted is how many of StandingsHeader's columns the printable
// standings show (the first ones); the per-role ones after them are on
// each player's page.
const StandingsPrinted = 15

// StandingsRows lays standings out under StandingsHeader.
func StandingsRows(st []Standing) [][]string {
	rows := make([][]string, 0, len(st))
	for _, x := range st {
		rows = append(rows, []string{strconv.Itoa(x.Place), x.Person, x.Name, x.Points.String(), strconv.Itoa(x.Games),
			x.Average.String(), strconv.Itoa(x.Wins), strconv.Itoa(x.WinsTown), strconv.Itoa(x.WinsMafia),
			strconv.Itoa(x.WinsManiac), strconv.Itoa(x.GamesTown), strconv.Itoa(x.GamesMafia), strconv.Itoa(x.GamesManiac),
			strconv.Itoa(x.BestMoves), strconv.Itoa(x.FoulRemovals),
			strconv.Itoa(x.GamesDon), strconv.Itoa(x.WinsDon), strconv.Itoa(x.GamesDetective), strconv.Itoa(x.WinsDetective),
			strconv.Itoa(x.GamesDoctor), strconv.Itoa(x.WinsDoctor)})
	}
	return rows
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func seatList(ss []int) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = strconv.Itoa(s)
	}
	return strings.Join(parts, " ")
}
