package room

// This file counts who played each seat's moves: its person (their
// connection, or their bot account's program) or a stand-in (standin.go).
// The counts are saved with the table's row when the game ends
// (Settings.Played), so that the server does not rate a game a side played
// mostly through stand-ins (docs/ratings.md, "What stops a farm").

import "mafia/engine"

// Played is, by seat (index seat-1), the moves of a game its person made
// and those a stand-in made for them. A move is a command of the seat's
// that the game took, but a statement (a stand-in makes none). The counts
// of a game a server restarted during start again at the restart.
type Played struct {
	Person  []int `json:"person"`
	StandIn []int `json:"stand_in"`
}

// played counts a move of the game's by the seat that made it (cmd.By):
// the host's and the clock's commands, a server's bot's and statements
// count for nobody.
func (r *Room) played(cmd engine.Command) {
	s := int(cmd.By)
	if s < 1 || s >= len(r.seats) || r.seats[s].bot || cmd.Verb.IsStatement() {
		return
	}
	if r.moves.Person == nil {
		r.moves = Played{Person: make([]int, len(r.seats)-1), StandIn: make([]int, len(r.seats)-1)}
	}
	if r.seats[s].standIn {
		r.moves.StandIn[s-1]++
	} else {
		r.moves.Person[s-1]++
	}
}

// unplayed takes back the count of a move whose events the store refused.
func (r *Room) unplayed(cmd engine.Command) {
	s := int(cmd.By)
	if s < 1 || s >= len(r.seats) || r.seats[s].bot || cmd.Verb.IsStatement() || r.moves.Person == nil {
		return
	}
	if r.seats[s].standIn {
		r.moves.StandIn[s-1]--
	} else {
		r.moves.Person[s-1]--
	}
}

// MostlyStandIns reports whether the seats of one side (those whose
// index i has side(i) true) were played mostly through stand-ins: their
// stand-ins made more than half of their moves, or their people made none
// (the clock or the stand-ins played them). A nil Played (a game ended
// before there were counts) reports false.
func (p *Played) MostlyStandIns(side func(i int) bool) bool {
	if p == nil {
		return false
	}
	person, standIn := 0, 0
	for i := range p.Person {
		if side(i) && i < len(p.StandIn) {
			person += p.Person[i]
			standIn += p.StandIn[i]
		}
	}
	return person == 0 || standIn > person
}
