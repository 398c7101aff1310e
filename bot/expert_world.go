package bot

import (
	"mafia/engine"
	"mafia/rng"
)

// This file is the Expert bot's model of the hidden cards: a probability
// over team-worlds. A world says which seats are the mafia's and which seat
// is the maniac's (0: none); every other seat is the town's. The model holds
// every world consistent with what its owner knows for certain (its own
// card, its partners, its checks, the cards revealed on leaving, that the
// game goes on), each with a weight, the product of the likelihoods of the
// public acts seen so far in that world. Weights are linear float32 values
// renormalised when they grow small, so that a marginal is a sum and an
// update a product: no logarithm, no exponential, no allocation after a
// game's setup.
//
// A table of eleven seen from a town seat has C(10,3)·7 = 840 worlds,
// enumerated; a setup with more worlds than maxWorlds (custom tables of up
// to twenty seats) gets maxWorlds worlds drawn at random from the seeded
// source instead, consistent with what the seat knows, and drawn again
// (with what is known since) when the acts seen leave too few alive.

// The teams of a seat in a world, as indices of the likelihood tables.
const (
	tTown uint8 = iota
	tMafia
	tManiac
)

// maxWorlds bounds the worlds a model holds: beyond it they are sampled.
const maxWorlds = 2048

// world is one assignment of the hidden teams.
type world struct {
	mafia engine.SeatSet
	man   engine.Seat
	code  uint64 // 2 bits a seat: its team (tTown, tMafia, tManiac)
}

// mkWorld builds a world with its code.
func mkWorld(mafia engine.SeatSet, man engine.Seat) world {
	var code uint64
	for m := mafia; m != 0; {
		s := m.First()
		m = m.Without(s)
		code |= uint64(tMafia) << (2 * s)
	}
	if man != 0 {
		code |= uint64(tManiac) << (2 * man)
	}
	return world{mafia: mafia, man: man, code: code}
}

// team is s's team in w.
func (w world) team(s engine.Seat) uint8 {
	switch {
	case w.mafia.Has(s):
		return tMafia
	case s != 0 && w.man == s:
		return tManiac
	}
	return tTown
}

// bad is the set of seats not in the town in w.
func (w world) bad() engine.SeatSet {
	if w.man != 0 {
		return w.mafia.With(w.man)
	}
	return w.mafia
}

// model is a weighted set of worlds with its marginals.
type model struct {
	n       uint8
	k       int  // mafia in a world (0: unknown, sampled in [kLo, kHi])
	kLo     int  // the mafia's smallest count considered
	kHi     int  // the mafia's largest
	maniac  int8 // 1: there is a maniac, 0: none, -1: unknown
	sampled bool

	// what is known for certain, to draw worlds again
	isMafia, notMafia engine.SeatSet // seats known in / out of the mafia
	isMan, notMan     engine.SeatSet // seats known to be / not to be the maniac

	ws  []world
	p   []float32
	cnt int // live worlds: ws[:cnt]

	pend  [32]pendingAct // acts not yet weighed (act)
	npend int

	dirty bool
	total float32
	maf   [engine.MaxSeats + 1]float32 // P(mafia)
	manP  [engine.MaxSeats + 1]float32 // P(maniac)
}

// reset starts the model for a table of n seats: mafia of k (kLo..kHi when
// k is 0), a maniac as maniac says, with the known facts given.
func (m *model) reset(n uint8, kLo, kHi int, maniac int8, isMafia, notMafia, isMan, notMan engine.SeatSet, src *rng.Source) {
	m.n, m.kLo, m.kHi, m.maniac = n, kLo, kHi, maniac
	m.k = 0
	if kLo == kHi {
		m.k = kLo
	}
	m.isMafia, m.notMafia, m.isMan, m.notMan = isMafia, notMafia, isMan, notMan
	m.build(src)
}

// build fills the worlds from the known facts: every one when they are few,
// else a sample.
func (m *model) build(src *rng.Source) {
	if cap(m.ws) < maxWorlds {
		m.ws = make([]world, 0, maxWorlds)
		m.p = make([]float32, 0, maxWorlds)
	}
	m.ws, m.p = m.ws[:0], m.p[:0]
	all := engine.SeatSet(uint32(1)<<(m.n+1) - 2)
	free := all &^ m.isMafia &^ m.notMafia
	need := -1
	if m.k != 0 {
		need = m.k - m.isMafia.Len()
	}
	m.sampled = need < 0 || m.maniac < 0 || countWorlds(free.Len(), need, m.maniac) > maxWorlds
	if !m.sampled {
		m.enumerate(free, need, m.isMafia, all)
	} else {
		for tries := 0; len(m.ws) < maxWorlds && tries < 8*maxWorlds && src != nil; tries++ {
			if w, ok := m.draw(src, all); ok {
				m.ws = append(m.ws, w)
			}
		}
	}
	m.p = m.p[:len(m.ws)]
	for i := range m.p {
		m.p[i] = 1
	}
	m.cnt = len(m.ws)
	m.npend = 0
	m.dirty = true
}

// countWorlds is C(free, need) times the maniac's choices (an estimate
// bound when it is unknown).
func countWorlds(free, need int, maniac int8) int {
	if need < 0 || need > free {
		return 0
	}
	c := 1
	for i := 0; i < need; i++ {
		c = c * (free - i) / (i + 1)
		if c > 1<<20 {
			return c
		}
	}
	if maniac != 0 {
		c *= free - need + 1
	}
	return c
}

// enumerate adds every world: need seats of free to the mafia (besides
// those known), then the maniac among the rest.
func (m *model) enumerate(free engine.SeatSet, need int, base, all engine.SeatSet) {
	var rec func(rest engine.SeatSet, need int, set engine.SeatSet)
	rec = func(rest engine.SeatSet, need int, set engine.SeatSet) {
		if need == 0 {
			m.addManiacs(set, all)
			return
		}
		for r := rest; r != 0; {
			s := r.First()
			r = r.Without(s)
			if r.Len() < need-1 {
				return
			}
			rec(r, need-1, set.With(s))
		}
	}
	rec(free, need, base)
}

// addManiacs adds the worlds of one mafia with each maniac possible.
func (m *model) addManiacs(mafia, all engine.SeatSet) {
	if m.maniac == 0 {
		m.ws = append(m.ws, mkWorld(mafia, 0))
		return
	}
	cand := all &^ mafia &^ m.notMan
	if m.isMan != 0 {
		cand &= m.isMan
	}
	for c := cand; c != 0; {
		s := c.First()
		c = c.Without(s)
		if len(m.ws) < maxWorlds {
			m.ws = append(m.ws, mkWorld(mafia, s))
		}
	}
}

// draw is one world at random consistent with the known facts.
func (m *model) draw(src *rng.Source, all engine.SeatSet) (world, bool) {
	k := m.k
	if k == 0 {
		k = m.kLo + src.Intn(m.kHi-m.kLo+1)
	}
	mafia := m.isMafia
	free := all &^ m.isMafia &^ m.notMafia &^ m.isMan
	for mafia.Len() < k {
		if free == 0 {
			return world{}, false
		}
		s := free.Nth(src.Intn(free.Len()))
		mafia, free = mafia.With(s), free.Without(s)
	}
	if mafia.Len() != k {
		return world{}, false
	}
	w := world{mafia: mafia}
	hasMan := m.maniac == 1 || m.isMan != 0 || (m.maniac < 0 && src.Intn(2) == 0)
	if hasMan {
		cand := all &^ mafia &^ m.notMan
		if m.isMan != 0 {
			cand &= m.isMan
		}
		if cand == 0 {
			return world{}, false
		}
		w.man = cand.Nth(src.Intn(cand.Len()))
	} else if m.isMan != 0 {
		return world{}, false
	}
	return mkWorld(w.mafia, w.man), true
}

// keep drops every world for which ok is false (a certain fact); a sampled
// model that loses too many draws again from what is known.
func (m *model) keep(ok func(w world) bool, src *rng.Source) {
	m.flush()
	j := 0
	for i := 0; i < m.cnt; i++ {
		if ok(m.ws[i]) {
			m.ws[j], m.p[j] = m.ws[i], m.p[i]
			j++
		}
	}
	m.cnt = j
	m.dirty = true
	if m.cnt == 0 && src != nil {
		// the setup was not the one assumed (a custom table): forget the
		// counts, keep the facts, and draw worlds again
		m.k, m.kLo, m.kHi, m.maniac = 0, 1, max(1, int(m.n-1)/2), -1
		m.build(src)
		j = 0
		for i := 0; i < m.cnt; i++ {
			if ok(m.ws[i]) {
				m.ws[j], m.p[j] = m.ws[i], m.p[i]
				j++
			}
		}
		m.cnt = j
		return
	}
	if m.sampled && m.cnt < maxWorlds/8 && src != nil {
		old := m.cnt
		// keep the survivors' weights in front, draw fresh worlds after
		all := engine.SeatSet(uint32(1)<<(m.n+1) - 2)
		var avg float32
		for i := 0; i < old; i++ {
			avg += m.p[i]
		}
		if old > 0 {
			avg /= float32(old)
		} else {
			avg = 1
		}
		m.ws, m.p = m.ws[:old], m.p[:old]
		for tries := 0; len(m.ws) < maxWorlds && tries < 4*maxWorlds; tries++ {
			if w, ok2 := m.draw(src, all); ok2 && ok(w) {
				m.ws = append(m.ws, w)
				m.p = append(m.p, avg)
			}
		}
		m.cnt = len(m.ws)
	}
}

// knowMafia records a certain fact: s is (in) or is not in the mafia.
func (m *model) knowMafia(s engine.Seat, in bool, src *rng.Source) {
	if in {
		m.isMafia = m.isMafia.With(s)
		m.notMan = m.notMan.With(s)
	} else {
		m.notMafia = m.notMafia.With(s)
	}
	m.keep(func(w world) bool { return w.mafia.Has(s) == in }, src)
}

// knowTeam records a certain fact: s is of team t.
func (m *model) knowTeam(s engine.Seat, t engine.Team, src *rng.Source) {
	if t == engine.TeamManiac && m.maniac == 0 {
		t = engine.TeamTown // a model with no maniac counts him out of the mafia only
	}
	switch t {
	case engine.TeamMafia:
		m.isMafia, m.notMan = m.isMafia.With(s), m.notMan.With(s)
	case engine.TeamManiac:
		m.isMan, m.notMafia = m.isMan.With(s), m.notMafia.With(s)
	case engine.TeamTown:
		m.notMafia, m.notMan = m.notMafia.With(s), m.notMan.With(s)
	default:
		return
	}
	want := tTown
	switch t {
	case engine.TeamMafia:
		want = tMafia
	case engine.TeamManiac:
		want = tManiac
	}
	m.keep(func(w world) bool { return w.team(s) == want }, src)
}

// mul multiplies every world's weight by f(w).
func (m *model) mul(f func(w world) float32) {
	m.flush()
	var hi float32
	for i := 0; i < m.cnt; i++ {
		m.p[i] *= f(m.ws[i])
		if m.p[i] > hi {
			hi = m.p[i]
		}
	}
	m.norm(hi)
}

// act weighs an act of a on t by a table of likelihoods indexed by their
// teams in each world. Acts wait in a batch, weighed in one pass over the
// worlds before anything reads or changes the weights otherwise.
func (m *model) act(a, t engine.Seat, tab *[3][3]float32) {
	if m.npend == len(m.pend) {
		m.flush()
	}
	m.pend[m.npend] = pendingAct{a: 2 * uint8(a), t: 2 * uint8(t), tab: flatten(tab)}
	m.npend++
	m.dirty = true
}

// pendingAct is an act waiting in the batch: its seats' shifts in a
// world's code, and its table flattened (index actor<<2 | target).
type pendingAct struct {
	a, t uint8
	tab  [16]float32
}

func flatten(tab *[3][3]float32) (flat [16]float32) {
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			flat[i*4+j] = tab[i][j]
		}
	}
	return flat
}

// flush weighs the batch of acts.
func (m *model) flush() {
	if m.npend == 0 {
		return
	}
	pend := m.pend[:m.npend]
	m.npend = 0
	var hi float32
	ws, p := m.ws[:m.cnt], m.p[:m.cnt]
	for i := range ws {
		code := ws[i].code
		x := p[i]
		for k := range pend {
			a := &pend[k]
			x *= a.tab[(code>>a.a&3)<<2|code>>a.t&3]
		}
		p[i] = x
		if x > hi {
			hi = x
		}
	}
	m.norm(hi)
}

// norm rescales the weights when the largest, hi, has drifted far from 1.
func (m *model) norm(hi float32) {
	m.dirty = true
	if hi <= 0 || (hi > 1e-12 && hi < 1e12) {
		return
	}
	f := 1 / hi
	for i := 0; i < m.cnt; i++ {
		m.p[i] *= f
	}
}

// marg recomputes the marginals if anything changed.
func (m *model) marg() {
	m.flush()
	if !m.dirty {
		return
	}
	m.dirty = false
	m.maf = [engine.MaxSeats + 1]float32{}
	m.manP = [engine.MaxSeats + 1]float32{}
	var tot float32
	for i := 0; i < m.cnt; i++ {
		p := m.p[i]
		if p == 0 {
			continue
		}
		tot += p
		w := m.ws[i]
		for x := w.mafia; x != 0; {
			s := x.First()
			x = x.Without(s)
			m.maf[s] += p
		}
		m.manP[w.man] += p
	}
	m.total = tot
	if tot <= 0 {
		return
	}
	f := 1 / tot
	for s := range m.maf {
		m.maf[s] *= f
		m.manP[s] *= f
	}
	m.manP[0] = 0
}

// pBad is the probability that s is not of the town.
func (m *model) pBad(s engine.Seat) float32 {
	m.marg()
	return m.maf[s] + m.manP[s]
}

// pMafia is the probability that s is a mafioso.
func (m *model) pMafia(s engine.Seat) float32 {
	m.marg()
	return m.maf[s]
}

// goesOn drops the worlds in which the game would have ended with alive
// the living seats (docs/rules.md, the end of the game).
func (m *model) goesOn(alive engine.SeatSet, src *rng.Source) {
	n := alive.Len()
	dead := engine.SeatSet(uint32(1)<<(m.n+1)-2) &^ alive
	if m.kHi > 0 && dead.Len() < m.kLo && n > 2*m.kHi && n > 2 {
		return // no world has lost its whole mafia or reached parity yet
	}
	m.keep(func(w world) bool {
		maf := (w.mafia & alive).Len()
		man := w.man != 0 && alive.Has(w.man)
		switch {
		case maf == 0 && !man:
			return false
		case man && n <= 2:
			return false
		case maf >= n-maf:
			return false
		}
		return true
	}, src)
}

// snapshot is a model's weights and marginals, to put back after a look
// that must change nothing (a bot's lines).
type snapshot struct {
	p     []float32
	cnt   int
	pend  [32]pendingAct
	npend int
	dirty bool
	total float32
	maf   [engine.MaxSeats + 1]float32
	manP  [engine.MaxSeats + 1]float32
}

// save copies the model's weights into s (its buffer made once).
func (m *model) save(s *snapshot) {
	if cap(s.p) < maxWorlds {
		s.p = make([]float32, 0, maxWorlds)
	}
	s.p = append(s.p[:0], m.p[:m.cnt]...)
	s.cnt, s.pend, s.npend, s.dirty, s.total, s.maf, s.manP = m.cnt, m.pend, m.npend, m.dirty, m.total, m.maf, m.manP
}

// restore puts back what save copied.
func (m *model) restore(s *snapshot) {
	copy(m.p, s.p)
	m.cnt, m.pend, m.npend, m.dirty, m.total, m.maf, m.manP = s.cnt, s.pend, s.npend, s.dirty, s.total, s.maf, s.manP
}
