package engine

// Game is one game's whole state. Only apply changes it; Handle validates a
// command and emits the events that apply folds in. A Game is not safe for
// use by several goroutines at once (one room owns it).
type Game struct {
	state
	talk Talk    // every statement so far, public (out of state: it is compared by what it holds)
	out  []Event // the events of the last call, reused between calls
}

// state is everything a game knows; it is comparable, so that a replayed game
// can be checked equal to the live one.
type state struct {
	rules Ruleset
	seed  uint64
	n     uint8
	roles [MaxSeats + 1]Role
	mafia SeatSet // the mafia's team, fixed at the deal
	don   Seat
	det   Seat
	doc   Seat
	man   Seat

	alive   SeatSet
	phase   Phase
	round   uint16
	step    uint32 // public events that began a step so far (see BeginsStep)
	speaker Seat
	winner  Winner

	fouls      [MaxSeats + 1]uint8
	lostSpeech SeatSet
	shownRole  [MaxSeats + 1]Role // what everyone knows of the dead (reveal_on_death, game end)
	// teamsOf[0] is what everyone knows of the teams (as shownRole);
	// teamsOf[1] what the mafia know: the same with every mafia seat's
	// TeamMafia (MoveViewInto copies one or the other, with no branch).
	teamsOf [2][MaxSeats + 1]Team

	// the night
	mafiaChoice [MaxSeats + 1]Seat
	mafiaSeq    [MaxSeats + 1]uint8
	seq         uint8
	mafiaActed  SeatSet // named a victim or skipped tonight
	skipped     SeatSet
	checked     SeatSet // the Don and the detective, once they checked tonight
	donCheck    Seat    // whom the Don checked tonight
	detCheck    Seat    // whom the detective checked tonight
	shot        Seat
	heal        Seat
	healed      SeatSet // healed at some time this game
	lastHeal    Seat
	lastHealRnd uint16
	shotsLeft   uint8
	donKnows    [MaxSeats + 1]Result
	detKnows    [MaxSeats + 1]Result
	victims     SeatSet // the last morning's

	// the day
	dayStarted bool
	opener     Seat  // the seat today's speeches start from
	slot       Seat  // the last speech slot reached in today's round
	nominated  bool  // the current speaker has nominated in this speech (false in every other step)
	said       uint8 // statements the current speaker has made on this floor (0 in every other step)
	cand       [MaxSeats]Seat
	ncand      uint8
	candSet    SeatSet // the seats of cand[:ncand], for a membership test without a scan
	defended   SeatSet
	votes      [MaxSeats + 1]Seat
	voted      SeatSet
	yes        SeatSet
	lwQueue    SeatSet
	ballot     [MaxSeats + 1]Seat // the last closed vote, public
}

// New starts a game with a fixed deal (roles[0] is seat 1's card) under the
// given rules. seed is recorded with the deal (use the seed Setup.Deal was
// given, or 0 for a deal made by hand). It returns the game and its first
// events: GameStarted and the first NightBegan.
func New(rules Ruleset, roles []Role, seed uint64) (*Game, []Event, error) {
	g := new(Game)
	ev, err := g.Start(rules, roles, seed)
	if err != nil {
		return nil, nil, err
	}
	return g, ev, nil
}

// Start resets g to a new game, as New does, reusing its memory. The returned
// events are valid until the next call on g; so are the statements of the
// views taken before (Talk), whose log the new game reuses.
func (g *Game) Start(rules Ruleset, roles []Role, seed uint64) ([]Event, error) {
	if !rules.Valid() {
		return nil, &Error{Code: CodeBadOptionValue}
	}
	for _, r := range roles {
		if r == RoleNone || r >= numRoles {
			return nil, &Error{Code: CodeUnknownRole}
		}
	}
	setup := SetupOf(roles)
	if _, err := setup.Validate(); err != nil {
		return nil, err
	}
	if len(roles) != setup.Players() {
		return nil, &Error{Code: CodeUnknownRole}
	}
	// The events are made in place; GameStarted's fold resets the whole
	// state, so it is not cleared here first (it was: twice a game).
	g.out = g.out[:0]
	e := g.push(EvGameStarted)
	e.Round, e.Rules, e.Seed, e.Count = 0, rules, seed, uint8(len(roles))
	for i, r := range roles {
		e.PerSeat[i+1] = uint8(r)
	}
	g.apply(e)
	g.push(EvNightBegan).Round = 1
	g.applyLast()
	return g.out, nil
}

// emit folds an event into the state and records it in the output.
func (g *Game) emit(e Event) {
	g.out = append(g.out, e)
	p := &g.out[len(g.out)-1]
	if p.Round == 0 {
		p.Round = g.round
	}
	g.apply(p)
}

// push records a new event of kind k in the output, zero but for its kind
// and the current round, for the caller to fill in place and then fold in
// with apply: the hot paths' emit without building the event on the stack
// and copying it twice. The slice is resliced once and the event written
// whole at its index: a reslice in each branch of a test of the capacity
// made the compiler reload the slice and check the index again after it.
func (g *Game) push(k EventKind) *Event {
	n := len(g.out)
	if n == cap(g.out) {
		g.out = append(g.out, Event{})
	}
	g.out = g.out[:n+1]
	p := &g.out[n]
	*p = Event{Kind: k, Round: g.round}
	return p
}

// applyLast folds in the event push gave last.
func (g *Game) applyLast() { g.apply(&g.out[len(g.out)-1]) }

// emitTarget emits an event of kind k whose only field is its Target.
func (g *Game) emitTarget(k EventKind, t Seat) {
	g.push(k).Target = t
	g.applyLast()
}

// apply is the only place where a game's state changes (with the folds
// of one kind it calls, which the hot paths call straight after making
// their event: see applyMafiaChose below).
func (g *Game) apply(e *Event) {
	if e.Kind.BeginsStep() {
		g.beginStep()
	}
	switch e.Kind {
	case EvGameStarted:
		g.state = state{rules: e.Rules, seed: e.Seed, n: e.Count, shotsLeft: 2}
		g.talk = g.talk.reset()
		// Each seat's card is folded in by index, not by a switch: a deal
		// is in random order, so a switch's branches were mispredicted at
		// every seat of every game. who[r] is the last seat dealt r (a
		// valid deal has at most one Don, detective, doctor and maniac).
		var who [numRoles]Seat
		for s := Seat(1); s <= Seat(e.Count); s++ {
			r := Role(e.PerSeat[s])
			g.roles[s] = r
			if r < numRoles {
				who[r] = s
				g.mafia |= mafiaBit[r] << s
				g.teamsOf[1][s] = Team(mafiaBit[r]) * TeamMafia
			}
		}
		g.don, g.det, g.doc, g.man = who[Don], who[Detective], who[Doctor], who[Maniac]
		g.alive = allSeats(int(e.Count))
	case EvNightBegan:
		g.applyNightBegan(e)
	case EvMafiaChose:
		g.applyMafiaChose(e)
	case EvChecked:
		g.applyChecked(e)
	case EvHealed:
		g.applyHealed(e)
	case EvShot:
		g.applyShot(e)
	case EvSkipped:
		g.applySkipped(e)
	case EvNightEnded:
		g.applyNightEnded(e)
	case EvPlayerOut:
		g.applyPlayerOut(e)
	case EvLastWords:
		g.applyLastWords(e)
	case EvDayBegan:
		g.applyDayBegan(e)
	case EvSpeechSkipped:
		g.slot, g.speaker = e.Target, 0
		g.lostSpeech = g.lostSpeech.Without(e.Target)
	case EvSpeech:
		g.applySpeech(e)
	case EvNominated:
		g.applyNominated(e)
	case EvDefence:
		g.applyDefence(e)
	case EvVoteBegan:
		g.applyVoteBegan(e)
	case EvVoteCast:
		g.applyVoteCast(e)
	case EvVoteClosed:
		g.applyVoteClosed(e)
	case EvTie:
		g.ncand, g.candSet = e.Count, 0
		for i := uint8(0); i < e.Count; i++ {
			g.cand[i] = Seat(e.PerSeat[i])
			g.candSet = g.candSet.With(g.cand[i])
		}
		g.defended = 0
	case EvTieSpeech:
		g.applyTieSpeech(e)
	case EvAllVoteBegan:
		g.phase, g.speaker = PhaseAllVote, 0
		g.voted, g.yes = 0, 0
	case EvAllVoteCast:
		g.voted = g.voted.With(e.Actor)
		if e.Yes {
			g.yes = g.yes.With(e.Actor)
		}
	case EvStatement:
		g.talk = g.talk.with(e.Statement())
		g.said++
	case EvAllVoteClosed, EvNobodyLeaves, EvVoteMade:
	case EvFouled:
		g.fouls[e.Target] = e.Count
		if l := g.rules.FoulLimit; l >= 2 && e.Count == l-1 {
			g.lostSpeech = g.lostSpeech.With(e.Target)
		}
	case EvGameEnded:
		g.phase, g.speaker, g.winner = PhaseEnded, 0, e.Winner
		for s := Seat(1); s <= Seat(g.n); s++ {
			g.shownRole[s], g.teamsOf[0][s], g.teamsOf[1][s] = g.roles[s], g.roles[s].Team(), g.roles[s].Team()
		}
	}
}

// The folds of the kinds a bot's move makes most often, which begin no
// step: apply calls them, and so does exec, straight after making the event
// (push), without apply's test of the step and its switch on the kind (the
// flow does the same with a speech and a defence, below). The replay test
// pins the live game, folded so, to the same events folded by apply alone.

// beginStep is apply's fold of every event that begins a step (BeginsStep).
func (g *Game) beginStep() {
	g.step++
	// A nomination belongs to its speech: every step begins without one
	// (a speech of the next speaker, the defence, a vote, the night, the
	// end), so the view's Nominated holds only in the nominator's speech.
	// The statements of a floor are counted the same way.
	g.nominated, g.said = false, 0
}

func (g *Game) applyMafiaChose(e *Event) {
	g.mafiaChoice[e.Actor] = e.Target
	g.seq++
	g.mafiaSeq[e.Actor] = g.seq
	g.mafiaActed = g.mafiaActed.With(e.Actor)
}

func (g *Game) applyNominated(e *Event) {
	g.cand[g.ncand] = e.Target
	g.ncand++
	g.candSet = g.candSet.With(e.Target)
	g.nominated = true
}

func (g *Game) applyVoteCast(e *Event) {
	g.votes[e.Actor] = e.Target
	g.voted = g.voted.With(e.Actor)
}

// The folds of the flow's most frequent steps, a speech and a defence:
// each begins a step, so whoever calls one without apply calls beginStep
// first.

func (g *Game) applySpeech(e *Event) {
	g.phase, g.speaker, g.slot, g.nominated = PhaseSpeech, e.Target, e.Target, false
}

func (g *Game) applyDefence(e *Event) {
	g.phase, g.speaker = PhaseDefence, e.Target
	g.defended = g.defended.With(e.Target)
}

// The folds of the other kinds the flow and a bot's moves make, called as
// the ones above: by apply, and straight after the event is made (a kind
// that begins a step: beginStep first).

func (g *Game) applyNightBegan(e *Event) {
	g.phase, g.round, g.speaker = PhaseNight, e.Round, 0
	g.mafiaChoice, g.mafiaSeq = [MaxSeats + 1]Seat{}, [MaxSeats + 1]uint8{}
	g.seq, g.mafiaActed, g.skipped, g.checked = 0, 0, 0, 0
	g.donCheck, g.detCheck = 0, 0
	g.shot, g.heal = 0, 0
	g.dayStarted, g.ncand, g.candSet, g.defended = false, 0, 0, 0
}

func (g *Game) applyChecked(e *Event) {
	g.checked = g.checked.With(e.Actor)
	if e.Actor == g.don {
		g.donKnows[e.Target], g.donCheck = e.Result, e.Target
	} else {
		g.detKnows[e.Target], g.detCheck = e.Result, e.Target
	}
}

func (g *Game) applyHealed(e *Event) {
	g.heal = e.Target
	g.healed = g.healed.With(e.Target)
	g.lastHeal, g.lastHealRnd = e.Target, g.round
}

func (g *Game) applyShot(e *Event) {
	g.shot = e.Target
	g.shotsLeft--
}

func (g *Game) applySkipped(e *Event) {
	g.skipped = g.skipped.With(e.Actor)
	if g.mafia.Has(e.Actor) && !g.mafiaActed.Has(e.Actor) {
		g.mafiaChoice[e.Actor] = 0
		g.mafiaActed = g.mafiaActed.With(e.Actor)
	}
}

func (g *Game) applyNightEnded(e *Event) {
	g.victims = e.Set
}

func (g *Game) applyPlayerOut(e *Event) {
	g.alive = g.alive.Without(e.Target)
	g.lostSpeech = g.lostSpeech.Without(e.Target)
	g.shownRole[e.Target], g.teamsOf[0][e.Target] = e.Role, e.Team
	if !g.mafia.Has(e.Target) {
		g.teamsOf[1][e.Target] = e.Team // a mafia seat's stays TeamMafia for the mafia
	}
	g.dropCandidate(e.Target)
	if e.Cause != CauseFouls && g.rules.LastWords == LastWordsOn {
		g.lwQueue = g.lwQueue.With(e.Target)
	}
}

func (g *Game) applyLastWords(e *Event) {
	g.phase, g.speaker = PhaseLastWords, e.Target
	g.lwQueue = g.lwQueue.Without(e.Target)
}

func (g *Game) applyDayBegan(e *Event) {
	g.phase, g.speaker = PhaseSpeech, 0
	g.dayStarted, g.opener, g.slot = true, e.Actor, 0
	g.ncand, g.candSet, g.defended = 0, 0, 0
}

func (g *Game) applyVoteBegan(e *Event) {
	g.phase, g.speaker = e.Phase, 0
	g.votes, g.voted = [MaxSeats + 1]Seat{}, 0
}

func (g *Game) applyVoteClosed(e *Event) {
	// Three words of eight seats (the last two overlap), not 21 bytes one
	// by one: the ballot's seats are its bytes.
	p, b := &e.PerSeat, &g.ballot
	copy8((*[8]Seat)(b[0:8]), (*[8]uint8)(p[0:8]))
	copy8((*[8]Seat)(b[8:16]), (*[8]uint8)(p[8:16]))
	copy8((*[8]Seat)(b[len(b)-8:]), (*[8]uint8)(p[len(p)-8:]))
}

// copy8 copies eight bytes as seats, in one load and one store.
func copy8(dst *[8]Seat, src *[8]uint8) {
	w := uint64(src[0]) | uint64(src[1])<<8 | uint64(src[2])<<16 | uint64(src[3])<<24 |
		uint64(src[4])<<32 | uint64(src[5])<<40 | uint64(src[6])<<48 | uint64(src[7])<<56
	dst[0], dst[1], dst[2], dst[3] = Seat(w), Seat(w>>8), Seat(w>>16), Seat(w>>24)
	dst[4], dst[5], dst[6], dst[7] = Seat(w>>32), Seat(w>>40), Seat(w>>48), Seat(w>>56)
}

func (g *Game) applyTieSpeech(e *Event) {
	g.phase, g.speaker = PhaseTieSpeech, e.Target
	g.defended = g.defended.With(e.Target)
}

// dropCandidate withdraws a player who left the game from today's candidates.
func (g *Game) dropCandidate(s Seat) {
	if !g.candSet.Has(s) {
		return
	}
	j := uint8(0)
	for i := uint8(0); i < g.ncand; i++ {
		if g.cand[i] != s {
			g.cand[j] = g.cand[i]
			j++
		}
	}
	g.ncand = j
	g.candSet = g.candSet.Without(s)
}

func (g *Game) isCandidate(s Seat) bool { return g.candSet.Has(s) }

// Players returns the number of seats.
func (g *Game) Players() int { return int(g.n) }

// Rules returns the game's ruleset.
func (g *Game) Rules() Ruleset { return g.rules }

// Phase returns the current step.
func (g *Game) Phase() Phase { return g.phase }

// Round returns the round: N for night N and the day after it.
func (g *Game) Round() int { return int(g.round) }

// Step returns the number of the current step: how many events that begin
// a step (EventKind.BeginsStep) the game has had, 1 on night 1. It changes
// whenever the step changes and only then, and it counts public events
// only, so it is the same for every seat and says nothing about the night.
// A client names it in a command, so that a command meant for one step is
// never applied to a later one (a vote sent for the vote, arriving in the
// revote).
func (g *Game) Step() int { return int(g.step) }

// Speaker returns the seat whose speech, defence, tie speech or last words
// it is, or 0.
func (g *Game) Speaker() Seat { return g.speaker }

// Alive returns the living seats.
func (g *Game) Alive() SeatSet { return g.alive }

// Winner returns the result, or WinnerNone while the game goes on.
func (g *Game) Winner() Winner { return g.winner }

// Ended reports whether the game is over.
func (g *Game) Ended() bool { return g.phase == PhaseEnded }

// Candidates returns today's candidates in nomination order (in a revote or
// all-vote: the tied ones).
func (g *Game) Candidates() []Seat {
	out := make([]Seat, g.ncand)
	copy(out, g.cand[:g.ncand])
	return out
}

// Role returns a seat's card. It is a secret: for the host and the record,
// never for another seat (players get views).
func (g *Game) Role(s Seat) Role {
	if s == 0 || s > Seat(g.n) {
		return RoleNone
	}
	return g.roles[s]
}

// Seed returns the seed recorded with the deal.
func (g *Game) Seed() uint64 { return g.seed }

// Fouls returns a seat's fouls.
func (g *Game) Fouls(s Seat) int {
	if s > Seat(g.n) {
		return 0
	}
	return int(g.fouls[s])
}

// Clone returns an independent copy of the game (its output buffer is not shared).
func (g *Game) Clone() *Game {
	c := *g
	c.out = nil
	return &c
}

// Equal reports whether two games are in the same state.
func (g *Game) Equal(o *Game) bool {
	return g.state == o.state && g.talk.Equal(o.talk)
}
