// Package tells is a public-record classifier: the simple rules a sharp
// player uses to pick the mafia from what every seat sees (statements,
// nominations, votes, deaths and the cards or teams they reveal), never a
// secret. The simulator ranks the living seats with it at a fixed point of
// each game and counts how many of its top three are mafia (`mafia sim
// --report`, docs/balance.md): a bot level whose mafia it reads better than
// chance gives itself away.
//
// It is pure: no clock, no randomness, no I/O; a Reader folds events and
// answers from fixed-size arrays, allocating nothing.
package tells

import "mafia/engine"

// The weights of the tells (points of suspicion).
const (
	wSilent       = 6 // had a speech and never said suspect or will_nominate
	wSecondClaim  = 4 // claimed the Detective after someone else
	wFirstClaim   = 2 // the first Detective claimer (taken off)
	wAllMafia     = 2 // made reports, every one of them "mafia", and is no first claimer
	wAccused      = 4 // reported mafia by the first claimer
	wCleared      = 2 // reported not mafia by the first claimer (taken off)
	wAgainst      = 1 // voted against the day's majority (per vote)
	wWith         = 1 // voted with it (taken off, per vote)
	wBadVote      = 1 // voted or nominated a seat revealed town
	wBadVouch     = 2 // vouched for a seat revealed mafia
	wLiar         = 8 // a report or claim a revealed card contradicts
	wVictimAccuse = 1 // accused by a seat the night took
)

// Reader reads one game's public record. Reset it for each game, show it
// every event (it ignores any but the public ones), and ask Rank.
type Reader struct {
	n     int
	rules engine.Ruleset
	alive engine.SeatSet

	spoke    engine.SeatSet // had a floor of its own (a speech)
	opinion  engine.SeatSet // said suspect or will_nominate at least once
	first    engine.Seat    // the first Detective claimer
	claimers engine.SeatSet // every Detective claimer
	reports  [engine.MaxSeats + 1]uint8
	bad      [engine.MaxSeats + 1]uint8 // of them, "mafia" (or maniac) answers
	said     [engine.MaxSeats + 1][engine.MaxSeats + 1]engine.Result
	accused  [engine.MaxSeats + 1]engine.SeatSet // seats each seat accused (report mafia, suspect, will_nominate, nominate, vote)
	vouched  [engine.MaxSeats + 1]engine.SeatSet
	votedFor [engine.MaxSeats + 1]engine.SeatSet // seats each seat nominated or voted for
	score    [engine.MaxSeats + 1]int32
	away     [engine.MaxSeats + 1]uint8 // votes against the majority
	with     [engine.MaxSeats + 1]uint8 // votes with it
	nomAway  [engine.MaxSeats + 1]uint8 // nominations of a seat the vote then spared
	nomBy    [engine.MaxSeats + 1]engine.Seat
	cands    [engine.MaxSeats]engine.Seat
	ncand    int
	multi    bool
}

// Reset starts a game of n seats under rules.
func (r *Reader) Reset(n int, rules engine.Ruleset) {
	*r = Reader{n: n, rules: rules, alive: engine.SeatSet(uint32(1)<<(n+1) - 2)}
}

// Alive returns the living seats as the record shows them.
func (r *Reader) Alive() engine.SeatSet { return r.alive }

// See folds one event; events that are not public are ignored.
func (r *Reader) See(e *engine.Event) {
	if e.Audience() != engine.AudPublic {
		return
	}
	switch e.Kind {
	case engine.EvSpeech:
		r.spoke = r.spoke.With(e.Target)
	case engine.EvStatement:
		r.statement(e)
	case engine.EvNominated:
		r.accused[e.Actor] = r.accused[e.Actor].With(e.Target)
		r.votedFor[e.Actor] = r.votedFor[e.Actor].With(e.Target)
	case engine.EvVoteBegan:
		r.ncand, r.multi = int(e.Count), e.Count > 1
		for i := 0; i < r.ncand && i < len(r.cands); i++ {
			r.cands[i] = e.ListAt(i)
		}
	case engine.EvVoteClosed:
		r.vote(e)
	case engine.EvPlayerOut:
		r.out(e)
	}
}

func (r *Reader) statement(e *engine.Event) {
	by := e.Actor
	switch e.Verb {
	case engine.Claim:
		if e.Role == engine.Detective && !r.claimers.Has(by) {
			if r.first == 0 {
				r.first = by
			}
			r.claimers = r.claimers.With(by)
		}
	case engine.Report:
		r.reports[by]++
		if e.Result != engine.ResultNotMafia {
			r.bad[by]++
			r.accused[by] = r.accused[by].With(e.Target)
		}
		r.said[by][e.Target] = e.Result
	case engine.Suspect, engine.WillNominate:
		r.opinion = r.opinion.With(by)
		r.accused[by] = r.accused[by].With(e.Target)
	case engine.Vouch:
		r.vouched[by] = r.vouched[by].With(e.Target)
	}
}

// vote reads a closed vote: who voted with the day's majority (the
// candidate with the most votes) and who against it.
func (r *Reader) vote(e *engine.Event) {
	if !r.multi {
		return
	}
	var count [engine.MaxSeats + 1]int
	var top engine.Seat
	for v := engine.Seat(1); v <= engine.Seat(r.n); v++ {
		if c := e.CountedFor(v); c != 0 {
			count[c]++
			if top == 0 || count[c] > count[top] {
				top = c
			}
		}
	}
	for v := engine.Seat(1); v <= engine.Seat(r.n); v++ {
		c := e.CountedFor(v)
		if c == 0 {
			continue
		}
		r.votedFor[v] = r.votedFor[v].With(c)
		r.accused[v] = r.accused[v].With(c)
		if c == top {
			r.score[v] -= wWith
			r.with[v]++
		} else if v != top {
			r.score[v] += wAgainst
			r.away[v]++
		}
	}
}

// out reads a seat's leaving: the night's victim's accusations, and what a
// revealed team says of the votes, vouches and reports about it.
func (r *Reader) out(e *engine.Event) {
	t := e.Target
	r.alive = r.alive.Without(t)
	if e.Cause == engine.CauseNight {
		for s := engine.Seat(1); s <= engine.Seat(r.n); s++ {
			if r.accused[t].Has(s) {
				r.score[s] += wVictimAccuse
			}
		}
	}
	if e.Team == engine.TeamNone {
		return
	}
	seen := r.rules.DetectiveAnswer(e.Team)
	for s := engine.Seat(1); s <= engine.Seat(r.n); s++ {
		if e.Team == engine.TeamTown && r.votedFor[s].Has(t) {
			r.score[s] += wBadVote
		}
		if e.Team == engine.TeamMafia && r.vouched[s].Has(t) {
			r.score[s] += wBadVouch
		}
		if said := r.said[s][t]; said != engine.ResultNone && said != seen {
			r.score[s] += wLiar
		}
	}
	if r.claimers.Has(t) && (e.Team != engine.TeamTown || e.Role != engine.RoleNone && e.Role != engine.Detective) {
		r.score[t] += wLiar
	}
	if e.Role == engine.Detective {
		for m := r.claimers.Without(t); m != 0; {
			s := m.First()
			m = m.Without(s)
			r.score[s] += wLiar
		}
	}
}

// Score returns seat s's suspicion by the tells so far: higher is more
// likely mafia.
func (r *Reader) Score(s engine.Seat) int32 {
	x := r.score[s]
	if r.spoke.Has(s) && !r.opinion.Has(s) {
		x += wSilent
	}
	switch {
	case s == r.first:
		x -= wFirstClaim
	case r.claimers.Has(s):
		x += wSecondClaim
	}
	if r.reports[s] > 0 && r.bad[s] == r.reports[s] && s != r.first {
		x += wAllMafia
	}
	if r.first != 0 && r.first != s {
		switch r.said[r.first][s] {
		case engine.ResultMafia, engine.ResultManiac:
			x += wAccused
		case engine.ResultNotMafia:
			x -= wCleared
		}
	}
	return x
}

// Rank writes into out the living seats, most suspicious first (equal
// scores by seat number), and returns it: at most len(out) of them.
func (r *Reader) Rank(out []engine.Seat) []engine.Seat {
	k := 0
	for m := r.alive; m != 0 && len(out) > 0; {
		s := m.First()
		m = m.Without(s)
		x := r.Score(s)
		// insert s into out[:k], kept sorted by score, descending
		i := min(k, len(out)-1)
		if k == len(out) && r.Score(out[i]) >= x {
			continue
		}
		for i > 0 && r.Score(out[i-1]) < x {
			out[i] = out[i-1]
			i--
		}
		out[i] = s
		if k < len(out) {
			k++
		}
	}
	return out[:k]
}
