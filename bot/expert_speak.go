package bot

import "mafia/engine"

// This file is the Expert bot's spoken lines (line.go), decided as its
// moves are, from its belief: on its own floor it voices each statement it
// made there, then an opinion or two that agree with what it said today (a
// claimant it calls a liar, one it believes, whom to vote out, whom it
// suspects; in its defence, that it is not the one). A mafioso never names a
// partner. Its lines draw from a random source of their own, so that asking
// for them never changes a move.

// expertSpeak is what an Expert bot keeps of its lines.
type expertSpeak struct {
	nchat  nightChat // its lines in the mafia's night chat
	step   uint32
	voiced uint8
	lines  uint8
	budget uint8
	op     uint8
	bye    bool
}

// Speak implements Speaker. What it reads of its worlds to choose a line
// is put back afterwards (a batch weighed early would round otherwise), so
// that asking for lines never changes a move.
func (b *Expert) Speak(v *engine.View) (Line, bool) {
	if v.Seat == 0 || b.mute {
		return Line{}, false
	}
	if b.me != v.Seat || b.n != v.Players || len(b.own.ws) == 0 {
		b.adopt(v)
	}
	b.own.save(&b.ownSnap)
	defer b.own.restore(&b.ownSnap)
	if b.hasPub {
		b.pub.save(&b.pubSnap)
		defer b.pub.restore(&b.pubSnap)
	}
	alive, ncand, cand, phase, src := b.alive, b.ncand, b.cand, b.phase, b.Src
	defer func() { b.alive, b.ncand, b.cand, b.phase, b.Src = alive, ncand, cand, phase, src }()
	return b.speak(v)
}

func (b *Expert) speak(v *engine.View) (Line, bool) {
	sp := &b.sp
	if v.Phase == engine.PhaseEnded {
		if sp.bye {
			return Line{}, false
		}
		sp.bye = true
		if b.say.Intn(3) != 0 {
			return Line{}, false
		}
		return b.spoken(Line{Kind: LineGoodGame})
	}
	if v.Phase == engine.PhaseNight {
		return b.nightTalk(v)
	}
	if !v.Phase.Timed() || v.Speaker != v.Seat {
		return Line{}, false
	}
	b.alive, b.ncand, b.cand, b.phase = v.Alive, v.NumCandidates, v.Candidates, v.Phase
	if v.Step != sp.step || sp.budget == 0 {
		sp.step, sp.voiced, sp.lines, sp.op = v.Step, 0, 0, 0
		sp.budget = 1 + uint8(b.say.Intn(2))
		if v.Phase == engine.PhaseSpeech {
			sp.budget = 1 + uint8(b.say.Intn(3))
		}
	}
	if sp.lines >= sp.budget {
		return Line{}, false
	}
	for sp.voiced < v.Said {
		st := v.Talk.At(v.Talk.Len() - int(v.Said) + int(sp.voiced))
		sp.voiced++
		if l, ok := lineOf(st, v.Round); ok {
			if l.Kind == LineChecked && b.mafia() && l.Result != engine.ResultMafia {
				continue // a liar's "clear" stays a statement: said aloud, a check is only ever an accusation
			}
			return b.spoken(l)
		}
	}
	if b.wouldState(v) {
		return Line{}, false // its statement first, then its voice
	}
	if l, ok := b.opinionLine(v, sp.op); ok {
		sp.op++
		b.spokeLine(l)
		return b.spoken(l)
	}
	return Line{}, false
}

// wouldState reports whether the bot has a statement to make now, without
// making it (its state is put back).
func (b *Expert) wouldState(v *engine.View) bool {
	if b.mute || !v.Can(engine.Claim) {
		return false
	}
	src, lie, talk := b.Src, b.lie, b.talk
	_, ok := b.nextStatement(v)
	b.Src, b.lie, b.talk = src, lie, talk
	return ok
}

// spoken counts l as said and draws its phrasing.
func (b *Expert) spoken(l Line) (Line, bool) {
	b.sp.lines++
	l.Pick = uint8(b.say.Intn(256))
	return l, true
}

// opinionLine is the i-th opinion the bot says on this floor, if any.
func (b *Expert) opinionLine(v *engine.View, i uint8) (Line, bool) {
	others := v.Alive.Without(v.Seat) &^ b.team
	switch v.Phase {
	case engine.PhaseSpeech:
		if i > 0 {
			return Line{}, false
		}
		for m := others & b.claimers; m != 0; {
			s := m.First()
			m = m.Without(s)
			liar := b.belief(s) >= 0.6 || b.role == engine.Detective || b.lie.fake && s == b.lie.rival
			if liar && b.lineAccuse(s) {
				return Line{Kind: LineLiar, Seat: s}, true
			}
			if b.belief(s) <= expTrustHi && b.lineClear(s) && !b.lie.fake && b.role != engine.Detective {
				return Line{Kind: LineBelieve, Seat: s}, true
			}
		}
		if c := b.candidates() & others; c != 0 {
			if t := b.best(c, b.belief); b.lineAccuse(t) && b.belief(t) >= b.prior() {
				return Line{Kind: LineVoteOut, Seat: t}, true
			}
		}
		if t := b.best(others, b.belief); t != 0 && b.lineAccuse(t) && b.belief(t) >= b.prior()*expSuspectX {
			return Line{Kind: LineSuspect, Seat: t}, true
		}
	case engine.PhaseDefence, engine.PhaseTieSpeech:
		switch i {
		case 0:
			return b.defence(v), true
		case 1:
			if c := b.candidates() & others; c != 0 {
				if t := b.best(c, b.belief); b.lineAccuse(t) {
					return Line{Kind: LineVoteOut, Seat: t}, true
				}
			}
		}
	case engine.PhaseLastWords:
		if i == 0 {
			return Line{Kind: LineFarewell}, true
		}
	}
	return Line{}, false
}

// defence is the first line of the bot's defence, from what the record
// holds of it: a check it reported (as the Detective it claimed), its vote
// of yesterday, or a plain denial.
func (b *Expert) defence(v *engine.View) Line {
	if b.talk.claimed {
		for m := b.talk.repBad & v.Alive &^ b.team; m != 0; {
			s := m.First()
			m = m.Without(s)
			if b.lineAccuse(s) {
				return Line{Kind: LineMyCheck, Seat: s}
			}
		}
	}
	if c := v.Ballot[v.Seat]; c != 0 && c != v.Seat && !b.team.Has(c) && b.lineAccuse(c) && b.say.Intn(2) == 0 {
		return Line{Kind: LineVotedFor, Seat: c}
	}
	if b.say.Intn(2) == 0 {
		return Line{Kind: LineCitizen}
	}
	return Line{Kind: LineInnocent}
}

// nightTalk is a mafioso's next line in the mafia's night chat (night.go):
// the Don's check before he makes it, then the victim it names (agreed to,
// when a partner named the same). Nobody else says a word at night.
func (b *Expert) nightTalk(v *engine.View) (Line, bool) {
	if !b.mafia() || !v.Role.IsMafia() {
		return Line{}, false
	}
	b.alive = v.Alive
	l, ok := b.sp.nchat.next(b, b.role, b.team, v)
	if !ok {
		return Line{}, false
	}
	return b.spoken(l)
}
