package club

// This file lays a club's game out in the JSON two sport-mafia communities
// use: mafiaratings.com's games API and Polemica's game. Only what a
// club's game holds is written; a field whose value the club does not know
// is left out, never guessed (docs/club.md: field by field, the source and
// its version, and what is left out).

import "strconv"

// Export formats a game or a season's games may be asked in.
const (
	FormatOwn          = "mafia"        // our own: the game as the club counts it, with its points
	FormatMafiaRatings = "mafiaratings" // mafiaratings.com, api/get/games.php (API version 0)
	FormatPolemica     = "polemica"     // Polemica's game JSON, as its community's client library reads it
)

// Formats lists the export formats.
var Formats = []string{FormatOwn, FormatMafiaRatings, FormatPolemica}

// MRGame is one game as mafiaratings' api/get/games.php answers it.
type MRGame struct {
	ID      string     `json:"id"`                // ours (theirs is a number)
	ClubID  string     `json:"club_id,omitempty"` // ours (theirs is a number)
	Winner  string     `json:"winner,omitempty"`  // civ or maf; missing otherwise (theirs has no other)
	Players []MRPlayer `json:"players"`
}

// MRPlayer is one seat of an MRGame.
type MRPlayer struct {
	NickName string `json:"nick_name"`
	// Role is civ, srf, maf or don; missing for the maniac, whom their
	// roles do not know (the Doctor, a town card, is civ).
	Role       string `json:"role,omitempty"`
	DeathRound *int   `json:"death_round,omitempty"` // from 0; missing: survived
	DeathType  string `json:"death_type,omitempty"`  // day, night, warning; missing: survived
	// MafsGuessed is the mafia the first-killed player's best move names;
	// missing without one or with none right (as theirs).
	MafsGuessed *int `json:"mafs_guessed,omitempty"`
}

// mrRoles maps our cards to mafiaratings' roles.
var mrRoles = map[string]string{"citizen": "civ", "doctor": "civ", "detective": "srf", "mafia": "maf", "don": "don"}

// MafiaRatings lays a game out as mafiaratings' games API does.
func MafiaRatings(g *Game, clubID string) MRGame {
	out := MRGame{ID: g.ID, ClubID: clubID, Players: []MRPlayer{}}
	switch g.Winner {
	case "town":
		out.Winner = "civ"
	case "mafia":
		out.Winner = "maf"
	}
	right := -1
	if g.BestMove != nil && g.CheckBestMove(*g.BestMove) == nil {
		right = g.BestMoveRight(*g.BestMove)
	}
	for _, s := range g.Seats {
		p := MRPlayer{NickName: s.Name, Role: mrRoles[s.Role]}
		if s.OutRound > 0 {
			r := s.OutRound - 1
			p.DeathRound = &r
		}
		p.DeathType = map[string]string{"night": "night", "vote": "day", "all": "day", "fouls": "warning"}[s.Out]
		if right > 0 && g.BestMove.Seat == s.Seat {
			n := right
			p.MafsGuessed = &n
		}
		out.Players = append(out.Players, p)
	}
	return out
}

// PGame is one game as Polemica's game JSON has it.
type PGame struct {
	Name    string    `json:"name,omitempty"`
	Num     int       `json:"num,omitempty"`   // the game's number at its table
	Table   int       `json:"table,omitempty"` // the table, when it is a number
	Started string    `json:"started"`         // the day at 00:00 (a club's game keeps its day only)
	Referee *PUser    `json:"referee,omitempty"`
	Players []PPlayer `json:"players"`
	Result  *int      `json:"result,omitempty"` // 0 the red (town) win, 1 the black (mafia) win; missing otherwise
}

// PUser is a Polemica user as a game names one: by name only (the club
// knows no Polemica ids).
type PUser struct {
	Username string `json:"username"`
}

// PPlayer is one seat of a PGame.
type PPlayer struct {
	Position int    `json:"position"`
	Username string `json:"username"`
	// Role is 0 the Don, 1 a mafioso, 2 a red (peace) card, 3 the sheriff;
	// missing for the maniac (the Doctor, a red card, is 2).
	Role  *int    `json:"role,omitempty"`
	Guess *PGuess `json:"guess,omitempty"`
}

// PGuess is the first-killed player's best move: the seats named as mafia.
type PGuess struct {
	Mafs []int `json:"mafs"`
}

// pRoles maps our cards to Polemica's roles.
var pRoles = map[string]int{"don": 0, "mafia": 1, "citizen": 2, "doctor": 2, "detective": 3}

// Polemica lays a game out as Polemica's game JSON.
func Polemica(g *Game) PGame {
	out := PGame{Name: g.Name, Num: g.Number, Started: g.Date + "T00:00:00.000", Players: []PPlayer{}}
	if n, err := strconv.Atoi(g.Table); err == nil && n > 0 {
		out.Table = n
	}
	if g.Referee != "" {
		out.Referee = &PUser{Username: g.Referee}
	}
	switch g.Winner {
	case "town":
		r := 0
		out.Result = &r
	case "mafia":
		r := 1
		out.Result = &r
	}
	for _, s := range g.Seats {
		p := PPlayer{Position: s.Seat, Username: s.Name}
		if r, ok := pRoles[s.Role]; ok {
			p.Role = &r
		}
		if g.BestMove != nil && g.BestMove.Seat == s.Seat && g.CheckBestMove(*g.BestMove) == nil {
			p.Guess = &PGuess{Mafs: append([]int(nil), g.BestMove.Guess...)}
		}
		out.Players = append(out.Players, p)
	}
	return out
}
