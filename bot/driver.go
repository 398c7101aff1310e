package bot

import "mafia/engine"

// Table plays a game with one bot per seat, the way a host and a clock
// would: in each step every seat that may act is asked once (a seat with two
// night actions, the Don, is asked again while it still acts; a speaker
// again after each statement), the holder of a floor with no move (a
// defence, a tie speech, last words) is asked while it makes statements
// (not the random bot, which makes none), then the step ends with Next. It is the simulator's and the tests' driver; it allocates
// nothing per step.
//
// Table is the only part of this package that holds the Game. What it hands
// a bot is the seat's view (Game.ViewInto; the random bot, the part of it a
// move's legality reads, Game.MoveViewInto, and by day the public part of
// that, Game.DayMoveViewInto) and, for a bot that is also an
// Observer, the events that seat may see as the engine redacts them for it
// (Game.EventFor); never the Game itself.
type Table struct {
	Game  *engine.Game
	Bots  []Bot // index 0 unused: Bots[s] plays seat s
	view  engine.View
	moves engine.View    // the random bot's view at night: only Game.MoveViewInto fills it
	day   engine.View    // the random bot's view by day: only Game.DayMoveViewInto fills it
	cmd   engine.Command // the command ask got
	seen  []engine.Event // one seat's redacted copy of a batch, reused
	// observers are the bots that observe, noted by Begin.
	observers []observer
	// OnEvents, when set, is called with the events of every accepted command.
	OnEvents func(cmd engine.Command, evs []engine.Event)
	// OnRefused, when set, is called with every command a bot chose that the
	// engine refused (a bot deciding from its view should never see one).
	OnRefused func(cmd engine.Command, err error)
	// OnLine, when set, makes the Table ask every Speaker for its lines, as
	// a server does (line.go: on its own floor before each of its commands,
	// at night before each of its night commands — a mafioso's night chat —,
	// and once after the end), and is called with each line. Unset (the
	// simulator), no bot is asked for a line.
	OnLine    func(s engine.Seat, l Line)
	farewells bool // the Speakers were asked after the end
}

type observer struct {
	seat engine.Seat
	bot  Observer
}

// maxActsPerStep bounds how often one seat is asked within a step: every
// statement a floor allows, and a move.
const maxActsPerStep = engine.StatementsPerFloor + 2

// Commands given to the Game by anyone but the Table (a test throwing
// commands in from OnEvents) are not shown to the bots.

// Begin shows the game's first events (those Game.Start returned: the deal
// and the first night) to every observing bot, and notes which bots
// observe: call it once after Start (and after any change to Bots), before
// the first Step; Step shows every later event itself. Without Begin no bot
// is shown events.
func (t *Table) Begin(evs []engine.Event) {
	t.observers, t.farewells = t.observers[:0], false
	for s := 1; s < len(t.Bots); s++ {
		if o, ok := t.Bots[s].(Observer); ok {
			t.observers = append(t.observers, observer{engine.Seat(s), o})
		}
	}
	t.observe(evs)
}

// Show gives every observing bot (noted by Begin) the events its seat may
// see of events that happened outside Step: a driver of its own (one that
// asks a person for some seats, as mafia play does) calls Begin once and
// Show after every accepted command. A nil bot is skipped.
func (t *Table) Show(evs []engine.Event) { t.observe(evs) }

// Add puts b at seat s, from now on, in the middle of a game (a bot that
// stands in for a person, say): if it observes it is noted, and shown evs,
// the game so far, as its seat may see them (each event as Show would
// show it). The other bots are shown nothing.
func (t *Table) Add(s engine.Seat, b Bot, evs []engine.Event) {
	t.Remove(s)
	t.Bots[s] = b
	o, ok := b.(Observer)
	if !ok {
		return
	}
	t.observers = append(t.observers, observer{s, o})
	kept := t.observers
	t.observers = kept[len(kept)-1:]
	t.observe(evs)
	t.observers = kept
}

// Remove takes the bot at seat s away (its seat is played by someone else
// from now on): it is asked and shown nothing more.
func (t *Table) Remove(s engine.Seat) {
	t.Bots[s] = nil
	for i, o := range t.observers {
		if o.seat == s {
			t.observers = append(t.observers[:i], t.observers[i+1:]...)
			break
		}
	}
}

// sees reports whether seat s may see e, and whether it sees it as it is
// (not a redacted copy).
func (t *Table) sees(e *engine.Event, s engine.Seat) (sees, asIs bool) {
	switch e.Audience() {
	case engine.AudPublic:
		return true, true
	case engine.AudActor:
		return e.Actor == s, true
	}
	_, ok := t.Game.EventFor(*e, s)
	return ok, e.Audience() != engine.AudSeats
}

// observe gives every Observer among the bots the events its seat may see:
// the batch itself when the seat may see all of it as it is, else the
// engine's redacted copy of what it may see (Game.EventFor).
// It is small enough to be inlined: a table with no observer (the
// simulator's random bots) pays no call for it.
func (t *Table) observe(evs []engine.Event) {
	if len(evs) != 0 && len(t.observers) != 0 {
		t.show(evs)
	}
}

// show is observe's work.
func (t *Table) show(evs []engine.Event) {
	for _, o := range t.observers {
		all, none := true, true
		for i := range evs {
			vis, asIs := t.sees(&evs[i], o.seat)
			all = all && vis && asIs
			none = none && !vis
		}
		switch {
		case none:
		case all:
			o.bot.See(o.seat, evs)
		default:
			t.seen = t.seen[:0]
			for i := range evs {
				if e, ok := t.Game.EventFor(evs[i], o.seat); ok {
					t.seen = append(t.seen, e)
				}
			}
			o.bot.See(o.seat, t.seen)
		}
	}
}

// Step lets every seat that may act do so, then ends the step. It returns
// false once the game has ended (with OnLine set, the step that ends it asks
// every Speaker for its farewell).
func (t *Table) Step() bool {
	if t.step() {
		return true
	}
	if t.OnLine != nil && !t.farewells {
		t.farewells = true
		t.farewell()
	}
	return false
}

func (t *Table) step() bool {
	g := t.Game
	if g.Ended() {
		return false
	}
	for p := g.Pending(); p != 0; {
		s := p.First()
		p = p.Without(s)
		for i := 0; i < maxActsPerStep && (i == 0 || g.MayAct(s)); i++ {
			if t.OnLine != nil {
				t.speak(s)
			}
			if !t.ask(s) || !t.handle(&t.cmd) {
				break
			}
		}
		if g.Ended() {
			return false
		}
	}
	// The floor's holder whom no move waits for (a defence, a tie speech,
	// last words) may still make statements.
	// The random bot makes none (Random.Act is ok only in a move's step), so
	// no view is filled for it there.
	if s := g.Speaker(); s != 0 && g.Phase() != engine.PhaseSpeech && g.Phase().Timed() && t.Bots[s] != nil && !isRandom(t.Bots[s]) {
		for i := 0; i < maxActsPerStep; i++ {
			if t.OnLine != nil {
				t.speak(s)
			}
			if !t.ask(s) || !t.handle(&t.cmd) {
				break
			}
		}
		if g.Ended() {
			return false
		}
	}
	next := engine.Command{Verb: engine.Next}
	evs, err := g.Handle(next)
	if err == nil {
		t.observe(evs)
		if t.OnEvents != nil {
			t.OnEvents(next, evs)
		}
	}
	return !g.Ended()
}

// isRandom reports whether b is the random bot itself (not a type that
// embeds it and may act otherwise).
func isRandom(b Bot) bool {
	_, ok := b.(*Random)
	return ok
}

// speak lets seat s's bot, if it is a Speaker holding the floor, acting at
// night, or the game is over, say its lines now; only with OnLine set.
func (t *Table) speak(s engine.Seat) {
	if t.OnLine == nil {
		return
	}
	g := t.Game
	if !g.Ended() && g.Phase() != engine.PhaseNight && (g.Speaker() != s || !g.Phase().Timed()) {
		return
	}
	sp, ok := t.Bots[s].(Speaker)
	if !ok {
		return
	}
	for i := 0; i < MaxLines; i++ {
		g.ViewInto(&t.view, s)
		l, ok := sp.Speak(&t.view)
		if !ok {
			return
		}
		t.OnLine(s, l)
	}
}

// farewell asks every Speaker once after the end.
func (t *Table) farewell() {
	for s := 1; s < len(t.Bots); s++ {
		if t.Bots[s] != nil {
			t.speak(engine.Seat(s))
		}
	}
}

// ask fills seat s's view, asks its bot for its command and puts it in
// t.cmd; false when the bot does nothing now.
//
// The random bot decides from the fields a move's legality reads, so it
// is given a view of those alone (Game.MoveViewInto, a third of the copy)
// in t.moves, which nothing else fills: its other fields stay zero, and no
// seat's secret stays in it from another seat's fill. By day (its votes
// and nominations) it is given the public part of that alone
// (Game.DayMoveViewInto: no card, no secret to fill or to clear) in t.day,
// which nothing else fills either. It writes its command
// into t.cmd itself (Random.act): a Command returned by value is stored to
// the stack a field at a time and read back in wider loads, which stalls
// the processor on every decision of a simulated game.
func (t *Table) ask(s engine.Seat) bool {
	b := t.Bots[s]
	if r, ok := b.(*Random); ok {
		if t.Game.Phase() != engine.PhaseNight {
			t.Game.DayMoveViewInto(&t.day, s)
			return r.act(&t.day, &t.cmd)
		}
		t.Game.MoveViewInto(&t.moves, s)
		return r.act(&t.moves, &t.cmd)
	}
	t.Game.ViewInto(&t.view, s)
	cmd, ok := b.Act(&t.view)
	t.cmd = cmd
	return ok
}

// handle gives a bot's command to the game and shows its events; false
// when the engine refused it.
func (t *Table) handle(c *engine.Command) bool {
	// In place: a copy of *c is read in wider loads than the bot's writes,
	// the stall ask avoids.
	evs, err := t.Game.HandleCommand(c)
	if err != nil || t.OnEvents != nil {
		return t.handled(c, evs, err)
	}
	t.observe(evs)
	return true
}

// handled is handle's end for a refused command or with OnEvents set.
func (t *Table) handled(c *engine.Command, evs []engine.Event, err error) bool {
	cmd := *c
	if err != nil {
		if t.OnRefused != nil {
			t.OnRefused(cmd, err)
		}
		return false
	}
	t.observe(evs)
	if t.OnEvents != nil {
		t.OnEvents(cmd, evs)
	}
	return true
}

// Play runs the game to its end, or until maxSteps steps have passed (0: no
// limit), and reports whether it ended.
//
// It calls step itself, Step's work without Step's call at every step, and
// asks for the farewells (Step's end) once the game has ended.
func (t *Table) Play(maxSteps int) bool {
	for i := 0; maxSteps == 0 || i < maxSteps; i++ {
		if !t.step() {
			if t.OnLine != nil && !t.farewells {
				t.farewells = true
				t.farewell()
			}
			return true
		}
	}
	return t.Game.Ended()
}
