package rating

import "math"

// team is one team's rating in a game: its skill's mean and variance, the
// factor w that makes it of its players' (1 for a sum, 1/n for a mean), and
// its place.
type team struct {
	mu, sigmaSq, w float64
	rank           int
}

// Rate rates one game: teams of players' ratings and each team's place in
// ranks (lower is better, equal is a tie; nil: in the order given, no
// ties). It returns every player's new rating, in the same shape; a game
// of one team changes nothing. The inputs are not modified.
func Rate(p Params, teams [][]Rating, ranks []int) ([][]Rating, error) {
	if len(teams) == 0 || (ranks != nil && len(ranks) != len(teams)) || p.Sigma <= 0 || p.Beta <= 0 {
		return nil, ErrBadInput
	}
	if ranks == nil {
		ranks = make([]int, len(teams))
		for i := range ranks {
			ranks[i] = i
		}
	}
	out := make([][]Rating, len(teams))
	tauSq := p.Tau * p.Tau
	for i, t := range teams {
		if len(t) == 0 {
			return nil, ErrBadInput
		}
		out[i] = make([]Rating, len(t))
		for j, r := range t {
			if !finite(r.Mu) || !finite(r.Sigma) || r.Sigma <= 0 {
				return nil, ErrBadInput
			}
			out[i][j] = Rating{Mu: r.Mu, Sigma: math.Sqrt(r.Sigma*r.Sigma + tauSq)}
		}
	}
	if len(teams) == 1 {
		copy(out[0], teams[0])
		return out, nil
	}
	ts := make([]team, len(out))
	for i, t := range out {
		w := 1.0
		if p.Strength == Mean {
			w = 1 / float64(len(t))
		}
		var mu, sq float64
		for _, r := range t {
			mu += r.Mu
			sq += r.Sigma * r.Sigma
		}
		ts[i] = team{mu: w * mu, sigmaSq: w * w * sq, w: w, rank: ranks[i]}
	}
	var omega, delta []float64
	if p.Model == BradleyTerryFull {
		omega, delta = bradleyTerry(p, ts)
	} else {
		omega, delta = plackettLuce(p, ts)
	}
	for i, t := range ts {
		for j, r := range out[i] {
			share := t.w * r.Sigma * r.Sigma / t.sigmaSq
			f := math.Max(1-t.w*share*delta[i], p.Kappa)
			r.Mu += share * omega[i]
			r.Sigma *= math.Sqrt(f)
			if p.LimitSigma {
				r.Sigma = math.Min(r.Sigma, teams[i][j].Sigma)
			}
			out[i][j] = r
		}
	}
	return out, nil
}

// plackettLuce is the paper's Algorithm 4: each team's Omega (the step of
// its mean) and Delta (the shrink of its variance), with gamma sigma_i/c.
func plackettLuce(p Params, ts []team) (omega, delta []float64) {
	var cc float64
	for _, t := range ts {
		cc += t.sigmaSq + p.Beta*p.Beta
	}
	c := math.Sqrt(cc)
	sumQ := make([]float64, len(ts))
	a := make([]float64, len(ts))
	for q, tq := range ts {
		for _, s := range ts {
			if s.rank >= tq.rank {
				sumQ[q] += math.Exp(s.mu / c)
			}
			if s.rank == tq.rank {
				a[q]++
			}
		}
	}
	omega, delta = make([]float64, len(ts)), make([]float64, len(ts))
	for i, ti := range ts {
		e := math.Exp(ti.mu / c)
		var o, d float64
		for q, tq := range ts {
			if tq.rank > ti.rank {
				continue
			}
			quot := e / sumQ[q]
			if q == i {
				o += (1 - quot) / a[q]
			} else {
				o -= quot / a[q]
			}
			d += quot * (1 - quot) / a[q]
		}
		gamma := math.Sqrt(ti.sigmaSq) / c
		omega[i] = o * ti.sigmaSq / c
		delta[i] = gamma * d * ti.sigmaSq / (c * c)
	}
	return omega, delta
}

// bradleyTerry is the paper's Algorithm 1 (full pairing): every other team
// q is a comparison won (1), lost (0) or tied (1/2), with gamma sigma_i/c_iq.
func bradleyTerry(p Params, ts []team) (omega, delta []float64) {
	omega, delta = make([]float64, len(ts)), make([]float64, len(ts))
	for i, ti := range ts {
		for q, tq := range ts {
			if q == i {
				continue
			}
			ciq := math.Sqrt(ti.sigmaSq + tq.sigmaSq + 2*p.Beta*p.Beta)
			piq := 1 / (1 + math.Exp((tq.mu-ti.mu)/ciq))
			eta := ti.sigmaSq / ciq
			gamma := math.Sqrt(ti.sigmaSq) / ciq
			s := 0.5
			if tq.rank > ti.rank {
				s = 1
			} else if tq.rank < ti.rank {
				s = 0
			}
			omega[i] += eta * (s - piq)
			delta[i] += gamma * eta / ciq * piq * (1 - piq)
		}
	}
	return omega, delta
}
