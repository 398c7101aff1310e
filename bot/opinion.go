package bot

import "mafia/engine"

// This file is the Smart bot's opinions as statements: whom it suspects,
// whom it vouches for, whom it will nominate. It says them sparingly, and
// only from its beliefs (the public record and its own secrets, as every
// decision), so that they carry what it thinks, never what it cannot know:
//
//   - in its speech: "I will nominate N" just before nominating a seat it
//     is sure of (the Detective's find, a seat the believed Detective
//     reported, a liar); "I suspect N" of the most suspicious other seat
//     when the suspicion is strong, once a game for each seat; "I vouch for
//     N" of the Detective the record believes, once a game;
//   - in its defence or tie speech: "I suspect N" of the other candidate it
//     suspects most, when that suspicion is strong;
//   - in its last words: "I suspect N" of the seat it suspects most.
//
// A mafioso's opinions follow the public record (top), never its own team:
// it suspects and vouches as the town would by the record, and never names
// a partner.
//
// Two rules keep the talk a club would believe. No seat contradicts itself
// in a day: it never vouches for a seat it accused that day (a suspicion, a
// nomination to come, a "mafia" report), nor accuses one it vouched for,
// and never vouches for a seat its own knowledge or its own report holds
// guilty. And no chorus: it repeats a suspicion another seat voiced that day
// only with a reason of its own (a fact of the record against the seat, or
// what its seat alone knows), which its line then says.

// The thresholds of the opinions.
const (
	sureOf       = 30 // belief above which a seat is worth a will_nominate
	suspectAbove = 8  // belief above which a seat is worth a suspect
)

// opinionStatement is the opinion the bot states next on its floor, if any:
// at most one of each verb a floor.
func (b *Smart) opinionStatement(v *engine.View) (engine.Command, bool) {
	me := v.Seat
	others := v.Alive.Without(me)
	if b.mafia() {
		others &^= b.team
	}
	say := func(verb engine.Verb, t engine.Seat) (engine.Command, bool) {
		if t == 0 || t == me || floorSaid(v, verb) || !v.Targets(verb).Has(t) || b.team.Has(t) {
			return engine.Command{}, false
		}
		if verb == engine.Suspect && (b.stAcc.Has(t) || b.dayAcc.Has(t) && !b.ownReason(v, t)) {
			return engine.Command{}, false // said already, or a chorus
		}
		if b.stVouch.Has(t) {
			return engine.Command{}, false // it vouched for t today
		}
		return engine.Command{Verb: verb, By: me, Target: t}, true
	}
	switch v.Phase {
	case engine.PhaseSpeech:
		if b.mafia() {
			if t := b.suspect(v, others); t != 0 && !b.suspects[me].Has(t) {
				if c, ok := say(engine.Suspect, t); ok {
					return c, true
				}
			}
			return b.vouchDetective(v, others)
		}
		// the seat it would nominate (nominee) is the one it suspects most
		want := b.most(v, others, false, true)
		bw := b.belief(v, want)
		if !v.Nominated && bw >= sureOf && v.Targets(engine.Nominate).Has(want) {
			if c, ok := say(engine.WillNominate, want); ok {
				return c, true
			}
		}
		if bw >= suspectAbove && !b.suspects[me].Has(want) {
			if c, ok := say(engine.Suspect, want); ok {
				return c, true
			}
		}
		return b.vouchDetective(v, others)
	case engine.PhaseDefence, engine.PhaseTieSpeech:
		return say(engine.Suspect, b.suspect(v, b.candidates()&others))
	case engine.PhaseLastWords:
		return say(engine.Suspect, b.suspect(v, others))
	}
	return engine.Command{}, false
}

// vouchDetective vouches, once a game, for the Detective the record
// believes, if it is one of others: the town does, and a mafioso does the
// same (unless it is a partner), so that a vouch tells nobody a team.
func (b *Smart) vouchDetective(v *engine.View, others engine.SeatSet) (engine.Command, bool) {
	d := b.det
	if d == 0 || !others.Has(d) || b.vouched[v.Seat].Has(d) || floorSaid(v, engine.Vouch) || !v.Targets(engine.Vouch).Has(d) {
		return engine.Command{}, false
	}
	if !b.mayVouch(v, d) {
		return engine.Command{}, false
	}
	return engine.Command{Verb: engine.Vouch, By: v.Seat, Target: d}, true
}

// suspect is the seat of set the bot would say it suspects: the most
// suspicious (for a mafioso, by the public record), if suspicion is strong
// enough; else 0.
func (b *Smart) suspect(v *engine.View, set engine.SeatSet) engine.Seat {
	if set == 0 {
		return 0
	}
	if b.mafia() {
		if t := b.top(set); b.sus(t) >= suspectAbove {
			return t
		}
		return 0
	}
	if t := b.most(v, set, false, true); b.belief(v, t) >= suspectAbove {
		return t
	}
	return 0
}

// floorSaid reports whether the floor's holder (the viewer, on its own
// floor) has made a statement of verb on this floor: the floor's statements
// are the record's last View.Said.
func floorSaid(v *engine.View, verb engine.Verb) bool {
	n := v.Talk.Len()
	for i := n - int(v.Said); i < n; i++ {
		if v.Talk.At(i).Verb == verb {
			return true
		}
	}
	return false
}

// mayVouch reports whether the bot may vouch for s without contradicting
// itself: it accused s neither today nor by its own report ever, and its
// beliefs (for a mafioso: the public record's) do not hold s suspect.
func (b *Smart) mayVouch(v *engine.View, s engine.Seat) bool {
	if b.stAcc.Has(s) || accuses(b.report[v.Seat][s]) {
		return false
	}
	if b.mafia() {
		return b.sus(s) < suspectAbove
	}
	return b.belief(v, s) < suspectAbove
}

// ownReason reports whether the bot has a reason of its own to suspect s: a
// fact of the public record against s (reasonLine), or, for the town, what
// its seat alone knows (a check, a claim it knows false).
func (b *Smart) ownReason(v *engine.View, s engine.Seat) bool {
	if _, ok := b.reasonLine(v, s); ok {
		return true
	}
	return !b.mafia() && b.belief(v, s)-b.sus(s) >= suspectAbove
}

// reasonLine is the line that says the record's latest fact against s, if
// it holds one: a claim the facts contradicted, the believed Detective's
// "mafia" report (not a "maniac": the line says mafia), a vote or a nomination of a seat whose card showed the
// town, a nomination of the believed Detective.
func (b *Smart) reasonLine(v *engine.View, s engine.Seat) (Line, bool) {
	switch {
	case b.liar.Has(s) && b.claimSeq[s] != 0:
		return Line{Kind: LineLiar, Seat: s}, true
	case b.det != 0 && b.det != v.Seat && b.det != s && !b.team.Has(b.det) && b.report[b.det][s] == engine.ResultMafia:
		return Line{Kind: LineCheckedBy, Seat: s, More: [2]engine.Seat{b.det}}, true
	}
	if w := b.why[s]; w.kind != LineNone && w.seat != v.Seat && w.seat != s && !b.team.Has(w.seat) {
		if w.kind == LineAgainstDetective && w.seat != b.det {
			return Line{}, false // no longer the Detective the record believes
		}
		return Line{Kind: w.kind, Seat: s, More: [2]engine.Seat{w.seat}}, true
	}
	return Line{}, false
}
