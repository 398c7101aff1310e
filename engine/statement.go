package engine

// This file is structured talk: the statements a player may make on their
// own floor, and the game's public record of them (Talk).
//
// A statement is what a player says, never a fact the engine vouches for:
// a citizen may claim the Detective, a mafioso may report a check he never
// made. The engine checks only that it may be said now (the speaker's own
// floor, real seats, nothing about oneself that makes no sense, a bounded
// number per floor) and records it as said: an EvStatement, public, built
// from the command alone, so nothing in it depends on a hidden card.

// StatementsPerFloor is how many statements a player may make on one floor
// (a speech, a defence, a tie speech, last words): enough for a Detective's
// claim and every check of a long game, few enough that nobody floods the
// table.
const StatementsPerFloor = 6

// Statement is one statement of the record: By said Verb on their floor
// (Phase) in Round; Target for a Report, Suspect, Vouch or WillNominate,
// Role for a Claim, Result for a Report, Guess for a BestMove.
type Statement struct {
	Round  uint16
	Phase  Phase
	By     Seat
	Verb   Verb
	Target Seat
	Role   Role
	Result Result
	Guess  SeatSet
}

// Talk is the public record of a game's statements, in the order they were
// made (so by round): every seat's view carries the same one. It is a
// window on an append-only log that the game, its clones and its views
// share: what it holds never changes, and a game that appends where another
// holder has appended already copies its own part first, so a Talk taken
// from a game stays valid while that game goes on (but not after Start,
// which reuses the log for the next game). Read it with Len and At, a day
// of it with Day; Equal compares two by what they hold.
type Talk struct {
	log    *talkLog
	lo, hi int32
}

// talkLog is the storage of Talks: entries are only ever appended.
type talkLog struct {
	entries []Statement
}

// Len returns the number of statements.
func (t Talk) Len() int { return int(t.hi - t.lo) }

// At returns the i-th statement (from 0).
func (t Talk) At(i int) Statement {
	if i < 0 || i >= t.Len() {
		panic("engine: Talk.At out of range")
	}
	return t.log.entries[int(t.lo)+i]
}

// Day returns the statements made in round r (its last words after the
// night, its speeches, defences and tie speeches, and the last words after
// its vote).
func (t Talk) Day(r int) Talk {
	n, lo := t.Len(), 0
	for lo < n && int(t.At(lo).Round) < r {
		lo++
	}
	hi := lo
	for hi < n && int(t.At(hi).Round) == r {
		hi++
	}
	return Talk{log: t.log, lo: t.lo + int32(lo), hi: t.lo + int32(hi)}
}

// Equal reports whether two records hold the same statements.
func (t Talk) Equal(o Talk) bool {
	if t.Len() != o.Len() {
		return false
	}
	for i := 0; i < t.Len(); i++ {
		if t.At(i) != o.At(i) {
			return false
		}
	}
	return true
}

// with returns the record with s added at its end: in place when the log
// ends where t does, else in a log of its own.
func (t Talk) with(s Statement) Talk {
	if t.log == nil {
		t.log = &talkLog{}
	}
	if t.lo != 0 || int(t.hi) != len(t.log.entries) {
		own := &talkLog{entries: make([]Statement, t.Len(), t.Len()+8)}
		copy(own.entries, t.log.entries[t.lo:t.hi])
		t = Talk{log: own, hi: int32(t.Len())}
	}
	t.log.entries = append(t.log.entries, s)
	t.hi++
	return t
}

// reset returns an empty record that reuses t's log for a new game.
func (t Talk) reset() Talk {
	if t.log != nil {
		t.log.entries = t.log.entries[:0]
	}
	return Talk{log: t.log}
}

// Statement returns the statement an EvStatement records.
func (e *Event) Statement() Statement {
	st := Statement{Round: e.Round, Phase: e.Phase, By: e.Actor, Verb: e.Verb, Target: e.Target, Role: e.Role, Result: e.Result}
	if e.Verb == BestMove {
		st.Guess = e.Set
	}
	return st
}

// GuessSize is how many seats a best move names: the three mafia of the
// club's rule (docs/club.md).
const GuessSize = 3

// firstVictim reports whether seat s is one of the first night's victims
// (the first night anyone was killed, before anyone left otherwise), in its
// last words: who may make a best move. n is the table's size, victims the
// last morning's, dead how many have left the game.
func firstVictim(phase Phase, speaker, s Seat, victims SeatSet, dead int) bool {
	return phase == PhaseLastWords && speaker == s && victims.Has(s) && dead == victims.Len()
}

// madeBestMove reports whether seat s has made its best move in talk.
func madeBestMove(t Talk, s Seat) bool {
	for i := t.Len() - 1; i >= 0; i-- {
		if st := t.At(i); st.Verb == BestMove && st.By == s {
			return true
		}
	}
	return false
}

// checkBestMove validates a best move on the speaker's floor: the first
// night's victim's, once, naming GuessSize seats of the table other than
// their own.
func (g *Game) checkBestMove(c *Command) error {
	if !firstVictim(g.phase, g.speaker, c.By, g.victims, int(g.n)-g.alive.Len()) {
		return &Error{Code: CodeNoBestMove, Seat: c.By}
	}
	if madeBestMove(g.talk, c.By) {
		return &Error{Code: CodeBestMoveMade, Seat: c.By}
	}
	if c.Guess.Len() != GuessSize || c.Guess.Has(c.By) || c.Guess.Has(0) || c.Guess&^allSeats(int(g.n)) != 0 {
		return &Error{Code: CodeBadGuess, Seat: c.By, N: GuessSize}
	}
	return nil
}

// DetectiveAnswer is what the Detective's check of a player of team t
// shows under these rules: mafia for the mafia; for the maniac as
// maniac_check says; not mafia for the town (and for no team).
func (rs Ruleset) DetectiveAnswer(t Team) Result {
	switch t {
	case TeamMafia:
		return ResultMafia
	case TeamManiac:
		switch rs.ManiacCheck {
		case ManiacShowsMafia:
			return ResultMafia
		case ManiacShowsManiac:
			return ResultManiac
		}
	}
	return ResultNotMafia
}

// Reportable reports whether r is an answer a player may report of a check
// under these rules: the Detective's answers (mafia, not mafia, and the
// maniac under maniac_check=maniac). The Don's answers are his alone: no
// player reports them.
func (rs Ruleset) Reportable(r Result) bool {
	switch r {
	case ResultMafia, ResultNotMafia:
		return true
	case ResultManiac:
		return rs.ManiacCheck == ManiacShowsManiac
	}
	return false
}

// Claimable reports whether r is a card a player may claim: any card of the
// game's rules (docs/rules.md: "any role may accuse any other role"; the
// engine never limits what a player says of himself).
func Claimable(r Role) bool { return r > RoleNone && r < numRoles }

// checkStatement validates a statement: on the speaker's own floor, within
// the floor's limit, about a real seat (and, for a nomination to come, a
// living one), not about oneself where that makes no sense.
func (g *Game) checkStatement(c *Command) error {
	if !g.phase.Timed() {
		return &Error{Code: CodeWrongPhase, Phase: g.phase}
	}
	if c.By != g.speaker {
		return &Error{Code: CodeNotSpeaker, Seat: c.By}
	}
	if g.said >= StatementsPerFloor {
		return &Error{Code: CodeTooManyStatements, Seat: c.By, N: StatementsPerFloor}
	}
	switch c.Verb {
	case BestMove:
		return g.checkBestMove(c)
	case Claim:
		if !Claimable(c.Role) {
			return &Error{Code: CodeBadClaim, Seat: c.By}
		}
		return nil
	case WillNominate:
		if c.Target == c.By {
			return &Error{Code: CodeNominateSelf, Seat: c.By}
		}
		if err := g.target(c); err != nil {
			return err
		}
		return nil
	}
	if !g.seatOK(c.Target) {
		return &Error{Code: CodeNoSuchSeat, Seat: c.Target, N: int(g.n)}
	}
	if c.Target == c.By {
		switch c.Verb {
		case Report:
			return &Error{Code: CodeReportSelf, Seat: c.By}
		case Suspect:
			return &Error{Code: CodeSuspectSelf, Seat: c.By}
		}
		return &Error{Code: CodeVouchSelf, Seat: c.By}
	}
	if c.Verb == Report && !g.rules.Reportable(c.Result) {
		return &Error{Code: CodeBadResult, Seat: c.By}
	}
	return nil
}

// say records an accepted statement, with only the fields its verb uses.
func (g *Game) say(c *Command) {
	e := g.push(EvStatement)
	e.Phase, e.Actor, e.Verb = g.phase, c.By, c.Verb
	switch c.Verb {
	case Claim:
		e.Role = c.Role
	case Report:
		e.Target, e.Result = c.Target, c.Result
	case BestMove:
		e.Set = c.Guess
	default:
		e.Target = c.Target
	}
	g.apply(e)
}
