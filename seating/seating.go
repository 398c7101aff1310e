package seating

import (
	"strconv"

	"mafia/engine"
	"mafia/rng"
)

// The codes of a seating's refusals.
const (
	// CodeBadSeating refuses a size out of range: players (MinPlayers to
	// MaxPlayers), tables (at least one, and no more seats in a round than
	// players), seats per table (MinSeats to MaxSeats), games (1 to
	// MaxGames), or more than MaxRounds rounds.
	CodeBadSeating engine.Code = "bad_seating"
	// CodeSeatingUneven refuses players and games that do not fill whole
	// rounds: players × games must be a multiple of the seats of a round
	// (N: that number).
	CodeSeatingUneven engine.Code = "seating_uneven"
	// CodeBadAvoid refuses a pair to keep apart that is not two different
	// players of the event (Value: the pair as given).
	CodeBadAvoid engine.Code = "bad_avoid"
	// CodeAvoidImpossible refuses pairs to keep apart that the generator
	// could not keep apart (too many for the tables).
	CodeAvoidImpossible engine.Code = "seating_avoid_impossible"
)

// Kinds are the kinds of the seating's codes (engine.Kind).
var Kinds = map[engine.Code]engine.Kind{
	CodeBadSeating: engine.KindInvalid, CodeSeatingUneven: engine.KindInvalid,
	CodeBadAvoid: engine.KindInvalid, CodeAvoidImpossible: engine.KindConflict,
}

// The bounds of a Config.
const (
	MinPlayers = 5
	MaxPlayers = 300
	MinSeats   = 5
	MaxSeats   = 20
	MaxGames   = 100
	MaxRounds  = 300
	// DefaultSeats is a table's size when Config.Seats is 0.
	DefaultSeats = 10
)

// Config is what a seating is asked for.
type Config struct {
	Players int      // N, numbered 1..N
	Tables  int      // T tables play each round
	Seats   int      // S seats at each table (0: DefaultSeats)
	Games   int      // G games for each player
	Avoid   [][2]int // pairs of players never to share a table
	Seed    uint64   // the seeded source's seed: the same seed, the same seating
}

// Seating is a generated seating: Rounds[r][t][s] is the player in seat
// s+1 at table t+1 of round r+1.
type Seating struct {
	Rounds [][][]int `json:"rounds"`
}

// Rounds returns how many rounds cfg's seating has: players × games over
// the seats of a round.
func (c Config) Rounds() int { return c.Players * c.Games / (c.Tables * c.seats()) }

func (c Config) seats() int {
	if c.Seats == 0 {
		return DefaultSeats
	}
	return c.Seats
}

// Check refuses a Config that cannot be seated, with a coded error.
func (c Config) Check() error {
	s := c.seats()
	if c.Players < MinPlayers || c.Players > MaxPlayers || s < MinSeats || s > MaxSeats || c.Tables < 1 ||
		c.Tables*s > c.Players || c.Games < 1 || c.Games > MaxGames {
		return &engine.Error{Code: CodeBadSeating}
	}
	if c.Players*c.Games%(c.Tables*s) != 0 {
		return &engine.Error{Code: CodeSeatingUneven, N: c.Tables * s}
	}
	if c.Rounds() > MaxRounds {
		return &engine.Error{Code: CodeBadSeating}
	}
	for _, p := range c.Avoid {
		if p[0] < 1 || p[1] < 1 || p[0] > c.Players || p[1] > c.Players || p[0] == p[1] {
			return &engine.Error{Code: CodeBadAvoid, Value: pairText(p)}
		}
	}
	return nil
}

// Generate seats cfg: the same cfg gives the same Seating. A Config that
// cannot be seated, or pairs that could not be kept apart, are refused
// with a coded error.
func Generate(cfg Config) (Seating, error) {
	if err := cfg.Check(); err != nil {
		return Seating{}, err
	}
	cfg.Seats = cfg.seats()
	src := rng.New(cfg.Seed)
	st := newState(cfg, &src)
	st.anneal(&src)
	if st.avoidMet() {
		return Seating{}, &engine.Error{Code: CodeAvoidImpossible}
	}
	return Seating{Rounds: assignSeats(cfg, st.tables(), &src)}, nil
}

func pairText(p [2]int) string { return strconv.Itoa(p[0]) + "-" + strconv.Itoa(p[1]) }
