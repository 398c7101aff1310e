package bot

import "mafia/engine"

// This file is the Expert bot's plan per card: every choice is the best by
// its belief among the moves its view says are legal, its own knowledge
// first, and equal choices are broken by its seeded chance (never by seat
// order).
//
//   - town: nominate and vote the seat most likely mafia or maniac (among
//     near-equal candidates, the one nominated first, so that the town's
//     votes meet);
//   - Detective: check the likeliest bad seat not yet known;
//   - Doctor: protect the likeliest real Detective when one claimed, else
//     the likeliest town seat (himself only near the end);
//   - mafia: nominate and vote as the town sees it (the public model), never
//     a partner unless the partner is lost anyway; the Don hunts the
//     Detective (claimants and the town's most trusted first); every
//     mafioso names the victim a partner named;
//   - Maniac: play as the town, shoot whoever threatens him or the likely
//     Detective.

// Act implements Bot.
func (b *Expert) Act(v *engine.View) (engine.Command, bool) {
	if v.Seat == 0 {
		return engine.Command{}, false
	}
	if b.me != v.Seat || b.n != v.Players || len(b.own.ws) == 0 {
		b.adopt(v)
	}
	b.alive, b.phase = v.Alive, v.Phase
	b.ncand = v.NumCandidates
	b.cand = v.Candidates
	if v.Phase.Timed() && v.Speaker == v.Seat {
		if c, ok := b.statement(v); ok {
			return c, true
		}
	}
	return planMove(b, b.role, v)
}

// belief is how likely the bot holds s bad, its certain knowledge first:
// the cards it knows and (the Detective) its checks are in its worlds
// already; a mafioso ranks by the town's eyes (pubBad).
func (b *Expert) belief(s engine.Seat) float32 {
	if b.mafia() {
		return b.pubBad(s)
	}
	if b.role == engine.Maniac {
		return b.own.pMafia(s)
	}
	return b.bad(s)
}

// best returns the seat of set with the highest score (seeded ties), or 0.
func (b *Expert) best(set engine.SeatSet, score func(s engine.Seat) float32) engine.Seat {
	var top engine.Seat
	var hi float32
	for m := set; m != 0; {
		s := m.First()
		m = m.Without(s)
		x := score(s) + b.noise()
		if top == 0 || x > hi {
			top, hi = s, x
		}
	}
	return top
}

// nominee is whom to nominate in one's own speech, or 0.
func (b *Expert) nominee(v *engine.View) engine.Seat {
	targets := v.Targets(engine.Nominate)
	if targets == 0 {
		return 0
	}
	if t := b.talk.willNom; t != 0 && targets.Has(t) {
		return t // said so: keep one's word
	}
	if b.mafia() {
		return b.mafiaNominee(v, targets)
	}
	others := b.alive.Without(b.me)
	want := b.best(others, b.belief)
	if targets.Has(want) {
		return want
	}
	// the likeliest is nominated already: add another only if it is likely
	alt := b.best(targets, b.belief)
	if alt != 0 && b.belief(alt) >= b.prior()*1.3 {
		return alt
	}
	return 0
}

// prior is the share of bad seats among the living others: the belief of a
// seat nothing is known of.
func (b *Expert) prior() float32 {
	var sum float32
	n := 0
	for m := b.alive.Without(b.me); m != 0; {
		s := m.First()
		m = m.Without(s)
		sum += b.belief(s)
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float32(n)
}

// ballot is whom to vote for, or 0.
func (b *Expert) ballot(v *engine.View) engine.Seat {
	targets := v.Targets(engine.Vote).Without(b.me)
	if targets == 0 {
		return v.Targets(engine.Vote).First()
	}
	if b.mafia() {
		return b.mafiaBallot(targets)
	}
	return b.meet(targets, b.belief)
}

// meet is the candidate of set the bot votes for by score: the highest,
// and among those near it the first nominated, so that a side's votes meet
// on one seat.
func (b *Expert) meet(set engine.SeatSet, score func(s engine.Seat) float32) engine.Seat {
	var hi float32
	for m := set; m != 0; {
		s := m.First()
		m = m.Without(s)
		if x := score(s); x > hi {
			hi = x
		}
	}
	var pick engine.Seat
	order := uint8(255)
	for i := uint8(0); i < b.ncand; i++ {
		s := b.cand[i]
		if set.Has(s) && score(s) >= hi-0.03 && i < order {
			pick, order = s, i
		}
	}
	if pick == 0 {
		pick = b.best(set, score)
	}
	return pick
}

// allLeave answers "shall all of them leave?".
func (b *Expert) allLeave(v *engine.View) bool {
	tied := b.candidates()
	if tied.Has(b.me) {
		return false
	}
	if b.mafia() {
		if tied&b.team != 0 {
			return false
		}
		return true
	}
	var sum float32
	n := 0
	for m := tied; m != 0; {
		s := m.First()
		m = m.Without(s)
		sum += b.belief(s)
		n++
	}
	return n > 0 && sum/float32(n) >= 0.45
}

// detCheck is whom the Detective checks: the unknown seat detScore ranks
// first.
func (b *Expert) detCheck(v *engine.View, unknown engine.SeatSet) engine.Seat {
	return b.best(unknown, b.detScore)
}

// detScore ranks the Detective's checks: a likely bad seat, a claimant
// most of all (its check settles the claim for the town).
func (b *Expert) detScore(s engine.Seat) float32 {
	x := b.bad(s)
	if x > 0 && x < 1 {
		x += 0.1 // an unknown seat: a check tells something
	}
	if b.claimers.Has(s) {
		x += 0.5
	}
	return x
}

// heal is whom the Doctor heals: the likeliest real Detective among the
// claimants, else the seat most likely town that the night may take (a
// claimant, a voice the record trusts); himself only near the end.
func (b *Expert) heal(v *engine.View, targets engine.SeatSet) engine.Seat {
	others := targets.Without(b.me)
	if targets.Has(b.me) && (others == 0 || v.Alive.Len() <= 4) {
		return b.me
	}
	if others == 0 {
		return targets.First()
	}
	return b.best(others, func(s engine.Seat) float32 {
		x := 1 - b.bad(s)
		if b.claimers.Has(s) {
			x *= 2
		}
		return x
	})
}

// shot is the maniac's target: whoever threatens him, else the likely
// Detective, else the likeliest town voice.
func (b *Expert) shot(v *engine.View, targets engine.SeatSet) engine.Seat {
	return b.best(targets, func(s engine.Seat) float32 {
		x := float32(b.accuse[s]) * 0.3
		if b.claimers.Has(s) {
			x += 2 * (1 - b.own.pMafia(s))
		}
		return x + 0.5*(1-b.own.pMafia(s))
	})
}

// victim is the mafia's victim tonight: the one a partner named; else the
// Detective the Don found; else the claimant the town believes most; else
// the town's most trusted seat among those who accuse the team.
func (b *Expert) victim(v *engine.View, targets engine.SeatSet) engine.Seat {
	for m := b.team & v.Alive & v.MafiaActed; m != 0; {
		s := m.First()
		m = m.Without(s)
		if s != b.me && targets.Has(v.MafiaChoice[s]) {
			return v.MafiaChoice[s]
		}
	}
	for m := targets; m != 0; {
		s := m.First()
		m = m.Without(s)
		if v.Checks[s] == engine.ResultDetective {
			return s
		}
	}
	return b.best(targets, func(s engine.Seat) float32 {
		x := 1 - b.pubBad(s)
		if b.claimers.Has(s) && v.Checks[s] != engine.ResultNotDetective {
			x += 1.5
		}
		x += 0.15 * float32(min(b.accuse[s], 6))
		return x
	})
}

// donCheck is whom the Don checks: a claimant not yet checked, else the
// unchecked seat most likely the Detective (it accuses the team, the town
// trusts it), or 0 when the Detective is found.
func (b *Expert) donCheck(v *engine.View, targets engine.SeatSet) engine.Seat {
	for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
		if v.Checks[s] == engine.ResultDetective && v.Alive.Has(s) {
			return 0
		}
	}
	var open engine.SeatSet
	for m := targets &^ b.team; m != 0; {
		s := m.First()
		m = m.Without(s)
		if v.Checks[s] == engine.ResultNone {
			open = open.With(s)
		}
	}
	return b.best(open, func(s engine.Seat) float32 {
		x := 1 - b.pubBad(s)
		if b.claimers.Has(s) {
			x += 2
		}
		return x + 0.2*float32(min(b.accuse[s], 6))
	})
}

// mafiaNominee: the seat the town suspects most when it is no partner;
// else another town seat (never a partner).
func (b *Expert) mafiaNominee(v *engine.View, targets engine.SeatSet) engine.Seat {
	b.syncShadow(v)
	want := b.shadow.top(b.alive.Without(b.me))
	if !b.team.Has(want) {
		if targets.Has(want) {
			return want
		}
		return 0
	}
	if b.candidates()&^b.team != 0 {
		return 0
	}
	return b.best(targets&^b.team, func(s engine.Seat) float32 {
		return b.pubBad(s) + 0.05*float32(min(b.accuse[s], 6))
	})
}

// syncShadow gives the shadow town today's table.
func (b *Expert) syncShadow(v *engine.View) {
	b.shadow.alive, b.shadow.ncand, b.shadow.cand = v.Alive, v.NumCandidates, v.Candidates
	if b.shadow.me != v.Seat {
		b.shadow.adopt(v)
	}
}

// mafiaBallot votes as the town is expected to (the shadow town's
// expected candidate); for a partner only when he is lost anyway, else for
// the likeliest town candidate.
func (b *Expert) mafiaBallot(targets engine.SeatSet) engine.Seat {
	b.shadow.alive, b.shadow.ncand, b.shadow.cand = b.alive, b.ncand, b.cand
	cons := b.shadow.top(targets)
	if cons == 0 {
		return targets.First()
	}
	if !b.team.Has(cons) {
		return cons
	}
	alt := b.shadow.top(targets &^ b.team)
	if alt == 0 || !b.shadow.canSave() {
		return cons // lost anyway: the vote against him hides the voter
	}
	return alt
}
