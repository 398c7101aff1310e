package bot

import "mafia/engine"

// This file is the Smart bot's talk: what it reads from the statements of
// the public record (claims, reported checks, suspicions, vouches) and the
// statements it makes on its own floor.
//
// Reading is public, the same for every Smart bot: a Detective's claim is
// believed when it is the only one, or the one the facts support best (a
// claimant the killers took at night was believed by them; the first to
// claim is more often the true one); a believed Detective's reports move
// suspicion; a claimant that facts contradict (a card revealed, a report of
// a seat whose team is revealed otherwise) is a liar, and a liar is
// suspected. Speaking: the Detective claims once it has found a living
// mafioso, or in its last words, and then reports its checks; a mafioso
// whose partner a claimed Detective reported sometimes counter-claims and
// reports the claimant as mafia.

// The weights of the talk.
const (
	wLiar       = 60 // a seat whose words the facts contradicted
	wReported   = 40 // reported mafia by the believed Detective
	wCleared    = 12 // reported not mafia by the believed Detective (taken off)
	wBelieved   = 30 // the believed Detective (taken off)
	wFalseClaim = 45 // another Detective claim than the believed one
	wVouchBad   = 5  // vouched for a seat revealed on the other side (or suspected one revealed town)
	wHunt       = 40 // the mafia's victim: a seat that claimed the Detective
	counterOdds = 3  // one mafioso in counterOdds counter-claims an accusation of a partner
)

// talkState is the talk part of a Smart bot's record (fixed-size arrays:
// reading and speaking allocate nothing).
type talkState struct {
	claimed  [engine.MaxSeats + 1]engine.Role // each seat's latest claimed card
	claimSeq [engine.MaxSeats + 1]uint8       // order of the Detective claims (1: the first), 0: none
	nclaims  uint8
	cred     [engine.MaxSeats + 1]int8                               // facts for a Detective claim (killed at night after it)
	report   [engine.MaxSeats + 1][engine.MaxSeats + 1]engine.Result // report[by][target]: the last answer by reported of target
	vouched  [engine.MaxSeats + 1]engine.SeatSet                     // seats each seat vouched for
	suspects [engine.MaxSeats + 1]engine.SeatSet                     // seats each seat said it suspects
	liar     engine.SeatSet
	tk       [engine.MaxSeats + 1]int32 // suspicion from the talk (retalk)
	det      engine.Seat                // the believed Detective (0: none)

	counter  int8           // a mafioso's roll to counter-claim: 0 not rolled, 1 yes, -1 no
	reported engine.SeatSet // the Detective: seats whose checks it reported

	// Today's talk, so that a seat never contradicts itself in a day and
	// repeats another's suspicion only with a reason of its own.
	stAcc   engine.SeatSet              // seats this bot accused today by statement (suspect, will_nominate, report mafia)
	stVouch engine.SeatSet              // seats it vouched for today (vouch, report not mafia)
	dayAcc  engine.SeatSet              // seats others accused today (statements, nominations)
	why     [engine.MaxSeats + 1]reason // the latest fact of the record against each seat

	votedRound uint16 // the round of the last closed vote (voted)
	outs       uint8  // players out so far
	bestMove   bool   // this seat is the first the night took: its last words name a best move
}

// reason is a fact of the public record against a seat: a line's kind and
// the other seat it names.
type reason struct {
	kind LineKind
	seat engine.Seat
}

// newDay forgets yesterday's talk (the day's sets above).
func (b *Smart) newDay() { b.stAcc, b.stVouch, b.dayAcc = 0, 0, 0 }

// seeNomination reads a nomination into the day's talk: an accusation, and
// a reason against a nominator of the believed Detective.
func (b *Smart) seeNomination(e *engine.Event) {
	b.fold(uint64(e.Actor)<<8 | uint64(e.Target) | 1<<20)
	if e.Actor != b.me {
		b.dayAcc = b.dayAcc.With(e.Target)
	}
	if e.Target == b.det && b.det != 0 {
		b.why[e.Actor] = reason{LineAgainstDetective, e.Target}
	}
}

// accuses reports whether result r of a report accuses its target.
func accuses(r engine.Result) bool { return r == engine.ResultMafia || r == engine.ResultManiac }

// sus is the public suspicion of s: the record's and the talk's.
func (b *Smart) sus(s engine.Seat) int32 { return b.pub[s] + b.tk[s] }

// seeStatement reads one statement into the record.
func (b *Smart) seeStatement(e *engine.Event) {
	by := e.Actor
	b.fold(uint64(by)<<8 | uint64(e.Target) | uint64(e.Verb)<<16 | uint64(e.Result)<<24 | uint64(e.Role)<<32 | 2<<40)
	acc, vouch := false, false
	switch e.Verb {
	case engine.Report:
		acc, vouch = accuses(e.Result), e.Result == engine.ResultNotMafia
	case engine.Suspect, engine.WillNominate:
		acc = true
	case engine.Vouch:
		vouch = true
	}
	switch {
	case by == b.me && acc:
		b.stAcc = b.stAcc.With(e.Target)
	case by == b.me && vouch:
		b.stVouch = b.stVouch.With(e.Target)
	case acc:
		b.dayAcc = b.dayAcc.With(e.Target)
	}
	if acc && e.Target == b.det && b.det != 0 && by != b.det {
		b.why[by] = reason{LineAgainstDetective, e.Target} // went after the believed Detective
	}
	switch e.Verb {
	case engine.Claim:
		b.claimed[by] = e.Role
		if e.Role == engine.Detective && b.claimSeq[by] == 0 {
			b.nclaims++
			b.claimSeq[by] = b.nclaims
		}
	case engine.Report:
		if by == b.det && by != 0 {
			// only the believed Detective's reports count: move the one
			b.tk[e.Target] += reportWeight(e.Result) - reportWeight(b.report[by][e.Target])
		}
		b.report[by][e.Target] = e.Result
		if by == b.me {
			b.reported = b.reported.With(e.Target)
		}
		if e.Result != engine.ResultNotMafia {
			b.noteAccusal(by, e.Target, 3)
		}
		b.rollCounter(by, e.Target, e.Result)
	case engine.Suspect:
		b.suspects[by] = b.suspects[by].With(e.Target)
		b.noteAccusal(by, e.Target, 1)
	case engine.Vouch:
		b.vouched[by] = b.vouched[by].With(e.Target)
	}
	// a Detective's claim may change whom the record believes
	if e.Verb == engine.Claim && e.Role == engine.Detective {
		b.retalk()
	}
}

// reportWeight is what a believed Detective's report of r adds to its
// target's suspicion.
func reportWeight(r engine.Result) int32 {
	switch r {
	case engine.ResultMafia, engine.ResultManiac:
		return wReported
	case engine.ResultNotMafia:
		return -wCleared
	}
	return 0
}

// rollCounter decides, once a game, whether this mafioso will counter-claim
// a claimed Detective who reported a partner as mafia.
func (b *Smart) rollCounter(by, target engine.Seat, r engine.Result) {
	if b.counter != 0 || b.team == 0 || b.team.Has(by) || !b.team.Has(target) || r != engine.ResultMafia || b.claimSeq[by] == 0 {
		return
	}
	b.counter = -1
	if b.Src.Intn(counterOdds) == 0 {
		b.counter = 1
	}
}

// seeOut reads what a player's leaving shows of the talk: a claimant the
// night took, and the facts a revealed card or team gives.
func (b *Smart) seeOut(e *engine.Event) {
	t := e.Target
	b.fold(uint64(t) | uint64(e.Team)<<8 | uint64(e.Cause)<<16 | 3<<40)
	if b.outs == 0 && t == b.me && e.Cause == engine.CauseNight {
		b.bestMove = true
	}
	b.outs++
	if e.Team == engine.TeamTown && (e.Cause == engine.CauseVote || e.Cause == engine.CauseAll) {
		// reasons against those who voted out, or nominated, a citizen
		for v := engine.Seat(1); v <= engine.Seat(b.n); v++ {
			if b.voted[v] == t && v != t {
				b.why[v] = reason{LineVotedTown, t}
			}
		}
		if a := b.nomBy[t]; a != 0 && a != t {
			b.why[a] = reason{LineNominatedTown, t}
		}
	}
	if e.Team == engine.TeamNone {
		if e.Cause == engine.CauseNight && b.claimSeq[t] != 0 && b.cred[t] < 100 {
			b.cred[t]++
			b.retalk()
		}
		return
	}
	if e.Cause == engine.CauseNight && b.claimSeq[t] != 0 && b.cred[t] < 100 {
		b.cred[t]++
	}
	if b.claimed[t] == engine.Detective && (e.Team != engine.TeamTown || e.Role != engine.RoleNone && e.Role != engine.Detective) {
		b.liar = b.liar.With(t)
	}
	if e.Role == engine.Detective {
		for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
			if s != t && b.claimSeq[s] != 0 {
				b.liar = b.liar.With(s)
			}
		}
	}
	seen := b.rules.DetectiveAnswer(e.Team) // e.Team is known here
	for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
		if r := b.report[s][t]; r != engine.ResultNone && seen != engine.ResultNone && r != seen {
			b.liar = b.liar.With(s)
		}
		good := e.Team == engine.TeamTown
		if b.vouched[s].Has(t) && !good || b.suspects[s].Has(t) && good {
			b.pub[s] += wVouchBad
		}
	}
	b.retalk()
}

// believed returns the Detective claim the record supports best, or 0:
// the only claimant who is no liar, else the one with the most facts for
// it, the first to claim among equals.
func (b *Smart) believed() engine.Seat {
	var best engine.Seat
	var bk int
	tied := false
	for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
		if b.claimSeq[s] == 0 || b.liar.Has(s) {
			continue
		}
		k := 4*int(b.cred[s]) - int(b.claimSeq[s])
		switch {
		case best == 0 || k > bk:
			best, bk, tied = s, k, false
		case k == bk:
			tied = true
		}
	}
	if tied {
		return 0
	}
	return best
}

// retalk recomputes the talk's suspicion of every seat.
func (b *Smart) retalk() {
	b.tk = [engine.MaxSeats + 1]int32{}
	for m := b.liar; m != 0; {
		s := m.First()
		m = m.Without(s)
		b.tk[s] += wLiar
	}
	b.det = b.believed()
	if b.det == 0 {
		return
	}
	b.tk[b.det] -= wBelieved
	for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
		b.tk[s] += reportWeight(b.report[b.det][s])
		if s != b.det && b.claimSeq[s] != 0 && !b.liar.Has(s) {
			b.tk[s] += wFalseClaim
		}
	}
}

// statement is what the bot says next on its own floor, if anything: the
// Detective's claim and reports, a mafioso's counter-claim.
func (b *Smart) statement(v *engine.View) (engine.Command, bool) {
	if !v.Can(engine.Claim) {
		return engine.Command{}, false
	}
	if b.mute {
		return engine.Command{}, false
	}
	if c, ok := b.bestMoveStatement(v); ok {
		return c, true
	}
	me := v.Seat
	switch {
	case b.role == engine.Detective:
		if c, ok := b.detectiveTalk(v); ok {
			return c, true
		}
	case b.mafia() && b.counter == 1 && b.claimed[me] != engine.Detective && b.teamClaims() == 0 && !b.vouchedClaimant():
		return engine.Command{Verb: engine.Claim, By: me, Role: engine.Detective}, true
	case b.mafia() && b.claimed[me] == engine.Detective:
		// the counter-claim's report: the claimant who accused a partner
		for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
			if b.claimSeq[s] != 0 && s != me && !b.team.Has(s) && b.report[me][s] == engine.ResultNone && v.Targets(engine.Report).Has(s) && !b.stVouch.Has(s) {
				return engine.Command{Verb: engine.Report, By: me, Target: s, Result: engine.ResultMafia}, true
			}
		}
	}
	return b.opinionStatement(v)
}

// vouchedClaimant reports whether the bot vouched today for a Detective
// claimant its counter-claim would report (then it waits for tomorrow).
func (b *Smart) vouchedClaimant() bool {
	for m := b.stVouch &^ b.team; m != 0; {
		s := m.First()
		m = m.Without(s)
		if b.claimSeq[s] != 0 {
			return true
		}
	}
	return false
}

// teamClaims counts the mafia's Detective claims.
func (b *Smart) teamClaims() int {
	n := 0
	for m := b.team; m != 0; {
		s := m.First()
		m = m.Without(s)
		if b.claimSeq[s] != 0 {
			n++
		}
	}
	return n
}

// detectiveTalk: claim once a living mafioso is found (or in the last
// words), then report every check not yet reported, mafia first.
func (b *Smart) detectiveTalk(v *engine.View) (engine.Command, bool) {
	me := v.Seat
	if b.claimed[me] != engine.Detective {
		found := false
		for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
			if (v.Checks[s] == engine.ResultMafia || v.Checks[s] == engine.ResultManiac) && v.Alive.Has(s) {
				found = true
			}
		}
		if !found && v.Phase != engine.PhaseLastWords {
			return engine.Command{}, false
		}
		return engine.Command{Verb: engine.Claim, By: me, Role: engine.Detective}, true
	}
	targets := v.Targets(engine.Report)
	for _, bad := range [2]bool{true, false} {
		for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
			r := v.Checks[s]
			if r == engine.ResultNone || b.reported.Has(s) || !targets.Has(s) || !v.Rules.Reportable(r) {
				continue
			}
			if accuses(r) && b.stVouch.Has(s) || r == engine.ResultNotMafia && b.stAcc.Has(s) {
				continue // not against what it said today: tomorrow
			}
			if (r != engine.ResultNotMafia) == bad {
				return engine.Command{Verb: engine.Report, By: me, Target: s, Result: r}, true
			}
		}
	}
	return engine.Command{}, false
}

// bestMoveStatement is the first night's victim's best move as the game's
// statement, first on its last words' floor: the three seats its best-move
// line names (bestMoveLine, from its view alone), which the statement's
// voice then says aloud.
func (b *Smart) bestMoveStatement(v *engine.View) (engine.Command, bool) {
	if !b.bestMove || !v.Can(engine.BestMove) {
		return engine.Command{}, false
	}
	others := v.Alive.Without(v.Seat)
	if b.mafia() {
		others &^= b.team
	}
	l, ok := b.bestMoveLine(v, others)
	if !ok {
		return engine.Command{}, false
	}
	return engine.Command{Verb: engine.BestMove, By: v.Seat, Guess: engine.SetOf(l.SeatsNamed()...)}, true
}
