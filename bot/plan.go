package bot

import "mafia/engine"

// This file is the Smart bot's plan per card: what it does with its
// beliefs (smart.go) in each step. Every choice is among the moves its view
// says are legal (View.Targets, View.Can).
//
// - town: nominate and vote the most suspicious seat; believe what the
//   record and its own secrets say;
// - Detective: check the most suspicious seat not yet checked, then
//   nominate and vote a mafioso it found; once it found one (or in its last
//   words) claim the Detective and report its checks (talk.go);
// - Doctor: protect the most trusted seat (the Detective, when the town
//   believes one), never spend a heal on a suspect, and keep the one heal of
//   himself for the end;
// - mafia: every mafioso names the victim its senior (the Don) names or
//   would name; hunt the Detective (the Don's find, else the seat that
//   accuses the team most); never vote out a partner unless the vote cannot
//   be saved (then the partner is given up, and the voter stays hidden);
//   now and then counter-claim a Detective who reported a partner;
// - Don: check the seat most likely the Detective and have him killed;
// - Maniac: vote with the town, never for himself; shoot whoever accuses him,
//   else the most suspicious seat, for the 1x1.

// Act implements Bot.
func (b *Smart) Act(v *engine.View) (engine.Command, bool) {
	if v.Seat == 0 {
		return engine.Command{}, false
	}
	if b.me != v.Seat || b.n != v.Players {
		b.adopt(v)
	}
	b.alive = v.Alive
	b.ncand = v.NumCandidates
	b.cand = v.Candidates
	if v.Phase.Timed() {
		// on its own floor it speaks first (statements), then nominates
		if c, ok := b.statement(v); ok {
			return c, true
		}
	}
	return planMove(b, b.role, v)
}

// adopt starts the record from a view, for a bot that was shown no deal.
func (b *Smart) adopt(v *engine.View) {
	src, sp := b.Src, b.speakState
	*b = Smart{Src: src, me: v.Seat, n: v.Players, rules: v.Rules, role: v.Role, alive: v.Alive, round: v.Round, follow: v.Alive}
	b.keepSpeak(sp)
	if v.Role.IsMafia() {
		for s := engine.Seat(1); s <= engine.Seat(v.Players); s++ {
			if v.Teams[s] == engine.TeamMafia {
				b.team = b.team.With(s)
			}
		}
	}
	b.dealTies()
}

// belief is the seat's suspicion of s: the public record and what this seat
// alone knows.
func (b *Smart) belief(v *engine.View, s engine.Seat) int32 {
	x := b.sus(s)
	if b.role == engine.Detective && s != b.me && b.claimSeq[s] != 0 {
		x += wKnown / 2 // he knows the claim is false
	}
	switch v.Teams[s] {
	case engine.TeamTown:
		x -= wKnown
	case engine.TeamMafia:
		if !b.role.IsMafia() {
			x += wKnown
		}
	case engine.TeamManiac:
		if s != b.me {
			x += wKnown
		}
	}
	if b.role == engine.Detective {
		switch v.Checks[s] {
		case engine.ResultMafia, engine.ResultManiac:
			x += wKnown
		case engine.ResultNotMafia:
			x -= wKnown / 4 // the maniac may be among them
		}
	}
	if b.trusted.Has(s) {
		x -= wKnown / 20
	}
	return x
}

// most returns the seat of set with the highest (or, with low, the lowest)
// belief; equal beliefs are broken by today's public tie-break when public
// (a day's choice, that others expect), else at random.
func (b *Smart) most(v *engine.View, set engine.SeatSet, low, public bool) engine.Seat {
	var best engine.Seat
	var bk int64
	for m := set; m != 0; {
		s := m.First()
		m = m.Without(s)
		x := b.belief(v, s)
		if low {
			x = -x
		}
		t := b.tie[s]
		if !public {
			t = uint32(b.Src.Uint64())
		}
		k := int64(x)<<32 | int64(t)
		if best == 0 || k > bk {
			best, bk = s, k
		}
	}
	return best
}

func (b *Smart) mafia() bool { return b.role.IsMafia() }

// nominee is whom to nominate in one's own speech, or 0.
func (b *Smart) nominee(v *engine.View) engine.Seat {
	targets := v.Targets(engine.Nominate)
	if targets == 0 {
		return 0
	}
	others := b.alive.Without(b.me)
	if b.mafia() {
		want := b.top(others)
		if !b.team.Has(want) {
			if targets.Has(want) {
				return want
			}
			return 0
		}
		// the town's suspect is a partner: offer the town another
		if b.candidates()&^b.team != 0 {
			return 0
		}
		return b.top(targets &^ b.team)
	}
	// what it said it would nominate on this floor, else the seat it
	// suspects most, equal suspicions by the day's public tie, except for
	// the day's first nomination: that one by its own chance, so that an
	// opening is nobody's seat order
	for i := v.Talk.Len() - int(v.Said); i < v.Talk.Len(); i++ {
		if st := v.Talk.At(i); st.Verb == engine.WillNominate && targets.Has(st.Target) {
			return st.Target
		}
	}
	want := b.most(v, others, false, b.ncand > 0)
	if targets.Has(want) {
		return want
	}
	return 0
}

// ballot is whom to vote for, or 0 to abstain.
func (b *Smart) ballot(v *engine.View) engine.Seat {
	targets := v.Targets(engine.Vote)
	if targets == 0 {
		return 0
	}
	if !b.mafia() {
		if t := b.most(v, targets.Without(b.me), false, true); t != 0 {
			return t
		}
		return targets.First()
	}
	cons := b.top(targets.Without(b.me))
	if cons == 0 {
		return targets.First()
	}
	if !b.team.Has(cons) {
		return cons
	}
	alt := b.top(targets &^ b.team)
	if alt == 0 || !b.canSave() {
		return cons
	}
	return alt
}

// canSave reports whether the team's votes may still save a partner the
// town expects to vote out: the team and half of those who did not follow
// the town's choice in the last vote outnumber those who did.
func (b *Smart) canSave() bool {
	m := (b.team & b.alive).Len()
	rest := b.alive &^ b.team
	followers := (b.follow & rest).Len()
	return 2*m+(rest.Len()-followers) > 2*followers
}

// allLeave answers "shall all of them leave?".
func (b *Smart) allLeave(v *engine.View) bool {
	tied := b.candidates()
	if tied.Has(b.me) {
		return false
	}
	if b.mafia() {
		return tied&b.team == 0
	}
	var sum int32
	for m := tied; m != 0; {
		s := m.First()
		m = m.Without(s)
		sum += b.belief(v, s)
	}
	return sum > 0
}

// detCheck is whom the Detective checks: the most suspicious seat he has
// not checked, ties at random.
func (b *Smart) detCheck(v *engine.View, unknown engine.SeatSet) engine.Seat {
	return b.most(v, unknown, false, false)
}

// senior is the mafioso whose choice is the mafia's: the Don, or the living
// mafioso with the lowest seat.
func (b *Smart) senior(v *engine.View) engine.Seat {
	living := b.team & v.Alive
	for m := living; m != 0; {
		s := m.First()
		m = m.Without(s)
		if v.Roles[s] == engine.Don {
			return s
		}
	}
	return living.First()
}

// victim is the mafia's victim tonight: the senior's call when named; under
// mafia_kill=unanimous a partner's named victim; else the Detective the Don
// found, else the seat that accuses the team most (the town's most trusted
// among equals).
func (b *Smart) victim(v *engine.View, targets engine.SeatSet) engine.Seat {
	if s := b.senior(v); s != b.me && v.MafiaActed.Has(s) && targets.Has(v.MafiaChoice[s]) {
		return v.MafiaChoice[s]
	}
	if v.Rules.MafiaKill == engine.MafiaKillUnanimous {
		for m := b.team & v.Alive & v.MafiaActed; m != 0; {
			s := m.First()
			m = m.Without(s)
			if targets.Has(v.MafiaChoice[s]) {
				return v.MafiaChoice[s]
			}
		}
	}
	for m := targets; m != 0; {
		s := m.First()
		m = m.Without(s)
		if v.Checks[s] == engine.ResultDetective {
			return s
		}
	}
	var best engine.Seat
	var bk int64
	for m := targets; m != 0; {
		s := m.First()
		m = m.Without(s)
		hunt := int32(0)
		if b.claimSeq[s] != 0 {
			hunt = wHunt // a Detective's claim, true or not, is the town's voice
		}
		k := int64(4*b.accuse[s]+hunt-b.sus(s))<<32 | int64(b.teamTie(s))
		if best == 0 || k > bk {
			best, bk = s, k
		}
	}
	return best
}

// donCheck is whom the Don checks: the unchecked seat most likely the
// Detective (the one accusing the team most, the town's most trusted), or 0.
func (b *Smart) donCheck(v *engine.View, targets engine.SeatSet) engine.Seat {
	for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
		if v.Checks[s] == engine.ResultDetective && v.Alive.Has(s) {
			return 0 // found: no check needed
		}
	}
	var best engine.Seat
	var bk int64
	for m := targets &^ b.team; m != 0; {
		s := m.First()
		m = m.Without(s)
		if v.Checks[s] != engine.ResultNone {
			continue
		}
		k := int64(4*b.accuse[s]-b.sus(s))<<32 | int64(b.teamTie(s))
		if best == 0 || k > bk {
			best, bk = s, k
		}
	}
	return best
}

// teamTie is tonight's tie-break of the mafia, the same for every partner
// (it hashes the team, which only the mafia know, with the round and who is
// alive): partners agree on the victim, and it falls differently in every
// deal. The Don's check uses it too, so that his night chat can say it
// before he makes it.
func (b *Smart) teamTie(s engine.Seat) uint32 {
	return uint32(mix(uint64(s)<<40 ^ uint64(b.round)<<24 ^ uint64(b.alive) ^ uint64(b.team)<<32 ^ 0x6d6166))
}

// heal is whom the Doctor heals: the most trusted other seat he may heal,
// himself only near the end (or when nobody else may be healed).
func (b *Smart) heal(v *engine.View, targets engine.SeatSet) engine.Seat {
	others := targets.Without(b.me)
	if targets.Has(b.me) && (others == 0 || v.Alive.Len() <= 4) {
		return b.me
	}
	return b.most(v, others, true, false)
}

// shot is the maniac's target: whoever accuses him most, else the most
// suspicious seat.
func (b *Smart) shot(v *engine.View, targets engine.SeatSet) engine.Seat {
	var best engine.Seat
	var bk int64
	for m := targets; m != 0; {
		s := m.First()
		m = m.Without(s)
		k := int64(4*b.accuse[s]+b.sus(s))<<32 | int64(uint32(b.Src.Uint64()))
		if best == 0 || k > bk {
			best, bk = s, k
		}
	}
	return best
}
