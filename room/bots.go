package room

// This file is the server's bots at their turns: which bot acts now, what
// it does in a turn (on its own floor: its lines and statements, then its
// move), and its turns on the clock when the table is paced (pace.go).

import (
	"mafia/bot"
	"mafia/engine"
)

// botTurn returns a bot seat with something to do now, or 0.
func (r *Room) botTurn() engine.Seat {
	g := r.game
	for s := 1; s < len(r.seats); s++ {
		seat := engine.Seat(s)
		if r.bots[s] == nil || r.botDone.Has(seat) {
			continue
		}
		if g.MayAct(seat) || (g.Phase().Timed() && g.Speaker() == seat) || r.nightTalker(seat) {
			return seat
		}
	}
	return 0
}

// botStep lets one bot act once; false when no bot has anything to do.
func (r *Room) botStep() bool {
	s := r.botTurn()
	if s == 0 {
		return false
	}
	r.botAct(s)
	return true
}

// botAct lets a bot take its turn: act from its view (on its own floor:
// its lines and statements, then its move; a mafia bot at night: its lines
// in the mafia's chat, then its move), and end its own speech. At human
// pace a turn on its floor is one line or one statement while the floor's
// time allows another turn (the next comes after a gap, botWait), else all
// that is left at once.
func (r *Room) botAct(s engine.Seat) {
	g := r.game
	step := r.step
	if g.Phase() == engine.PhaseNight {
		r.nightTalk(s) // a mafia bot's lines before each of its night commands
	}
	floor := g.Phase().Timed() && g.Speaker() == s
	spread := floor && r.humanPace() && r.turnsLeft()
	if g.MayAct(s) || floor {
		for i := 0; i <= engine.StatementsPerFloor+bot.MaxLines && r.step == step && !g.Ended(); i++ {
			if floor && r.botSays(s) {
				if spread {
					r.botBegun = r.botBegun.With(s)
					return // its next item after a gap
				}
				continue
			}
			g.ViewInto(&r.view, s)
			cmd, ok := r.bots[s].Act(&r.view)
			if !ok || r.apply(cmd) != nil {
				r.botDone = r.botDone.With(s)
				break
			}
			if !cmd.Verb.IsStatement() {
				break // one move a turn, after the statements
			}
			if spread && r.step == step {
				r.botBegun = r.botBegun.With(s)
				return
			}
		}
	}
	if r.step == step && !g.Ended() && g.Phase().Timed() && g.Speaker() == s {
		if r.apply(engine.Command{Verb: engine.Pass, By: s}) != nil {
			r.botDone = r.botDone.With(s)
		}
	} else if r.step == step && !g.MayAct(s) {
		r.botDone = r.botDone.With(s)
	}
}

// scheduleBots gives each bot with something to do a turn after its wait
// (botWait: the bot delay, the pace), always before the step's deadline.
func (r *Room) scheduleBots() {
	g := r.game
	for s := 1; s < len(r.seats); s++ {
		seat := engine.Seat(s)
		if r.bots[s] == nil || r.botDone.Has(seat) || r.botQueued.Has(seat) {
			continue
		}
		if !(g.MayAct(seat) || (g.Phase().Timed() && g.Speaker() == seat) || r.nightTalker(seat)) {
			continue
		}
		r.botQueued = r.botQueued.With(seat)
		step := r.step
		r.turnGen[s]++
		gen := r.turnGen[s]
		r.turns[s] = r.later(r.botWait(seat), func() {
			if r.step != step || r.paused || r.game.Ended() || r.turnGen[seat] != gen || r.bots[seat] == nil {
				return
			}
			r.turns[seat] = nil
			r.botQueued = r.botQueued.Without(seat)
			r.botAct(seat)
			r.settle()
		})
		r.timers = append(r.timers, r.turns[s])
	}
}

// cancelTurn calls off seat s's scheduled bot turn, if it has one: it does
// nothing, even if its time has come already.
func (r *Room) cancelTurn(s engine.Seat) {
	if int(s) >= len(r.turns) {
		return
	}
	r.turnGen[s]++
	stopTimer(&r.turns[s])
	r.botQueued = r.botQueued.Without(s)
}
