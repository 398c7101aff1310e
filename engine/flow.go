package engine

// This file moves the game from step to step: what follows a Next (or the
// speaker's Pass), an elimination, or a foul that removes a player.

// advance ends the current step.
func (g *Game) advance() {
	// The most frequent steps, a speech and a defence, by a comparison each
	// before the switch's jump table (an indirect branch on the phase).
	if g.phase == PhaseSpeech {
		g.nextSpeech()
		return
	}
	if g.phase == PhaseDefence {
		g.nextDefence()
		return
	}
	switch g.phase {
	case PhaseNight:
		g.endNight()
	case PhaseLastWords:
		g.afterLastWords()
	case PhaseSpeech:
		g.nextSpeech()
	case PhaseDefence:
		g.nextDefence()
	case PhaseVote, PhaseRevote:
		g.closeVote()
	case PhaseTieSpeech:
		g.nextTieSpeech()
	case PhaseAllVote:
		g.closeAllVote()
	}
}

// mafiaTarget is the mafia's victim tonight, or 0 for a miss.
func (g *Game) mafiaTarget() Seat {
	living := g.mafia & g.alive
	if living == 0 {
		return 0
	}
	if g.rules.MafiaKill == MafiaKillUnanimous {
		var t Seat
		for m := living; m != 0; {
			s := m.First()
			m &= m - 1 // drops the seat just taken, the lowest, without a shift
			c := g.mafiaChoice[s]
			if c == 0 || (t != 0 && c != t) {
				return 0
			}
			t = c
		}
		return t
	}
	senior := g.don
	if !living.Has(senior) {
		senior = living.First()
	}
	if g.mafiaActed.Has(senior) {
		return g.mafiaChoice[senior]
	}
	var best Seat
	var bestSeq uint8
	for m := living; m != 0; {
		s := m.First()
		m &= m - 1 // drops the seat just taken, the lowest, without a shift
		if g.mafiaChoice[s] != 0 && g.mafiaSeq[s] > bestSeq {
			best, bestSeq = g.mafiaChoice[s], g.mafiaSeq[s]
		}
	}
	return best
}

func (g *Game) endNight() {
	var victims SeatSet
	if t := g.mafiaTarget(); t != 0 {
		victims = victims.With(t)
	}
	// Everyone alive at dusk is alive until dawn ("a role killed that night
	// still acts"), so a dead actor here was removed by fouls tonight: their
	// action no longer counts.
	if g.shot != 0 && g.alive.Has(g.man) {
		victims = victims.With(g.shot)
	}
	if g.heal != 0 && g.alive.Has(g.doc) {
		victims = victims.Without(g.heal)
	}
	victims &= g.alive
	e := g.push(EvNightEnded)
	e.Set = victims
	g.applyNightEnded(e)
	for m := victims; m != 0; {
		s := m.First()
		m &= m - 1 // drops the seat just taken, the lowest, without a shift
		g.emitOut(s, CauseNight)
	}
	if g.endCheck() {
		return
	}
	g.afterLastWords()
}

// emitOut records a player leaving the game, revealing what the rules reveal.
func (g *Game) emitOut(s Seat, cause Cause) {
	e := g.push(EvPlayerOut)
	e.Target, e.Cause = s, cause
	switch g.rules.RevealOnDeath {
	case RevealTeam:
		e.Team = g.roles[s].Team()
	case RevealRole:
		e.Role, e.Team = g.roles[s], g.roles[s].Team()
	}
	g.applyPlayerOut(e)
}

// afterLastWords gives the next last words, or moves on: to the day's
// speeches after a night, to the next night after a day.
func (g *Game) afterLastWords() {
	if g.lwQueue != 0 {
		e := g.push(EvLastWords)
		e.Target = g.lwQueue.First()
		g.beginStep()
		g.applyLastWords(e)
		return
	}
	if g.dayStarted {
		g.beginNight()
		return
	}
	g.beginDay()
}

// beginNight begins the next night, unless the game has reached the end of
// its last round (round_limit): then it ends in a draw (docs/rulings.md).
func (g *Game) beginNight() {
	if l := g.rules.RoundLimit; l > 0 && g.round >= uint16(l) {
		g.emitEnd(WinnerDraw, CauseRoundLimit)
		return
	}
	e := g.push(EvNightBegan)
	e.Round = g.round + 1
	g.beginStep()
	g.applyNightBegan(e)
}

// beginDay starts the speeches: day 1 from the first living seat from seat 1
// on, each later day from the first living seat after the previous day's.
func (g *Game) beginDay() {
	var opener Seat
	if g.opener == 0 {
		opener = g.alive.First()
	} else {
		opener = g.nextAlive(g.opener)
	}
	e := g.push(EvDayBegan)
	e.Actor = opener
	g.applyDayBegan(e)
	g.nextSpeech()
}

// nextAlive returns the first living seat after s, going round the table.
func (g *Game) nextAlive(s Seat) Seat {
	n := Seat(g.n)
	for i := Seat(1); i <= n; i++ {
		t := (s+i-1)%n + 1
		if g.alive.Has(t) {
			return t
		}
	}
	return 0
}

// nextSpeech gives the floor to the next living speaker in today's round,
// skipping speeches lost through fouls; after the last, the defences.
func (g *Game) nextSpeech() {
	n := int(g.n)
	off := 0
	if g.slot != 0 {
		off = offsetAfter(g.slot, g.opener, n)
	}
	for ; off < n; off++ {
		s := seatAt(g.opener, off, n)
		if !g.alive.Has(s) {
			continue
		}
		if g.lostSpeech.Has(s) {
			g.emitTarget(EvSpeechSkipped, s)
			continue
		}
		e := g.push(EvSpeech)
		e.Target = s
		g.beginStep()
		g.applySpeech(e)
		return
	}
	g.nextDefence()
}

// offsetAfter is how many seats round a table of n from opener the seat
// after slot is: (slot-opener+n)%n + 1, by a subtraction rather than a
// division (it is asked for every speech).
func offsetAfter(slot, opener Seat, n int) int {
	off := int(slot) - int(opener) + 1
	if off <= 0 {
		off += n
	}
	return off
}

// seatAt is the seat off seats round a table of n from opener (off < n):
// (opener-1+off)%n + 1, by a subtraction.
func seatAt(opener Seat, off, n int) Seat {
	t := int(opener) + off
	if t > n {
		t -= n
	}
	return Seat(t)
}

// nextCandidate is the first candidate (nomination order) who has not yet
// spoken in this round of defences or tie speeches.
func (g *Game) nextCandidate() Seat {
	for i := uint8(0); i < g.ncand; i++ {
		if !g.defended.Has(g.cand[i]) {
			return g.cand[i]
		}
	}
	return 0
}

func (g *Game) nextDefence() {
	if g.ncand == 0 {
		g.nobodyLeaves()
		return
	}
	if s := g.nextCandidate(); s != 0 {
		e := g.push(EvDefence)
		e.Target = s
		g.beginStep()
		g.applyDefence(e)
		return
	}
	g.beginVote(PhaseVote)
}

func (g *Game) nextTieSpeech() {
	if g.ncand == 0 {
		g.nobodyLeaves()
		return
	}
	if s := g.nextCandidate(); s != 0 {
		e := g.push(EvTieSpeech)
		e.Target = s
		g.beginStep()
		g.applyTieSpeech(e)
		return
	}
	g.beginVote(PhaseRevote)
}

func (g *Game) beginVote(p Phase) {
	e := g.push(EvVoteBegan)
	e.Phase, e.Count = p, g.ncand
	for i := uint8(0); i < g.ncand; i++ {
		e.PerSeat[i] = uint8(g.cand[i])
	}
	g.beginStep()
	g.applyVoteBegan(e)
}

func (g *Game) nobodyLeaves() {
	g.push(EvNobodyLeaves)
	g.applyLast()
	g.beginNight()
}

// closeVote counts the vote: abstentions go to the last candidate; one top
// candidate leaves; a tie goes to tie speeches and a revote, a tied revote to
// second_tie.
func (g *Game) closeVote() {
	if g.ncand == 0 {
		g.nobodyLeaves()
		return
	}
	last := g.cand[g.ncand-1]
	e := g.push(EvVoteClosed)
	e.Phase = g.phase
	var tally [MaxSeats + 1]uint8
	for m := g.alive; m != 0; {
		v := m.First()
		m &= m - 1 // drops the seat just taken, the lowest, without a shift
		// A vote counts if it was cast and is for a candidate, else it goes
		// to the last candidate: both bits tested at once (seats are below
		// 32) and the seat chosen by a mask, not by two branches that the
		// voters' random choices made unpredictable.
		t := g.votes[v]
		counts := Seat(uint32(g.voted)>>(v&31)&(uint32(g.candSet)>>(t&31))) & 1
		keep := -counts // 0xff when the vote counts, else 0
		t = t&keep | last&^keep
		e.PerSeat[v] = uint8(t)
		tally[t]++
	}
	g.applyVoteClosed(e)
	// The top count and the candidates tied at it, in one pass with no
	// branch on the counts (the voters' random choices): a count above the
	// top so far starts the tie afresh, one equal to it joins it.
	var top uint8
	var tied SeatSet
	for _, c := range g.cand[:g.ncand] {
		n := tally[c]
		above, equal := -SeatSet(b2u8(n > top)), -SeatSet(b2u8(n == top))
		tied = tied&^above | SeatSet(0).With(c)&(above|equal)
		top += (n - top) & uint8(above) // n when above (the builtin max compiles to a branch here)
	}
	if tied.Len() == 1 {
		g.eliminate(tied, CauseVote)
		return
	}
	if g.phase == PhaseVote {
		g.emitTie(&tally, top)
		g.nextTieSpeech()
		return
	}
	switch g.rules.SecondTie {
	case SecondTieNobody:
		g.nobodyLeaves()
	case SecondTieAll:
		g.eliminate(tied, CauseAll)
	default:
		// "shall all of them leave?" is about those tied at the top of the
		// revote, who may be fewer than the revote's candidates.
		g.emitTie(&tally, top)
		g.push(EvAllVoteBegan)
		g.applyLast()
	}
}

// b2u8 is 1 for true and 0 for false (a SETcc, no branch).
func b2u8(b bool) uint8 {
	var x uint8
	if b {
		x = 1
	}
	return x
}

// emitTie emits the tie of the vote just closed: the candidates whose count
// in tally is top, in nomination order. It is made in place, and only when
// there is a tie (most votes have a single top candidate). The tie says
// which vote it ends (Phase: vote or revote), so that whoever reads it
// alone can tell the first tie from a second one.
func (g *Game) emitTie(tally *[MaxSeats + 1]uint8, top uint8) {
	e := g.push(EvTie)
	e.Phase = g.phase
	for i := uint8(0); i < g.ncand; i++ {
		if c := g.cand[i]; tally[c] == top {
			e.PerSeat[e.Count] = uint8(c)
			e.Count++
		}
	}
	g.apply(e)
}

// closeAllVote: all the tied leave if more than half of the living said yes.
func (g *Game) closeAllVote() {
	yes := g.yes & g.alive
	pass := yes.Len()*2 > g.alive.Len()
	g.emit(Event{Kind: EvAllVoteClosed, Set: yes, Yes: pass})
	if !pass || g.ncand == 0 {
		g.nobodyLeaves()
		return
	}
	g.eliminate(g.candSet, CauseAll)
}

// eliminate sends players away by day, in seat order, then checks the end of
// the game before any last words.
func (g *Game) eliminate(out SeatSet, cause Cause) {
	for m := out; m != 0; {
		s := m.First()
		m &= m - 1 // drops the seat just taken, the lowest, without a shift
		g.emitOut(s, cause)
	}
	if g.endCheck() {
		return
	}
	g.afterLastWords()
}

// removeByFouls takes a player out at once (no last words), checks the end,
// and moves the floor on if it was theirs.
func (g *Game) removeByFouls(s Seat) {
	wasSpeaker := g.speaker == s
	g.emitOut(s, CauseFouls)
	if g.endCheck() || !wasSpeaker {
		return
	}
	switch g.phase {
	case PhaseSpeech:
		g.nextSpeech()
	case PhaseDefence:
		g.nextDefence()
	case PhaseTieSpeech:
		g.nextTieSpeech()
	}
}

// result applies "End of the game" in the rulebook's order.
func (g *Game) result() Winner {
	alive := g.alive.Len()
	mafia := (g.alive & g.mafia).Len()
	maniac := g.man != 0 && g.alive.Has(g.man)
	switch {
	case alive == 0:
		return WinnerDraw
	case mafia == 0 && !maniac:
		return WinnerTown
	case maniac && alive <= 2:
		if alive == 2 && mafia == 1 {
			switch g.rules.ManiacVsMafia {
			case ManiacVsMafiaMafia:
				return WinnerMafia
			case ManiacVsMafiaDraw:
				return WinnerDraw
			}
		}
		return WinnerManiac
	case mafia >= alive-mafia:
		return WinnerMafia
	}
	return WinnerNone
}

// endCheck ends the game if a side has won, revealing every role.
func (g *Game) endCheck() bool {
	w := g.result()
	if w == WinnerNone {
		return false
	}
	g.emitEnd(w, CauseNone)
	return true
}

// emitEnd ends the game with a result, revealing every role; cause says why
// when it is not a side's win or the table emptied (CauseRoundLimit).
func (g *Game) emitEnd(w Winner, cause Cause) {
	e := Event{Kind: EvGameEnded, Winner: w, Cause: cause}
	for s := Seat(1); s <= Seat(g.n); s++ {
		e.PerSeat[s] = uint8(g.roles[s])
	}
	g.emit(e)
}
