package rating

import "fmt"

// Side is the team a seat played for.
type Side uint8

// The sides. The Don plays for the mafia.
const (
	Town Side = iota
	Mafia
	Maniac
)

var sideNames = [...]string{"town", "mafia", "maniac"}

// String is the side's name, as the engine writes a winner.
func (s Side) String() string {
	if int(s) < len(sideNames) {
		return sideNames[s]
	}
	return fmt.Sprintf("side(%d)", s)
}

// ParseSide reads a side's name.
func ParseSide(s string) (Side, bool) {
	for i, n := range sideNames {
		if n == s {
			return Side(i), true
		}
	}
	return 0, false
}

// Kind is which of a player's ratings: the overall one, or the one for a
// side.
type Kind string

// The kinds. There is no Maniac rating: a game played as the Maniac counts
// to the overall rating only (the card is dealt too rarely for a rating of
// its own to mean anything).
const (
	Overall Kind = "overall"
	AsTown  Kind = "town"
	AsMafia Kind = "mafia"
)

// Kinds are every kind, in the order updates list them.
var Kinds = []Kind{Overall, AsTown, AsMafia}

// KindOf is the side rating a seat of side s updates, "" for the Maniac.
func KindOf(s Side) Kind {
	switch s {
	case Town:
		return AsTown
	case Mafia:
		return AsMafia
	}
	return ""
}

// Seat is one seat of a finished game: whose (a player's id: an account's),
// the side its card played for, and whether its player left before the end
// (removed by fouls, or gone from a rated table).
type Seat struct {
	Player string
	Side   Side
	Left   bool
}

// Result is how a game ended: Winner's side won, or a draw.
type Result struct {
	Winner Side
	Draw   bool
}

// Key names one rating of one player.
type Key struct {
	Player string
	Kind   Kind
}

// Update is one rating's change by one game.
type Update struct {
	Player string
	Kind   Kind
	Side   Side
	Before Rating
	After  Rating
	// Won: the player's side won (never for one who left); Left: the
	// player left early and was rated as losing.
	Won  bool
	Left bool
}

// ForMafia are the parameters the project rates its games with: OpenSkill's
// defaults (Plackett-Luce, mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau
// 25/300), with teams as the mean of their players (Mean), since a mafia
// game's teams are of unequal sizes by design. docs/ratings.md says why.
func ForMafia() Params {
	p := Defaults()
	p.Strength = Mean
	return p
}

// Game turns a finished game into rating updates: one per seat for the
// overall rating, and one per town or mafia seat for that side's rating.
// The teams are the sides present (town, mafia, the Maniac), the winner
// first and the others tied behind it (a draw ties them all). current holds
// the players' ratings before the game; a player missing from it is new
// (p.New()).
//
// A player who left early loses as their side loses, whatever the result:
// their update is the one the game would give them had their side come
// last, and Left is set. The others are rated as if the leavers had not
// been at the table, so that nobody is punished for a partner who left.
// In the side pass each seat enters with the rating of the side it played
// (the Maniac with its overall one) and the Maniac's seat is not updated.
func Game(p Params, seats []Seat, res Result, current map[Key]Rating) ([]Update, error) {
	if len(seats) < 2 || res.Winner > Maniac {
		return nil, ErrBadInput
	}
	seen := make(map[string]bool, len(seats))
	for _, s := range seats {
		if s.Player == "" || seen[s.Player] || s.Side > Maniac {
			return nil, ErrBadInput
		}
		seen[s.Player] = true
	}
	var out []Update
	for _, pass := range []Kind{Overall, ""} {
		kindOf := func(s Seat) Kind {
			if pass == Overall || s.Side == Maniac {
				return Overall
			}
			return KindOf(s.Side)
		}
		before := func(s Seat) Rating {
			if r, ok := current[Key{s.Player, kindOf(s)}]; ok {
				return r
			}
			return p.New()
		}
		after := make([]Rating, len(seats))
		// The stayers' game.
		if err := rateSides(p, seats, res, -1, before, func(s Seat) bool { return !s.Left }, after); err != nil {
			return nil, err
		}
		// Each leaver's: everyone at the table, the leaver's side last.
		for _, side := range []Side{Town, Mafia, Maniac} {
			left := func(s Seat) bool { return s.Left && s.Side == side }
			if !anySeat(seats, left) {
				continue
			}
			got := make([]Rating, len(seats))
			if err := rateSides(p, seats, res, int(side), before, func(Seat) bool { return true }, got); err != nil {
				return nil, err
			}
			for i, s := range seats {
				if left(s) {
					after[i] = got[i]
				}
			}
		}
		for i, s := range seats {
			k := kindOf(s)
			if pass == "" && s.Side == Maniac {
				continue
			}
			won := !res.Draw && res.Winner == s.Side && !s.Left
			out = append(out, Update{Player: s.Player, Kind: k, Side: s.Side, Before: before(s), After: after[i], Won: won, Left: s.Left})
		}
	}
	return out, nil
}

func anySeat(seats []Seat, f func(Seat) bool) bool {
	for _, s := range seats {
		if f(s) {
			return true
		}
	}
	return false
}

// rateSides rates the game of the seats that count (in), one team per side
// present, and writes each counted seat's new rating into after (a seat not
// counted keeps its rating). last >= 0 puts that side behind every other.
func rateSides(p Params, seats []Seat, res Result, last int, before func(Seat) Rating, in func(Seat) bool, after []Rating) error {
	var teams [][]Rating
	var ranks []int
	var where [][]int // team → seat indexes
	for _, side := range []Side{Town, Mafia, Maniac} {
		var team []Rating
		var idx []int
		for i, s := range seats {
			if s.Side == side && in(s) {
				team = append(team, before(s))
				idx = append(idx, i)
			}
		}
		if len(team) == 0 {
			continue
		}
		rank := 1
		switch {
		case int(side) == last:
			rank = 2
		case res.Draw || res.Winner == side:
			rank = 0
		}
		teams, ranks, where = append(teams, team), append(ranks, rank), append(where, idx)
	}
	for i, s := range seats {
		after[i] = before(s)
	}
	if len(teams) < 2 {
		return nil
	}
	got, err := Rate(p, teams, ranks)
	if err != nil {
		return err
	}
	for t, idx := range where {
		for j, i := range idx {
			after[i] = got[t][j]
		}
	}
	return nil
}
