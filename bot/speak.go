package bot

import (
	"mafia/engine"
	"mafia/rng"
)

// This file is the Smart bot's spoken lines (line.go). On its own floor it
// first says aloud each statement it made there (a claim, a report, a
// suspicion — with its reason when the record holds one —, a vouch, a
// nomination to come), then one or two opinions of the floor: in a speech a
// liar, the Detective it believes, whom to vote out or whom it suspects,
// with a fact of the record when another seat said it first; in its defence
// an argument from the record (the "mafia" its report found, whom it voted
// for yesterday, else that it is a citizen); in the last words of the
// night's first victim a best move, then good luck. A few lines a floor at
// most (1 to 3 in a speech, 1 or 2 elsewhere); after the end, one time in
// three, "good game". At night a mafioso speaks in the mafia's chat: the
// Don says whom he will check, and each names the victim, or agrees to the
// one a partner named.
//
// It decides them as it decides its moves: from its beliefs, which hold
// only what its seat may know. It never contradicts itself in a day (no
// line vouches for a seat it accused that day, by line or statement, nor
// the other way round). Its lines draw from a random source of their own
// (say), and read its record without changing it, so that asking for them,
// or not, never changes a move it makes.

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

	lnRound uint16              // the round of the day the two sets below are of
	lnAcc   engine.SeatSet      // seats its lines accused that day
	lnVouch engine.SeatSet      // seats its lines vouched for that day
	lnKinds [numLineKinds]uint8 // lines of each kind it said that day

	nchat nightChat // its lines in the mafia's night chat
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
	if v.Phase == engine.PhaseNight {
		return b.nightTalk(v)
	}
	if !v.Phase.Timed() || v.Speaker != v.Seat {
		return Line{}, false
	}
	b.alive, b.ncand, b.cand = v.Alive, v.NumCandidates, v.Candidates
	if v.Round != b.lnRound {
		b.lnRound, b.lnAcc, b.lnVouch, b.lnKinds = v.Round, 0, 0, [numLineKinds]uint8{}
	}
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
		if l, ok := b.voice(v, st); ok {
			return b.spoken(l)
		}
	}
	if _, ok := b.statement(v); ok {
		return Line{}, false // its statement first, then its voice
	}
	for b.op < 2 {
		l, ok := b.opinion(v, b.op)
		b.op++
		if ok {
			return b.spoken(l)
		}
	}
	return Line{}, false
}

// voice is the line that says statement st of the bot's floor aloud: its
// own words, a suspicion by the fact behind it when the record holds one
// (always, when another seat said the suspicion first).
func (b *Smart) voice(v *engine.View, st engine.Statement) (Line, bool) {
	l, ok := lineOf(st, v.Round)
	if !ok {
		return l, false
	}
	if l.Kind == LineSuspect {
		if r, ok := b.reasonLine(v, st.Target); ok && b.mayAccuse(v, r) && (b.dayAcc.Has(st.Target) || b.say.Intn(2) == 0) {
			return r, true
		}
	}
	return l, true
}

// spoken counts l as said, notes what it accuses or vouches for, and
// chooses its phrasing.
func (b *Smart) spoken(l Line) (Line, bool) {
	if !l.Kind.Night() {
		b.lines++
		acc, vouch := stance(l)
		b.lnAcc |= acc
		b.lnVouch |= vouch
	}
	l.Pick = b.pick(l.Kind)
	return l, true
}

// pick is the phrasing of a line of kind k: its own draw after the end;
// else the seat's number past an offset every seat draws alike from the
// kind and the round, so that two seats that say a line of the same kind
// the same day say it in different words (the catalogs hold eight of each:
// seats eight apart may meet), and the words change from day to day; a
// seat that says the kind again that day moves three phrasings on.
func (b *Smart) pick(k LineKind) uint8 {
	if b.bye {
		return uint8(b.say.Intn(256))
	}
	b.say.Uint64() // the stream moves as it did when every pick was drawn
	again := uint8(0)
	if !k.Night() && k < numLineKinds {
		again = b.lnKinds[k]
		b.lnKinds[k]++
	}
	return uint8(mix(uint64(k)<<20^uint64(b.round)^0x7069636b)%phrasings) + uint8(b.me) + 3*again
}

// phrasings is how many phrasings the catalogs hold of every kind of line
// (a test pins it in every language: room/botrender_test.go).
const phrasings = 8

// stance is the seats line l accuses (a suspicion, a "mafia" report, a
// liar, a vote out, a reason, a defence's "mafia", a best move) and those it
// vouches for (a trust, a belief, a "not mafia" report).
func stance(l Line) (acc, vouch engine.SeatSet) {
	switch l.Kind {
	case LineTrust, LineBelieve:
		return 0, engine.SeatSet(0).With(l.Seat)
	case LineChecked:
		switch {
		case accuses(l.Result):
			return engine.SeatSet(0).With(l.Seat), 0
		case l.Result == engine.ResultNotMafia:
			return 0, engine.SeatSet(0).With(l.Seat)
		}
		return 0, 0
	case LineSuspect, LineWillNominate, LineLiar, LineVoteOut, LineVotedTown, LineNominatedTown,
		LineAgainstDetective, LineCheckedBy, LineVotedFor, LineMyCheck:
		return engine.SeatSet(0).With(l.Seat), 0
	case LineBestMove:
		return engine.SeatSet(0).With(l.Seat).With(l.More[0]).With(l.More[1]), 0
	}
	return 0, 0
}

// mayAccuse reports whether the bot may say l without contradicting what it
// said today (it vouched for none of the seats l accuses), nor what it may
// still say today (the Detective, a "not mafia" check it has not reported
// yet); mayVouchLine the same of a vouch.
func (b *Smart) mayAccuse(v *engine.View, l Line) bool {
	acc, _ := stance(l)
	if acc&(b.stVouch|b.lnVouch) != 0 {
		return false
	}
	if b.role == engine.Detective {
		for m := acc &^ b.reported; m != 0; {
			s := m.First()
			m = m.Without(s)
			if v.Checks[s] == engine.ResultNotMafia {
				return false
			}
		}
	}
	return true
}

func (b *Smart) mayVouchLine(s engine.Seat) bool { return !(b.stAcc | b.lnAcc).Has(s) }

// accusal is the line by which the bot accuses t on its floor, if it may:
// the fact of the record against t when there is one (always, when another
// seat accused t first today: no chorus), else plain (plain kind).
func (b *Smart) accusal(v *engine.View, t engine.Seat, plain LineKind) (Line, bool) {
	if t == 0 {
		return Line{}, false
	}
	l, ok := b.reasonLine(v, t)
	if !ok {
		if b.dayAcc.Has(t) {
			return Line{}, false
		}
		l = Line{Kind: plain, Seat: t}
	}
	if !b.mayAccuse(v, l) {
		return Line{}, false
	}
	return l, true
}

// opinion is the i-th opinion the bot says on this floor (i: 0 or 1), if
// it has one.
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
			if l := (Line{Kind: LineLiar, Seat: t}); b.mayAccuse(v, l) {
				return l, true
			}
		}
		// (a mafioso only as the voice of its vouch: a counter-claim may
		// report the claimant later today, and its lines change no move)
		if d := b.det; d != 0 && others.Has(d) && b.mayVouchLine(d) && b.mayVouch(v, d) && (!b.mafia() || b.stVouch.Has(d)) {
			return Line{Kind: LineBelieve, Seat: d}, true
		}
		if t := b.voteOut(v, others); t != 0 && b.sure(v, t) {
			if l, ok := b.accusal(v, t, LineVoteOut); ok {
				return l, true
			}
		}
		if t := b.suspect(v, others); t != 0 {
			if l, ok := b.accusal(v, t, LineSuspect); ok {
				return l, true
			}
		}
	case engine.PhaseDefence, engine.PhaseTieSpeech:
		switch i {
		case 0:
			return b.defence(v), true
		case 1:
			if t := b.voteOut(v, others); t != 0 && b.sure(v, t) {
				return b.accusal(v, t, LineVoteOut)
			}
		}
	case engine.PhaseLastWords:
		// a best move made as a statement (bestMoveStatement) is voiced
		// already: then only the farewell is left to say
		pending := b.bestMove && !floorSaid(v, engine.BestMove)
		if i == 0 && pending {
			if l, ok := b.bestMoveLine(v, others); ok {
				return l, true
			}
		}
		if i == 0 || pending {
			return Line{Kind: LineFarewell}, true
		}
	}
	return Line{}, false
}

// sure reports whether the bot suspects t enough to say so (a mafioso: by
// the public record).
func (b *Smart) sure(v *engine.View, t engine.Seat) bool {
	if b.mafia() {
		return b.sus(t) >= suspectAbove
	}
	return b.belief(v, t) >= suspectAbove
}

// defence is the bot's argument in its own defence or tie speech, from
// what the record holds of it: the "mafia" it reported as the Detective it
// claimed, the seat it voted for yesterday (unless that seat showed the
// town), else that it is a citizen, or not the mafia.
func (b *Smart) defence(v *engine.View) Line {
	me := v.Seat
	if b.claimed[me] == engine.Detective {
		for m := v.Alive.Without(me) &^ b.team; m != 0; {
			s := m.First()
			m = m.Without(s)
			if l := (Line{Kind: LineMyCheck, Seat: s}); b.report[me][s] == engine.ResultMafia && b.mayAccuse(v, l) {
				return l
			}
		}
	}
	// (always when that seat's card showed it guilty; else one time in two,
	// since the town mostly voted alike)
	if c := b.voted[me]; c != 0 && c != me && !b.team.Has(c) && b.votedRound+1 == v.Round &&
		b.why[me] != (reason{LineVotedTown, c}) &&
		(v.Teams[c] == engine.TeamMafia || v.Teams[c] == engine.TeamManiac || b.say.Intn(2) == 0) {
		if l := (Line{Kind: LineVotedFor, Seat: c}); b.mayAccuse(v, l) {
			return l
		}
	}
	if b.say.Intn(2) == 0 {
		return Line{Kind: LineCitizen}
	}
	return Line{Kind: LineInnocent}
}

// bestMoveLine is the first victim's best move: the three living seats of
// set it suspects most (a mafioso: by the record), in seat order, equal
// suspicions by the day's public tie.
func (b *Smart) bestMoveLine(v *engine.View, set engine.SeatSet) (Line, bool) {
	set &^= b.stVouch | b.lnVouch
	var pick [3]engine.Seat
	for i := range pick {
		var best engine.Seat
		var bk int64
		for m := set; m != 0; {
			s := m.First()
			m = m.Without(s)
			x := b.sus(s)
			if !b.mafia() {
				x = b.belief(v, s)
			}
			if k := int64(x)<<32 | int64(b.tie[s]); best == 0 || k > bk {
				best, bk = s, k
			}
		}
		if best == 0 {
			return Line{}, false
		}
		pick[i], set = best, set.Without(best)
	}
	// seat order, as players say a best move
	for i := 1; i < 3; i++ {
		for j := i; j > 0 && pick[j] < pick[j-1]; j-- {
			pick[j], pick[j-1] = pick[j-1], pick[j]
		}
	}
	return Line{Kind: LineBestMove, Seat: pick[0], More: [2]engine.Seat{pick[1], pick[2]}}, true
}

// nightTalk is a mafioso's next line in the mafia's night chat (night.go):
// the Don's check before he makes it, then the victim (agreed to, when a
// partner named the same). Nobody else says a word at night.
func (b *Smart) nightTalk(v *engine.View) (Line, bool) {
	if !b.mafia() || !v.Role.IsMafia() {
		return Line{}, false
	}
	b.alive = v.Alive
	l, ok := b.nchat.next(b, b.role, b.team, v)
	if !ok {
		return Line{}, false
	}
	return b.spoken(l)
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
