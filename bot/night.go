package bot

import "mafia/engine"

// This file is what the reasoning bots (Smart, Expert) share: the move of
// each step (planMove), at night the move each card makes (nightMove), and
// the mafia's night chat (nightChat).
// Each bot supplies its own choices (a nightPlanner); the order of the
// choices, and so of the random draws behind them, is the same for both.

// nightPlanner is what a reasoning bot chooses at night, card by card: each
// returns a seat of targets (0: none worth it, where that is allowed).
type nightPlanner interface {
	// donCheck is whom the Don checks, or 0 for nobody.
	donCheck(v *engine.View, targets engine.SeatSet) engine.Seat
	// victim is the mafia's victim this seat names.
	victim(v *engine.View, targets engine.SeatSet) engine.Seat
	// detCheck is whom the Detective checks among seats whose card he does
	// not know yet, or 0.
	detCheck(v *engine.View, unknown engine.SeatSet) engine.Seat
	// heal is whom the Doctor heals.
	heal(v *engine.View, targets engine.SeatSet) engine.Seat
	// shot is the Maniac's target.
	shot(v *engine.View, targets engine.SeatSet) engine.Seat
}

// dayPlanner is what a reasoning bot chooses by day.
type dayPlanner interface {
	// nominee is whom to nominate in one's own speech, or 0.
	nominee(v *engine.View) engine.Seat
	// ballot is whom to vote for, or 0 to abstain.
	ballot(v *engine.View) engine.Seat
	// allLeave answers "shall all of them leave?".
	allLeave(v *engine.View) bool
}

// planMove is the move of a seat holding role in this step, as p chooses
// it (its statements come first, from the bot itself).
func planMove(p interface {
	nightPlanner
	dayPlanner
}, role engine.Role, v *engine.View) (engine.Command, bool) {
	switch v.Phase {
	case engine.PhaseNight:
		return nightMove(p, role, v)
	case engine.PhaseSpeech:
		if t := p.nominee(v); t != 0 {
			return engine.Command{Verb: engine.Nominate, By: v.Seat, Target: t}, true
		}
	case engine.PhaseVote, engine.PhaseRevote:
		if t := p.ballot(v); t != 0 {
			return engine.Command{Verb: engine.Vote, By: v.Seat, Target: t}, true
		}
	case engine.PhaseAllVote:
		if v.Can(engine.AllVote) {
			return engine.Command{Verb: engine.AllVote, By: v.Seat, Yes: p.allLeave(v)}, true
		}
	}
	return engine.Command{}, false
}

// nightMove is the night action of a seat holding role, as p chooses it.
func nightMove(p nightPlanner, role engine.Role, v *engine.View) (engine.Command, bool) {
	me := v.Seat
	act := func(verb engine.Verb, t engine.Seat) (engine.Command, bool) {
		return engine.Command{Verb: verb, By: me, Target: t}, true
	}
	skip := func() (engine.Command, bool) {
		if v.Can(engine.Skip) {
			return engine.Command{Verb: engine.Skip, By: me}, true
		}
		return engine.Command{}, false
	}
	switch role {
	case engine.Don:
		if t := v.Targets(engine.Check); t != 0 {
			if c := p.donCheck(v, t); c != 0 {
				return act(engine.Check, c)
			}
		}
		if t := v.Targets(engine.Kill); t != 0 {
			return act(engine.Kill, p.victim(v, t))
		}
		if v.Targets(engine.Check) != 0 {
			return skip() // nobody worth a check, and the kill is named
		}
	case engine.Mafioso:
		if t := v.Targets(engine.Kill); t != 0 {
			return act(engine.Kill, p.victim(v, t))
		}
	case engine.Detective:
		if t := v.Targets(engine.Check); t != 0 {
			var known engine.SeatSet
			for s := engine.Seat(1); s <= engine.Seat(v.Players); s++ {
				if v.Checks[s] != engine.ResultNone || v.Teams[s] != engine.TeamNone {
					known = known.With(s)
				}
			}
			if c := p.detCheck(v, t&^known); c != 0 {
				return act(engine.Check, c)
			}
			return skip()
		}
	case engine.Doctor:
		if t := v.Targets(engine.Heal); t != 0 {
			return act(engine.Heal, p.heal(v, t))
		}
	case engine.Maniac:
		if t := v.Targets(engine.Shoot); t != 0 {
			return act(engine.Shoot, p.shot(v, t))
		}
	}
	return skip()
}

// nightChat is what a mafioso keeps of its lines in the mafia's night
// chat: at most two a night, the Don's check before he makes it, then the
// victim (agreed to, when a partner named the same).
type nightChat struct {
	round   uint16 // the night the counts below are of
	checked bool   // the Don said his check tonight
	victim  bool   // it named or agreed to tonight's victim
	said    uint8  // lines said tonight
}

// next is the mafioso's next night line as p chooses (role: its card; team:
// the mafia's seats), or false when it has nothing (more) to say tonight.
func (c *nightChat) next(p nightPlanner, role engine.Role, team engine.SeatSet, v *engine.View) (Line, bool) {
	if v.Round != c.round {
		*c = nightChat{round: v.Round}
	}
	if c.said >= 2 {
		return Line{}, false
	}
	if role == engine.Don {
		if t := v.Targets(engine.Check); t != 0 {
			if s := p.donCheck(v, t); s != 0 {
				if c.checked {
					return Line{}, false // the victim after the check
				}
				c.checked = true
				c.said++
				return Line{Kind: LineNightCheck, Seat: s}, true
			}
		}
	}
	t := v.Targets(engine.Kill)
	if c.victim || t == 0 {
		return Line{}, false
	}
	x := p.victim(v, t)
	if x == 0 || team.Has(x) {
		return Line{}, false
	}
	c.victim = true
	kind := LineNightTake
	for m := team & v.Alive & v.MafiaActed; m != 0; {
		s := m.First()
		m = m.Without(s)
		if s != v.Seat && v.MafiaChoice[s] == x {
			kind = LineNightAgree
		}
	}
	c.said++
	return Line{Kind: kind, Seat: x}, true
}
