package bot

import "mafia/engine"

// Table plays a game with one bot per seat, the way a host and a clock
// would: in each step every seat that may act is asked once (a seat with two
// night actions, the Don, is asked again while it still acts), then the step
// ends with Next. It is the simulator's and the tests' driver; it allocates
// nothing per step.
//
// Table is the only part of this package that holds the Game. What it hands
// a bot is the seat's view (Game.ViewInto) and, for a bot that is also an
// Observer, the events that seat may see as the engine redacts them for it
// (Game.EventFor); never the Game itself.
type Table struct {
	Game *engine.Game
	Bots []Bot // index 0 unused: Bots[s] plays seat s
	view engine.View
	seen []engine.Event // one seat's redacted copy of a batch, reused
	// OnEvents, when set, is called with the events of every accepted command.
	OnEvents func(cmd engine.Command, evs []engine.Event)
	// OnRefused, when set, is called with every command a bot chose that the
	// engine refused (a bot deciding from its view should never see one).
	OnRefused func(cmd engine.Command, err error)
}

// maxActsPerStep bounds how often one seat is asked within a step.
const maxActsPerStep = 4

// Commands given to the Game by anyone but the Table (a test throwing
// commands in from OnEvents) are not shown to the bots.

// Begin shows the game's first events (those Game.Start returned: the deal
// and the first night) to every observing bot. Call it once after Start,
// before the first Step; Step shows every later event itself.
func (t *Table) Begin(evs []engine.Event) { t.observe(evs) }

// observe gives every Observer among the bots the events its seat may see.
func (t *Table) observe(evs []engine.Event) {
	if len(evs) == 0 {
		return
	}
	public := true
	for i := range evs {
		if evs[i].Audience() != engine.AudPublic {
			public = false
			break
		}
	}
	for s := 1; s < len(t.Bots); s++ {
		o, ok := t.Bots[s].(Observer)
		if !ok {
			continue
		}
		if public {
			// EventFor returns a public event as it is, to every seat.
			o.See(engine.Seat(s), evs)
			continue
		}
		t.seen = t.seen[:0]
		for i := range evs {
			if e, ok := t.Game.EventFor(evs[i], engine.Seat(s)); ok {
				t.seen = append(t.seen, e)
			}
		}
		if len(t.seen) > 0 {
			o.See(engine.Seat(s), t.seen)
		}
	}
}

// Step lets every seat that may act do so, then ends the step. It returns
// false once the game has ended.
func (t *Table) Step() bool {
	g := t.Game
	if g.Ended() {
		return false
	}
	for p := g.Pending(); p != 0; {
		s := p.First()
		p = p.Without(s)
		for i := 0; i < maxActsPerStep && (i == 0 || g.MayAct(s)); i++ {
			g.ViewInto(&t.view, s)
			cmd, ok := t.Bots[s].Act(&t.view)
			if !ok {
				break
			}
			evs, err := g.Handle(cmd)
			if err != nil {
				if t.OnRefused != nil {
					t.OnRefused(cmd, err)
				}
				break
			}
			t.observe(evs)
			if t.OnEvents != nil {
				t.OnEvents(cmd, evs)
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

// Play runs the game to its end, or until maxSteps steps have passed (0: no
// limit), and reports whether it ended.
func (t *Table) Play(maxSteps int) bool {
	for i := 0; maxSteps == 0 || i < maxSteps; i++ {
		if !t.Step() {
			return true
		}
	}
	return t.Game.Ended()
}
