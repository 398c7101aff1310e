package bot

import "mafia/engine"

// This file is the Expert bot's talk: its statements on its own floor (the
// Detective's claim and reports, opinions from its belief) and the rule
// that it never contradicts itself within a day: a seat it accused today
// (suspect, will_nominate, a "mafia" report) it does not clear today
// (vouch, a "not mafia" report), and the other way round; and it never
// reports a seat twice (its story holds across days).

// The thresholds of its opinions.
const (
	expSureOf       = 0.55 // belief above which a nomination is said beforehand
	expSuspectX     = 1.4  // a suspicion: this many times the prior at least
	expSuspectLo    = 0.3  // and at least this belief
	expSuspectMafia = 1.15 // a mafioso's suspicion: this many times the town's prior
	expTrustHi      = 0.22 // a claimant believed below this belief is vouched for
	expLineSure     = 0.5  // a line accuses a seat its statements did not only above this belief
)

// expertTalk is what the bot said: today's, for the no-contradiction rule,
// and the game's.
type expertTalk struct {
	accused  engine.SeatSet // today: suspected, will_nominate, reported mafia
	cleared  engine.SeatSet // today: vouched, reported not mafia
	suspDay  engine.SeatSet // today: suspected
	willNom  engine.Seat    // today's will_nominate
	vouched  engine.SeatSet // the game's vouches
	reported engine.SeatSet // the game's reports (one each)
	repBad   engine.SeatSet // the game's "mafia" reports: never cleared after
	lnAcc    engine.SeatSet // today: accused by its lines alone
	lnClr    engine.SeatSet // today: cleared by its lines alone
	claimed  bool
}

// newDay forgets yesterday's opinions.
func (t *expertTalk) newDay() {
	t.accused, t.cleared, t.suspDay, t.willNom = 0, 0, 0, 0
	t.lnAcc, t.lnClr = 0, 0
}

// mine records a statement of the bot's own.
func (b *Expert) mine(c engine.Command) {
	t := &b.talk
	switch c.Verb {
	case engine.Claim:
		if c.Role == engine.Detective {
			t.claimed = true
		}
	case engine.Report:
		t.reported = t.reported.With(c.Target)
		if c.Result == engine.ResultNotMafia {
			t.cleared = t.cleared.With(c.Target)
		} else {
			t.accused, t.repBad = t.accused.With(c.Target), t.repBad.With(c.Target)
		}
		b.lie.story[c.Target] = c.Result
	case engine.Suspect:
		t.accused, t.suspDay = t.accused.With(c.Target), t.suspDay.With(c.Target)
	case engine.WillNominate:
		t.accused, t.willNom = t.accused.With(c.Target), c.Target
	case engine.Vouch:
		t.cleared, t.vouched = t.cleared.With(c.Target), t.vouched.With(c.Target)
	case engine.BestMove:
		t.accused |= c.Guess
	}
}

// mayAccuse and mayClear say whether the bot may accuse or clear s today
// without contradicting itself.
func (b *Expert) mayAccuse(s engine.Seat) bool { return !b.talk.cleared.Has(s) && !b.team.Has(s) }
func (b *Expert) mayClear(s engine.Seat) bool {
	return !b.talk.accused.Has(s) && !b.talk.repBad.Has(s)
}

// spokeLine records what an opinion line accuses or clears. Lines keep a
// record of their own, which only later lines read: asking for lines never
// changes a statement or a move (a line takes a stance only where the
// statements may follow: its belief's).
func (b *Expert) spokeLine(l Line) {
	switch l.Kind {
	case LineSuspect, LineLiar, LineVoteOut, LineWillNominate, LineVotedFor, LineMyCheck:
		b.talk.lnAcc = b.talk.lnAcc.With(l.Seat)
	case LineBelieve, LineTrust:
		b.talk.lnClr = b.talk.lnClr.With(l.Seat)
	}
}

// lineAccuse and lineClear say whether a line may accuse or clear s today.
// A line clears only a seat its statements cleared today, and accuses only
// a seat its statements accused or one it believes bad more likely than
// not: its statements, which never read its lines, then never contradict
// them (a vouch needs a belief far below).
func (b *Expert) lineAccuse(s engine.Seat) bool {
	return b.mayAccuse(s) && !b.talk.lnClr.Has(s) && (b.talk.accused.Has(s) || b.belief(s) >= expLineSure)
}
func (b *Expert) lineClear(s engine.Seat) bool {
	return b.mayClear(s) && !b.talk.lnAcc.Has(s) && b.talk.cleared.Has(s)
}

// statement is what the bot says next on its floor, if anything; the
// command is recorded as said (the engine accepts what its view offers).
func (b *Expert) statement(v *engine.View) (engine.Command, bool) {
	if b.mute || !v.Can(engine.Claim) {
		return engine.Command{}, false
	}
	c, ok := b.nextStatement(v)
	if ok {
		b.mine(c)
	}
	return c, ok
}

func (b *Expert) nextStatement(v *engine.View) (engine.Command, bool) {
	if c, ok := b.bestMove(v); ok {
		return c, true
	}
	if b.role == engine.Detective {
		if c, ok := b.detectiveTalk(v); ok {
			return c, true
		}
	}
	if b.mafia() {
		if c, ok := b.lie.statement(b, v); ok {
			return c, true
		}
	}
	return b.opinion(v)
}

// bestMove is the first night's victim's best move, first on its last
// words' floor when the engine offers it (v.Can): the three living seats
// it most believes to be the mafia's (the Don and the mafiosi, whom a best
// move counts; its worlds, what it alone knows on top: its card, the
// Detective's checks), none it cleared today; a mafioso names the seats
// the town's eyes suspect most, never a partner. It reads only its view and
// its models, so the hidden cards its view does not show cannot change it;
// equal beliefs go by the bot's own seeded draw.
func (b *Expert) bestMove(v *engine.View) (engine.Command, bool) {
	if !v.Can(engine.BestMove) {
		return engine.Command{}, false
	}
	score := b.belief
	if b.mafia() {
		score = b.pubBad
	}
	set := v.Alive.Without(v.Seat) &^ b.team
	for m := set; m != 0; {
		s := m.First()
		m = m.Without(s)
		if !b.mayAccuse(s) {
			set = set.Without(s)
		}
	}
	var guess engine.SeatSet
	for i := 0; i < engine.GuessSize; i++ {
		top := b.best(set, score)
		if top == 0 {
			return engine.Command{}, false
		}
		guess, set = guess.With(top), set.Without(top)
	}
	return engine.Command{Verb: engine.BestMove, By: v.Seat, Guess: guess}, true
}

// detectiveTalk: the real Detective claims at once when someone else
// claimed the card, when it found a bad seat alive, or in its last words;
// then it reports every check, the bad ones first.
func (b *Expert) detectiveTalk(v *engine.View) (engine.Command, bool) {
	me := v.Seat
	if !b.talk.claimed {
		found := false
		for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
			if (v.Checks[s] == engine.ResultMafia || v.Checks[s] == engine.ResultManiac) && v.Alive.Has(s) {
				found = true
			}
		}
		if !found && b.claimers.Without(me) == 0 && v.Phase != engine.PhaseLastWords {
			return engine.Command{}, false
		}
		return engine.Command{Verb: engine.Claim, By: me, Role: engine.Detective}, true
	}
	targets := v.Targets(engine.Report)
	for _, bad := range [2]bool{true, false} {
		for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
			r := v.Checks[s]
			if r == engine.ResultNone || b.talk.reported.Has(s) || !targets.Has(s) || !v.Rules.Reportable(r) {
				continue
			}
			if (r != engine.ResultNotMafia) != bad {
				continue
			}
			if bad && !b.mayAccuse(s) || !bad && !b.mayClear(s) {
				continue
			}
			return engine.Command{Verb: engine.Report, By: me, Target: s, Result: r}, true
		}
	}
	return engine.Command{}, false
}

// opinion is the opinion the bot states next on its floor, if any: at most
// one of each verb a floor, each for a reason of its own (its belief).
func (b *Expert) opinion(v *engine.View) (engine.Command, bool) {
	me := v.Seat
	others := v.Alive.Without(me) &^ b.team
	say := func(verb engine.Verb, t engine.Seat) (engine.Command, bool) {
		if t == 0 || t == me || floorSaid(v, verb) || !v.Targets(verb).Has(t) || b.team.Has(t) {
			return engine.Command{}, false
		}
		return engine.Command{Verb: verb, By: me, Target: t}, true
	}
	prior := b.prior()
	switch v.Phase {
	case engine.PhaseSpeech:
		if !v.Nominated && b.talk.willNom == 0 {
			if t := b.nominee(v); t != 0 && b.mayAccuse(t) && (b.belief(t) >= expSureOf || b.mafia() && b.Src.Intn(2) == 0) {
				if c, ok := say(engine.WillNominate, t); ok {
					return c, true
				}
			}
		}
		if t := b.best(others&^b.talk.suspDay, b.belief); t != 0 && b.mayAccuse(t) && b.suspicious(t, prior) {
			if c, ok := say(engine.Suspect, t); ok {
				return c, true
			}
		}
		if t := b.trusted(others); t != 0 {
			if c, ok := say(engine.Vouch, t); ok {
				return c, true
			}
		}
	case engine.PhaseDefence, engine.PhaseTieSpeech:
		if t := b.best(b.candidates()&others&^b.talk.suspDay, b.belief); t != 0 && b.mayAccuse(t) && b.belief(t) >= prior {
			return say(engine.Suspect, t)
		}
	case engine.PhaseLastWords:
		if t := b.best(others&^b.talk.suspDay, b.belief); t != 0 && b.mayAccuse(t) && b.belief(t) >= prior*expSuspectX {
			return say(engine.Suspect, t)
		}
	}
	return engine.Command{}, false
}

// suspicious reports whether the bot says it suspects t: a belief well
// above the prior (a mafioso, who ranks by the town's eyes, where the
// town's own beliefs would be: its public model leaves the maniac out, so
// its beliefs run lower).
func (b *Expert) suspicious(t engine.Seat, prior float32) bool {
	x := b.belief(t)
	if b.mafia() {
		return x >= prior*expSuspectMafia
	}
	return x >= expSuspectLo && x >= prior*expSuspectX
}

// trusted is a seat of set the bot vouches for, once a game: a claimant it
// believes (the Detective, a seat its check cleared).
func (b *Expert) trusted(set engine.SeatSet) engine.Seat {
	set &^= b.talk.vouched
	for m := set & b.claimers; m != 0; {
		s := m.First()
		m = m.Without(s)
		if b.belief(s) <= expTrustHi && b.mayClear(s) {
			return s
		}
	}
	if b.role == engine.Detective && b.talk.claimed {
		for m := set; m != 0; {
			s := m.First()
			m = m.Without(s)
			if b.own.pBad(s) == 0 && b.mayClear(s) && b.talk.reported.Has(s) {
				return s
			}
		}
	}
	return 0
}
