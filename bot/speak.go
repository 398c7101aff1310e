package bot

import (
	"mafia/engine"
	"mafia/rng"
)

// This file is the Smart bot's spoken lines (line.go): on its own floor it
// first says aloud each statement it made there (a claim, a report, a
// suspicion, a vouch, a nomination to come), then one or two opinions of
// the floor (a liar, the Detective it believes, whom to vote out, whom it
// suspects; in its defence that it is not the one), a few lines a floor at
// most (1 to 3 in a speech, 1 or 2 elsewhere); after the end, one time in
// three, "good game". It decides them as it decides its moves: from its
// beliefs, which hold only what its seat may know. Its lines draw from a
// random source of their own (say), so that asking for them, or not, never
// changes a move it makes.

// sayStream is the stream of a Smart bot's seed its lines draw from.
const sayStream = 0x736179

// speakState is what a Smart bot keeps of its lines.
type speakState struct {
	say    rng.Source
	mute   bool   // says nothing: no statement, no line (a stand-in)
	step   uint32 // the floor (View.Step) the counts below are of
	voiced uint8  // statements of the floor said aloud
	lines  uint8  // lines said on the floor
	budget uint8  // lines the floor allows
	op     uint8  // opinions said on the floor
	bye    bool   // asked after the end already
}

// Mute makes the bot a silent player from now on: it makes no statements
// and says no lines (a bot standing in for a person must not put words in
// their mouth). It plays as before otherwise.
func (b *Smart) Mute() { b.mute = true }

// keepSpeak carries what survives a reset of the record (a new deal): the
// lines' source and the mute.
func (b *Smart) keepSpeak(old speakState) {
	b.say, b.mute = old.say, old.mute
}

// Speak implements Speaker.
func (b *Smart) Speak(v *engine.View) (Line, bool) {
	if v.Seat == 0 || b.mute {
		return Line{}, false
	}
	if b.me != v.Seat || b.n != v.Players {
		b.adopt(v)
	}
	if v.Phase == engine.PhaseEnded {
		if b.bye {
			return Line{}, false
		}
		b.bye = true
		if b.say.Intn(3) != 0 {
			return Line{}, false
		}
		return b.spoken(Line{Kind: LineGoodGame})
	}
	if !v.Phase.Timed() || v.Speaker != v.Seat {
		return Line{}, false
	}
	b.alive, b.ncand, b.cand = v.Alive, v.NumCandidates, v.Candidates
	if v.Step != b.step || b.budget == 0 {
		b.step, b.voiced, b.lines, b.op = v.Step, 0, 0, 0
		b.budget = 1 + uint8(b.say.Intn(2))
		if v.Phase == engine.PhaseSpeech {
			b.budget = 1 + uint8(b.say.Intn(3))
		}
	}
	if b.lines >= b.budget {
		return Line{}, false
	}
	for b.voiced < v.Said {
		st := v.Talk.At(v.Talk.Len() - int(v.Said) + int(b.voiced))
		b.voiced++
		if l, ok := lineOf(st, v.Round); ok {
			return b.spoken(l)
		}
	}
	if _, ok := b.statement(v); ok {
		return Line{}, false // its statement first, then its voice
	}
	if l, ok := b.opinion(v, b.op); ok {
		b.op++
		return b.spoken(l)
	}
	return Line{}, false
}

// spoken counts l as said and draws its phrasing.
func (b *Smart) spoken(l Line) (Line, bool) {
	b.lines++
	l.Pick = uint8(b.say.Intn(256))
	return l, true
}

// opinion is the i-th opinion the bot says on this floor, if it has one.
func (b *Smart) opinion(v *engine.View, i uint8) (Line, bool) {
	me := v.Seat
	others := v.Alive.Without(me)
	if b.mafia() {
		others &^= b.team
	}
	switch v.Phase {
	case engine.PhaseSpeech:
		if i > 0 {
			return Line{}, false
		}
		if t := b.liarToName(v, others); t != 0 {
			return Line{Kind: LineLiar, Seat: t}, true
		}
		if b.det != 0 && others.Has(b.det) {
			return Line{Kind: LineBelieve, Seat: b.det}, true
		}
		if t := b.voteOut(v, others); t != 0 {
			return Line{Kind: LineVoteOut, Seat: t}, true
		}
		if t := b.suspect(v, others); t != 0 {
			return Line{Kind: LineSuspect, Seat: t}, true
		}
	case engine.PhaseDefence, engine.PhaseTieSpeech:
		switch i {
		case 0:
			return Line{Kind: LineInnocent}, true
		case 1:
			if t := b.voteOut(v, others); t != 0 {
				return Line{Kind: LineVoteOut, Seat: t}, true
			}
		}
	case engine.PhaseLastWords:
		if i == 0 {
			return Line{Kind: LineFarewell}, true
		}
	}
	return Line{}, false
}

// liarToName is a living seat of set the bot calls a liar: one whose
// Detective claim the facts contradicted (public), else, for a Detective
// who has claimed, a rival claimant, and for a mafioso who counter-claimed,
// the claimant it reported.
func (b *Smart) liarToName(v *engine.View, set engine.SeatSet) engine.Seat {
	me := v.Seat
	for m := set; m != 0; {
		s := m.First()
		m = m.Without(s)
		if b.claimSeq[s] == 0 {
			continue
		}
		switch {
		case b.liar.Has(s):
			return s
		case b.claimed[me] == engine.Detective && (b.role == engine.Detective || b.report[me][s] == engine.ResultMafia):
			return s
		}
	}
	return 0
}

// voteOut is the candidate of set the bot would have voted out: the one it
// suspects most (a mafioso: the public record's, never a partner), or 0.
func (b *Smart) voteOut(v *engine.View, set engine.SeatSet) engine.Seat {
	cands := b.candidates() & set
	if cands == 0 {
		return 0
	}
	if b.mafia() {
		return b.top(cands)
	}
	return b.most(v, cands, false, true)
}
