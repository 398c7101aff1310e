package bot

import "mafia/engine"

// Table plays a game with one bot per seat, the way a host and a clock
// would: in each step every seat that may act is asked once (a seat with two
// night actions, the Don, is asked again while it still acts), then the step
// ends with Next. It is the simulator's and the tests' driver; it allocates
// nothing per step.
type Table struct {
	Game *engine.Game
	Bots []Bot // index 0 unused: Bots[s] plays seat s
	view engine.View
	// OnEvents, when set, is called with the events of every accepted command.
	OnEvents func(cmd engine.Command, evs []engine.Event)
}

// maxActsPerStep bounds how often one seat is asked within a step.
const maxActsPerStep = 4

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
				break
			}
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
	if err == nil && t.OnEvents != nil {
		t.OnEvents(next, evs)
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
