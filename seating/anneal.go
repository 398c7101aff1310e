package seating

import (
	"math"

	"mafia/rng"
)

// avoidWeight is the cost of one meeting of a pair to keep apart: far above
// what any move can gain on the spread of the other pairs, even when the
// pairs kept apart force others to the extremes (two tables: a pair kept
// apart from one player meets every game).
const avoidWeight = 1e6

// restWeight is the cost of a player's sitting out two rounds in a row:
// the rota spreads the sit-outs, and a trade that bunches them pays it.
const restWeight = 60.0

// effort is the annealing's moves for each place of the seating (rounds ×
// tables × seats).
const effort = 3000

// MaxMoves bounds the annealing's moves whatever the seating's size. Up to
// it each place gets its effort (100 players of 10 games each: exactly
// MaxMoves); a larger seating shares MaxMoves among its places, so that no
// request can ask for minutes of CPU (300 players of 100 games each would
// otherwise be 90 million moves, about 76 s of one core). What it costs:
// about 2 s of one core on the 2-core machine of docs/performance.md.
const MaxMoves = 3_000_000

// movesFor is the annealing's moves for a seating of r rounds with places
// seated in each: effort for each place, at most MaxMoves.
func movesFor(r, places int) int { return min(effort*r*places, MaxMoves) }

// The cost's quartic term's divisor (costs) and the annealing's temperatures,
// in units of the cost (a pair's square).
const (
	quartic  = 0.5
	tempHot  = 10.0
	tempCold = 0.3
)

// state is the annealing's seating: who plays where in each round, who
// sits out, and how often each pair has met.
type state struct {
	n, r, t, s int
	play       [][]int   // play[r][t*s+k]: the player (0-based) at table t, place k
	out        [][]int   // out[r]: the players sitting out round r
	at         [][]int   // at[r][p]: p's index in play[r], or -1-(index in out[r])
	met        []int     // met[p*n+q]: the games p and q share
	avoid      []bool    // avoid[p*n+q]: p and q are to be kept apart
	up, down   []float64 // up[m], down[m]: the cost's change when a pair that met m times meets once more, once less
}

// newState builds the first seating: sit-outs by the rota (every player
// the same number of times, spread along the rounds), the rest seated at
// random.
func newState(cfg Config, src *rng.Source) *state {
	n, s := cfg.Players, cfg.Seats
	st := &state{n: n, r: cfg.Rounds(), t: cfg.Tables, s: s, met: make([]int, n*n), avoid: make([]bool, n*n)}
	for _, p := range cfg.Avoid {
		a, b := p[0]-1, p[1]-1
		st.avoid[a*n+b], st.avoid[b*n+a] = true, true
	}
	st.costs(cfg)
	rota := shuffled(n, src)
	k := 0
	places := st.t * s
	for r := 0; r < st.r; r++ {
		sits := make([]bool, n)
		out := make([]int, 0, n-places)
		for len(out) < n-places {
			out = append(out, rota[k%n])
			sits[rota[k%n]] = true
			k++
		}
		play := make([]int, 0, places)
		for _, p := range shuffled(n, src) {
			if !sits[p] {
				play = append(play, p)
			}
		}
		at := make([]int, n)
		for i, p := range play {
			at[p] = i
		}
		for i, p := range out {
			at[p] = -1 - i
		}
		st.play, st.out, st.at = append(st.play, play), append(st.out, out), append(st.at, at)
		for i, p := range play {
			for _, q := range play[i+1 : (i/s+1)*s] {
				st.met[p*n+q]++
				st.met[q*n+p]++
			}
		}
	}
	return st
}

// shuffled returns 0..n-1 in a seeded order (Fisher-Yates).
func shuffled(n int, src *rng.Source) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := src.Intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// costs fills up and down from a pair's cost f(m) = d² + d⁴/quartic, d
// the distance of its m meetings from the mean over the pairs: convex, so
// the least total is the most even spread for the total of meetings
// fixed, and steeper than the square far from the mean, so that a few
// pairs far off cost more than many a little off.
func (st *state) costs(cfg Config) {
	pairs := float64(st.n*(st.n-1)/2 - len(cfg.Avoid))
	mean := float64(st.r*st.t*st.s*(st.s-1)/2) / max(pairs, 1)
	f := func(m int) float64 {
		d := float64(m) - mean
		return d*d + d*d*d*d/quartic
	}
	st.up, st.down = make([]float64, st.r+1), make([]float64, st.r+1)
	for m := 0; m <= st.r; m++ {
		st.up[m] = f(m+1) - f(m)
		st.down[m] = f(m-1) - f(m)
	}
}

// pairCost is the change of the cost when the pair p,q meets once more
// (d = 1) or once less (d = -1).
func (st *state) pairCost(p, q, d int) float64 {
	m := st.met[p*st.n+q]
	var c float64
	if d > 0 {
		c = st.up[m]
	} else {
		c = st.down[m]
	}
	if st.avoid[p*st.n+q] {
		c += float64(d) * avoidWeight
	}
	return c
}

// leave takes the player at play[r][i] away from its table's others'
// meetings and returns the change of the cost.
func (st *state) leave(r, i int) float64 {
	return st.meet(r, i, -1)
}

// join adds the player at play[r][i] to its table's others' meetings and
// returns the change of the cost.
func (st *state) join(r, i int) float64 {
	return st.meet(r, i, 1)
}

func (st *state) meet(r, i, d int) float64 {
	row := st.play[r]
	p := row[i]
	base := i / st.s * st.s
	delta := 0.0
	for j := base; j < base+st.s; j++ {
		if j == i {
			continue
		}
		q := row[j]
		delta += st.pairCost(p, q, d)
		st.met[p*st.n+q] += d
		st.met[q*st.n+p] += d
	}
	return delta
}

// swap exchanges the players at places i and j of round r (two tables)
// and returns the change of the cost; swapping again undoes it.
func (st *state) swap(r, i, j int) float64 {
	delta := st.leave(r, i) + st.leave(r, j)
	row := st.play[r]
	row[i], row[j] = row[j], row[i]
	st.at[r][row[i]], st.at[r][row[j]] = i, j
	return delta + st.join(r, i) + st.join(r, j)
}

// trade: the player at play[r][i] sits out instead of out[r][o], and
// takes that one's place play[r2][j] in round r2, where it sat out at
// out[r2][o2]. Both keep their number of games; trading again undoes it.
func (st *state) trade(r, i, o, r2, j, o2 int) float64 {
	return st.exchange(r, i, o) + st.exchange(r2, j, o2)
}

// exchange puts out[r][o] in place play[r][i] and its player out.
func (st *state) exchange(r, i, o int) float64 {
	delta := st.leave(r, i)
	p, q := st.play[r][i], st.out[r][o]
	delta += restWeight * float64(st.restsBeside(p, r)-st.restsBeside(q, r))
	st.play[r][i], st.out[r][o] = q, p
	st.at[r][q], st.at[r][p] = i, -1-o
	return delta + st.join(r, i)
}

// anneal improves the seating by simulated annealing: effort moves for each
// place (movesFor: at most MaxMoves), the temperature falling
// geometrically from tempHot to tempCold.
func (st *state) anneal(src *rng.Source) {
	places := st.t * st.s
	moves := movesFor(st.r, places)
	if st.t < 2 && places == st.n {
		return // one table, nobody sits out: nothing to move
	}
	cool := math.Pow(tempCold/tempHot, 1/float64(moves))
	temp := tempHot
	sitOut := st.n > places
	for k := 0; k < moves; k, temp = k+1, temp*cool {
		r := src.Intn(st.r)
		if sitOut && (st.t < 2 || src.Intn(4) == 0) {
			i, o := src.Intn(places), src.Intn(st.n-places)
			p, q := st.play[r][i], st.out[r][o]
			r2 := src.Intn(st.r)
			j, o2 := st.at[r2][q], st.at[r2][p]
			if j < 0 || o2 >= 0 {
				continue // q does not play round r2, or p does not sit it out
			}
			o2 = -1 - o2
			if !st.accept(st.trade(r, i, o, r2, j, o2), temp, src) {
				st.trade(r, i, o, r2, j, o2)
			}
			continue
		}
		i, j := src.Intn(places), src.Intn(places)
		if i/st.s == j/st.s {
			continue
		}
		if !st.accept(st.swap(r, i, j), temp, src) {
			st.swap(r, i, j)
		}
	}
}

// accept is the annealing's rule: a move that costs nothing more is kept,
// one that costs delta more with the chance exp(-delta/temp).
func (st *state) accept(delta, temp float64, src *rng.Source) bool {
	return delta <= 0 || float64(src.Uint64()>>11)/(1<<53) < math.Exp(-delta/temp)
}

// restsBeside counts the rounds next to round r that player p sits out.
func (st *state) restsBeside(p, r int) int {
	n := 0
	if r > 0 && st.at[r-1][p] < 0 {
		n++
	}
	if r+1 < st.r && st.at[r+1][p] < 0 {
		n++
	}
	return n
}

// avoidMet reports whether a pair to keep apart shares a table.
func (st *state) avoidMet() bool {
	for i, a := range st.avoid {
		if a && st.met[i] > 0 {
			return true
		}
	}
	return false
}

// tables returns the rounds' tables as players numbered from 1, each
// table's players in no particular order.
func (st *state) tables() [][][]int {
	out := make([][][]int, st.r)
	for r, row := range st.play {
		out[r] = make([][]int, st.t)
		for t := range out[r] {
			tab := make([]int, st.s)
			for k := range tab {
				tab[k] = row[t*st.s+k] + 1
			}
			out[r][t] = tab
		}
	}
	return out
}
