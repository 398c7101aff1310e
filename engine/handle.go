package engine

// Handle applies one command. It either refuses it with an *Error and changes
// nothing, or returns the events it caused, in order. The returned slice is
// reused by the next call on g: copy it to keep it.
//
// check and exec (and what they call) take the command by pointer: a
// Command is seven fields, each passed in a register of its own, so that
// every call on the way moved them all between registers and the stack.
//
// Handle itself is small enough to be inlined: at its caller the command
// is a local whose address HandleCommand takes, not seven registers that
// Handle stored to its own frame before every call.
func (g *Game) Handle(c Command) ([]Event, error) { return g.HandleCommand(&c) }

// HandleCommand is Handle(*c), reading the command where it is: for a
// driver that keeps its command in memory (bot.Table, at every move of a
// simulated game), a command copied to Handle's argument was read in
// wider loads than it was written, which stalls the processor. It does
// not change *c.
func (g *Game) HandleCommand(c *Command) ([]Event, error) {
	g.out = g.out[:0]
	// The step's end (Next, half of a simulated game's commands) as check
	// accepts it, the host's in a game begun and not over, straight to
	// advance: check's and exec's tests of every other verb skipped.
	if c.Verb == Next && c.By == Host && g.phase-1 < PhaseEnded-1 {
		g.advance()
		return g.out, nil
	}
	if err := g.check(c); err != nil {
		return nil, err
	}
	g.exec(c)
	return g.out, nil
}

// Check reports whether Handle would accept the command, without changing
// anything.
func (g *Game) Check(c Command) error { return g.check(&c) }

// seatOK reports whether s is a seat at the table, 1..n: one unsigned
// comparison (seat 0 wraps round to 255, above every table's size).
func (g *Game) seatOK(s Seat) bool { return s-1 < Seat(g.n) }

// target validates a target seat: at the table and alive.
func (g *Game) target(c *Command) *Error {
	if !g.seatOK(c.Target) {
		return &Error{Code: CodeNoSuchSeat, Seat: c.Target, N: int(g.n)}
	}
	if !g.alive.Has(c.Target) {
		return &Error{Code: CodeTargetOut, Target: c.Target}
	}
	return nil
}

// check validates c against the state. It must not change anything.
func (g *Game) check(c *Command) error {
	if c.Verb-1 >= numVerbs-1 { // VerbNone wraps round to 255
		return &Error{Code: CodeUnknownVerb}
	}
	if g.phase == PhaseEnded {
		return &Error{Code: CodeGameOver}
	}
	if g.phase == PhaseNone {
		return &Error{Code: CodeWrongPhase, Phase: g.phase}
	}
	switch c.Verb {
	case Next:
		if c.By != Host {
			return &Error{Code: CodeHostOnly}
		}
		return nil
	case Foul:
		if c.By != Host {
			return &Error{Code: CodeHostOnly}
		}
		if err := g.target(c); err != nil {
			return err
		}
		return nil
	}
	if !g.seatOK(c.By) {
		return &Error{Code: CodeNoSuchSeat, Seat: c.By, N: int(g.n)}
	}
	if c.Verb == Pass {
		if !g.phase.Timed() {
			return &Error{Code: CodeWrongPhase, Phase: g.phase}
		}
		if c.By != g.speaker {
			return &Error{Code: CodeNotSpeaker, Seat: c.By}
		}
		return nil
	}
	if c.Verb.IsStatement() {
		// before the check of the living: last words are a dead player's floor
		return g.checkStatement(c)
	}
	if !g.alive.Has(c.By) {
		return &Error{Code: CodeActorOut, Seat: c.By}
	}
	switch c.Verb {
	case Kill, Check, Shoot, Heal, Skip:
		return g.checkNight(c)
	case Nominate:
		if g.phase != PhaseSpeech {
			return &Error{Code: CodeWrongPhase, Phase: g.phase}
		}
		if c.By != g.speaker {
			return &Error{Code: CodeNotSpeaker, Seat: c.By}
		}
		if g.nominated {
			return &Error{Code: CodeAlreadyNominated, Seat: c.By}
		}
		if c.Target == c.By {
			return &Error{Code: CodeNominateSelf, Seat: c.By}
		}
		if err := g.target(c); err != nil {
			return err
		}
		if g.isCandidate(c.Target) {
			return &Error{Code: CodeAlreadyCandidate, Target: c.Target}
		}
	case Vote:
		if g.phase != PhaseVote && g.phase != PhaseRevote {
			return &Error{Code: CodeWrongPhase, Phase: g.phase}
		}
		if g.voted.Has(c.By) {
			return &Error{Code: CodeAlreadyVoted, Seat: c.By}
		}
		if !g.seatOK(c.Target) {
			return &Error{Code: CodeNoSuchSeat, Seat: c.Target, N: int(g.n)}
		}
		if !g.isCandidate(c.Target) {
			return &Error{Code: CodeNotCandidate, Target: c.Target}
		}
	case AllVote:
		if g.phase != PhaseAllVote {
			return &Error{Code: CodeWrongPhase, Phase: g.phase}
		}
		if g.voted.Has(c.By) {
			return &Error{Code: CodeAlreadyVoted, Seat: c.By}
		}
	}
	return nil
}

// hasNightRole reports whether a seat's card acts at night.
func (g *Game) hasNightRole(s Seat) bool {
	return g.mafia.Has(s) || s == g.det || s == g.doc || s == g.man
}

// nightDone reports whether a seat has nothing left to do tonight.
func (g *Game) nightDone(s Seat) bool {
	if g.skipped.Has(s) {
		return true
	}
	switch g.roles[s] {
	case Mafioso:
		return g.mafiaActed.Has(s)
	case Don:
		return g.mafiaActed.Has(s) && g.checked.Has(s)
	case Detective:
		return g.checked.Has(s)
	case Doctor:
		return g.heal != 0
	case Maniac:
		return g.round < 2 || g.shotsLeft == 0 || g.shot != 0
	}
	return true
}

func (g *Game) checkNight(c *Command) error {
	if g.phase != PhaseNight {
		return &Error{Code: CodeWrongPhase, Phase: g.phase}
	}
	if !g.hasNightRole(c.By) {
		return &Error{Code: CodeNotYourRole, Seat: c.By}
	}
	if g.round == 1 && g.rules.FirstNight == FirstNightMeeting {
		return &Error{Code: CodeMeetingNight}
	}
	switch c.Verb {
	case Skip:
		done := g.nightDone(c.By)
		if c.By == g.man && !g.mafia.Has(c.By) {
			// the maniac may skip on any night he has not shot, even with no
			// shot left or on night 1: "I do nothing tonight"
			done = g.skipped.Has(c.By) || g.shot != 0
		}
		if done {
			return &Error{Code: CodeAlreadyActed, Seat: c.By}
		}
		return nil
	case Kill:
		if !g.mafia.Has(c.By) {
			return &Error{Code: CodeNotYourRole, Seat: c.By}
		}
		if g.mafiaActed.Has(c.By) {
			return &Error{Code: CodeAlreadyActed, Seat: c.By}
		}
		if err := g.target(c); err != nil {
			return err
		}
		if g.mafia.Has(c.Target) {
			return &Error{Code: CodeTargetIsMafia, Target: c.Target}
		}
	case Check:
		if c.By != g.don && c.By != g.det {
			return &Error{Code: CodeNotYourRole, Seat: c.By}
		}
		if g.checked.Has(c.By) || g.skipped.Has(c.By) {
			return &Error{Code: CodeAlreadyActed, Seat: c.By}
		}
		if c.Target == c.By {
			return &Error{Code: CodeCheckSelf}
		}
		if err := g.target(c); err != nil {
			return err
		}
	case Shoot:
		if c.By != g.man {
			return &Error{Code: CodeNotYourRole, Seat: c.By}
		}
		if g.round < 2 {
			return &Error{Code: CodeManiacNightOne}
		}
		if g.shot != 0 || g.skipped.Has(c.By) {
			return &Error{Code: CodeAlreadyActed, Seat: c.By}
		}
		if g.shotsLeft == 0 {
			return &Error{Code: CodeNoShotsLeft, N: 2}
		}
		if c.Target == c.By {
			return &Error{Code: CodeShootSelf}
		}
		if err := g.target(c); err != nil {
			return err
		}
	case Heal:
		if c.By != g.doc {
			return &Error{Code: CodeNotYourRole, Seat: c.By}
		}
		if g.heal != 0 || g.skipped.Has(c.By) {
			return &Error{Code: CodeAlreadyActed, Seat: c.By}
		}
		if err := g.target(c); err != nil {
			return err
		}
		if g.rules.DoctorRepeat == DoctorOncePerGame && g.healed.Has(c.Target) {
			return &Error{Code: CodeAlreadyHealed, Target: c.Target}
		}
		if g.rules.DoctorRepeat == DoctorNotTwiceInARow && g.lastHealRnd+1 == g.round && g.lastHeal == c.Target {
			return &Error{Code: CodeHealedLastNight, Target: c.Target}
		}
	}
	return nil
}

// checkResult is the answer a checker gets about a target.
func (g *Game) checkResult(by, target Seat) Result {
	r := g.roles[target]
	if by == g.don {
		if r == Detective {
			return ResultDetective
		}
		return ResultNotDetective
	}
	return g.rules.DetectiveAnswer(r.Team())
}

// exec carries out a command that check accepted. Its events are made in
// place in the output (push, then apply), as the flow's are.
func (g *Game) exec(c *Command) {
	// The step's end (Next, half of a random game's commands) never comes
	// here from HandleCommand, which takes it straight to advance.
	switch c.Verb {
	case Kill:
		e := g.push(EvMafiaChose)
		e.Actor, e.Target = c.By, c.Target
		g.applyMafiaChose(e)
	case Check:
		e := g.push(EvChecked)
		e.Actor, e.Target, e.Result = c.By, c.Target, g.checkResult(c.By, c.Target)
		g.applyChecked(e)
	case Shoot:
		e := g.push(EvShot)
		e.Actor, e.Target = c.By, c.Target
		g.applyShot(e)
	case Heal:
		e := g.push(EvHealed)
		e.Actor, e.Target = c.By, c.Target
		g.applyHealed(e)
	case Skip:
		if g.mafia.Has(c.By) && !g.mafiaActed.Has(c.By) {
			// The team sees that this mafioso names nobody, as it sees a
			// named victim.
			e := g.push(EvMafiaChose)
			e.Actor = c.By
			g.applyMafiaChose(e)
		}
		e := g.push(EvSkipped)
		e.Actor = c.By
		g.applySkipped(e)
	case Nominate:
		e := g.push(EvNominated)
		e.Actor, e.Target = c.By, c.Target
		g.applyNominated(e)
	case Vote:
		// Everyone sees that the seat has voted (not whom for); the vote
		// itself is its voter's until the close. A VoteMade changes nothing
		// (apply has nothing to fold for it, and it begins no step).
		e := g.push(EvVoteMade)
		e.Actor, e.Phase = c.By, g.phase
		e = g.push(EvVoteCast)
		e.Actor, e.Target = c.By, c.Target
		g.applyVoteCast(e)
	case AllVote:
		g.emitVoteMade(c.By)
		e := g.push(EvAllVoteCast)
		e.Actor, e.Yes = c.By, c.Yes
		g.apply(e)
	case Foul:
		n := g.fouls[c.Target]
		if n < 255 {
			n++
		}
		e := g.push(EvFouled)
		e.Target, e.Count = c.Target, n
		g.apply(e)
		if l := g.rules.FoulLimit; l > 0 && n >= l {
			g.removeByFouls(c.Target)
		}
	case Pass, Next:
		g.advance()
	case Claim, Report, Suspect, Vouch, WillNominate, BestMove:
		g.say(c)
	}
}

// emitVoteMade emits that seat by has voted in the current vote.
func (g *Game) emitVoteMade(by Seat) {
	e := g.push(EvVoteMade)
	e.Actor, e.Phase = by, g.phase
	g.apply(e)
}
