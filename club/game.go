package club

import (
	"slices"

	"mafia/engine"
)

// Game is one finished in-person game as the club counts it: what the
// engine's record says happened (the cards, who left and how, who won),
// who sat where (roster ids), and what the host recorded for the club (the
// best move, the extra points).
type Game struct {
	ID      string `json:"id"`
	Date    string `json:"date"` // the day it was played, YYYY-MM-DD
	Name    string `json:"name"`
	Table   string `json:"table,omitempty"`  // the table of the evening ("1", "A")
	Number  int    `json:"number,omitempty"` // the game's number of the evening at that table
	Host    string `json:"host,omitempty"`
	Referee string `json:"referee,omitempty"`
	Rules   string `json:"rules"`  // the rules as a code (engine.RulesCode)
	Winner  string `json:"winner"` // town, mafia, maniac or draw
	Seats   []Seat `json:"seats"`
	// BestMove is the first-killed player's guess (nil: none recorded).
	BestMove *BestMove `json:"best_move,omitempty"`
	// Extra are the host's extra points, at most one entry per seat.
	Extra []Extra `json:"extra,omitempty"`
}

// Seat is one seat of a game.
type Seat struct {
	Seat   int    `json:"seat"`
	Person string `json:"person,omitempty"` // the roster id ("": a guest, counted in no standings)
	Name   string `json:"name"`
	Role   string `json:"role"` // as docs/rules.md spells it
	// Out is how the player left the game (night, vote, all, fouls; "":
	// still in at the end), OutOrder its place among the game's exits
	// (1: the first to leave; 0: still in).
	Out      string `json:"out,omitempty"`
	OutOrder int    `json:"out_order,omitempty"`
	OutRound int    `json:"out_round,omitempty"` // the round they left in
}

// BestMove is the first-killed player's guess of three mafia.
type BestMove struct {
	Seat  int   `json:"seat"`
	Guess []int `json:"guess"`
}

// Extra is the host's extra points for one seat (negative: a deduction).
type Extra struct {
	Seat   int    `json:"seat"`
	Points Points `json:"points"`
}

// RemovedByFouls reports whether the seat left the game by fouls.
func (s Seat) RemovedByFouls() bool { return s.Out == engine.CauseFouls.String() }

// Won reports whether a seat is among a game's winners: its card is on the
// winning side (the maniac alone for the maniac's win; nobody in a draw),
// and it was not removed by fouls, which is never a win.
func Won(s Seat, winner string) bool {
	if s.RemovedByFouls() {
		return false
	}
	r, ok := engine.ParseRole(s.Role)
	if !ok {
		return false
	}
	switch winner {
	case engine.WinnerTown.String():
		return r.Team() == engine.TeamTown
	case engine.WinnerMafia.String():
		return r.Team() == engine.TeamMafia
	case engine.WinnerManiac.String():
		return r == engine.Maniac
	}
	return false
}

// FirstKilled lists the seats that may make the best move: the players who
// left by the night's kill before anyone left otherwise, in the first night
// anyone was killed (two when the mafia and the maniac killed that night).
func (g *Game) FirstKilled() []int {
	first := -1
	for _, s := range g.Seats {
		if s.OutOrder > 0 && (first < 0 || s.OutOrder < g.Seats[first].OutOrder) {
			first = indexOf(g.Seats, s.Seat)
		}
	}
	if first < 0 || g.Seats[first].Out != engine.CauseNight.String() {
		return nil
	}
	// The victims of that night are its first exits, all by night.
	order := []Seat{}
	for _, s := range g.Seats {
		if s.OutOrder > 0 {
			order = append(order, s)
		}
	}
	slices.SortFunc(order, func(a, b Seat) int { return a.OutOrder - b.OutOrder })
	out := []int{}
	for _, s := range order {
		if s.Out != engine.CauseNight.String() || s.OutRound != order[0].OutRound {
			break
		}
		out = append(out, s.Seat)
		if len(out) == 2 {
			break
		}
	}
	return out
}

func indexOf(seats []Seat, n int) int {
	for i, s := range seats {
		if s.Seat == n {
			return i
		}
	}
	return -1
}

// seat returns seat n of the game.
func (g *Game) seat(n int) (Seat, bool) {
	if i := indexOf(g.Seats, n); i >= 0 {
		return g.Seats[i], true
	}
	return Seat{}, false
}

// CheckBestMove refuses a best move that is not a first-killed player's
// (FirstKilled), or whose guess is not three different seats of the table
// other than their own (Name says which).
func (g *Game) CheckBestMove(b BestMove) error {
	if !slices.Contains(g.FirstKilled(), b.Seat) {
		return &engine.Error{Code: CodeBadBestMove, Name: "seat", Seat: engine.Seat(b.Seat)}
	}
	if len(b.Guess) != 3 {
		return &engine.Error{Code: CodeBadBestMove, Name: "guess", N: 3}
	}
	seen := map[int]bool{}
	for _, n := range b.Guess {
		if _, ok := g.seat(n); !ok || n == b.Seat || seen[n] {
			return &engine.Error{Code: CodeBadBestMove, Name: "guess", N: 3, Target: engine.Seat(n)}
		}
		seen[n] = true
	}
	return nil
}

// BestMoveRight counts the mafia (the Don and the mafiosi; the maniac is no
// mafia) among a best move's guesses.
func (g *Game) BestMoveRight(b BestMove) int {
	n := 0
	for _, t := range b.Guess {
		if s, ok := g.seat(t); ok {
			if r, ok := engine.ParseRole(s.Role); ok && r.IsMafia() {
				n++
			}
		}
	}
	return n
}

// CheckExtra refuses extra points out of the club's range, for a seat off
// the table, or given twice to one seat.
func (s Scoring) CheckExtra(g *Game, extra []Extra) error {
	seen := map[int]bool{}
	for _, x := range extra {
		if _, ok := g.seat(x.Seat); !ok || seen[x.Seat] {
			return &engine.Error{Code: CodeBadExtra, Name: "seat", Seat: engine.Seat(x.Seat)}
		}
		if x.Points < s.ExtraMin || x.Points > s.ExtraMax {
			return &engine.Error{Code: CodeBadExtra, Name: "points", Seat: engine.Seat(x.Seat),
				Value: s.ExtraMin.String() + " … " + s.ExtraMax.String()}
		}
		seen[x.Seat] = true
	}
	return nil
}

// Line is one player's points for one game: the parts and their sum.
type Line struct {
	Seat          Seat   `json:"seat"`
	Won           bool   `json:"won"`
	FirstKilled   bool   `json:"first_killed"`
	BestMoveRight int    `json:"best_move_right"` // -1: no best move of theirs
	Win           Points `json:"win"`
	BestMove      Points `json:"best_move"`
	Extra         Points `json:"extra"`
	Fouls         Points `json:"fouls"`
	// Compensation is the first-killed player's (Scoring.FirstKilled).
	Compensation   Points `json:"compensation,omitempty"`
	Total          Points `json:"total"`
	RemovedByFouls bool   `json:"removed_by_fouls"`
}

// Score gives every seat of a game its points under the rules: Win for a
// winner (Won), BestMove2 or BestMove3 for the first-killed player's best
// move with two or three mafia right, the host's extra points (clamped to
// the rules' range, as the rules may have changed since), and Fouls for a
// removal by fouls, and FirstKilled to each first-killed player (the
// first night's victim's compensation). A best move that CheckBestMove refuses counts nothing.
func (s Scoring) Score(g *Game) []Line {
	fk := g.FirstKilled()
	extra := map[int]Points{}
	for _, x := range g.Extra {
		extra[x.Seat] = min(max(x.Points, s.ExtraMin), s.ExtraMax)
	}
	bm := g.BestMove
	if bm != nil && g.CheckBestMove(*bm) != nil {
		bm = nil
	}
	out := make([]Line, 0, len(g.Seats))
	for _, st := range g.Seats {
		l := Line{Seat: st, Won: Won(st, g.Winner), FirstKilled: slices.Contains(fk, st.Seat), BestMoveRight: -1,
			RemovedByFouls: st.RemovedByFouls(), Extra: extra[st.Seat]}
		if l.Won {
			l.Win = s.Win
		}
		if bm != nil && bm.Seat == st.Seat {
			l.BestMoveRight = g.BestMoveRight(*bm)
			switch l.BestMoveRight {
			case 2:
				l.BestMove = s.BestMove2
			case 3:
				l.BestMove = s.BestMove3
			}
		}
		if l.RemovedByFouls {
			l.Fouls = s.Fouls
		}
		if l.FirstKilled {
			l.Compensation = s.FirstKilled
		}
		l.Total = l.Win + l.BestMove + l.Extra + l.Fouls + l.Compensation
		out = append(out, l)
	}
	return out
}
