package rating

import (
	"errors"
	"math"
)

// Rating is a belief about one player's skill: a normal distribution of
// mean Mu and standard deviation Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Ordinal is the conservative estimate that leaderboards sort by: Mu - 3
// Sigma, a skill the player is very likely (99.7% one-sided) to exceed, so
// that a newcomer (0 at the defaults) climbs by playing.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Model chooses how the ranking's likelihood is written.
type Model uint8

// The models.
const (
	// PlackettLuce (the paper's Algorithm 4, OpenSkill's default): a ranking
	// is drawn best first, each place from the teams not yet placed.
	PlackettLuce Model = iota
	// BradleyTerryFull (Algorithm 1): every pair of teams compared.
	BradleyTerryFull
)

// Strength chooses how a team's skill is made of its players'.
type Strength uint8

// The strengths.
const (
	// Sum: a team is the sum of its players' skills (the paper, OpenSkill).
	Sum Strength = iota
	// Mean: a team is the mean of its players' skills, so that a town of
	// seven and a mafia of three start even; each player's update is the
	// same Bayesian step through the mean (see docs/ratings.md).
	Mean
)

// Params are the method's parameters. The zero value is not usable: start
// from Defaults.
type Params struct {
	Model    Model
	Strength Strength
	// Mu and Sigma are a new player's rating.
	Mu, Sigma float64
	// Beta is the spread of one performance around the skill.
	Beta float64
	// Kappa is the least a variance may shrink to, as a factor.
	Kappa float64
	// Tau is added (as a variance, Tau²) to every sigma before a game, so
	// that a rating never freezes; 0 for none.
	Tau float64
	// LimitSigma keeps a sigma from growing through a game (with Tau).
	LimitSigma bool
	// AverageTies gives the teams of one place the mean of their mu
	// changes (openskill.py's treatment of ties since version 6).
	AverageTies bool
}

// Defaults are OpenSkill's published defaults: Plackett-Luce, mu 25, sigma
// 25/3, beta sigma/2, kappa 0.0001, tau 25/300, teams as sums.
func Defaults() Params {
	return Params{Model: PlackettLuce, Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300}
}

// New is a new player's rating under p.
func (p Params) New() Rating { return Rating{Mu: p.Mu, Sigma: p.Sigma} }

// ErrBadInput is returned for a game the method cannot rate: no teams, an
// empty team, a rank list of another length, a non-positive sigma, or a
// number that is not finite.
var ErrBadInput = errors.New("rating: bad input")

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
