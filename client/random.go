package client

import (
	"mafia/rng"
	"mafia/wire"
)

// RandomMove picks a legal move at random from a view's "legal" lists, as
// the engine's random bot does: each choice uniform, "nothing" included. ok
// is false when the seat has nothing to do now (a speaker who does not
// nominate should then send "pass"). The move names the view's step, so
// that the server never applies it to a later step.
func RandomMove(v *wire.View, src *rng.Source) (m wire.ClientMessage, ok bool) {
	if v == nil {
		return m, false
	}
	if m, ok = randomMove(v, src); ok {
		m.Step = v.Step
	}
	return m, ok
}

func randomMove(v *wire.View, src *rng.Source) (m wire.ClientMessage, ok bool) {
	l := v.Legal
	pick := func(verb string, targets []int) (wire.ClientMessage, bool) {
		i := src.Intn(len(targets) + 1)
		if i == len(targets) {
			return wire.ClientMessage{}, false
		}
		return wire.ClientMessage{Type: "command", Verb: verb, Target: targets[i]}, true
	}
	for _, c := range []struct {
		verb    string
		targets []int
	}{{"kill", l.Kill}, {"check", l.Check}, {"shoot", l.Shoot}, {"heal", l.Heal}} {
		if len(c.targets) == 0 {
			continue
		}
		if m, ok := pick(c.verb, c.targets); ok {
			return m, true
		}
		if l.Skip {
			return wire.ClientMessage{Type: "command", Verb: "skip"}, true
		}
	}
	if len(l.Nominate) > 0 {
		if m, ok := pick("nominate", l.Nominate); ok {
			return m, true
		}
	}
	if len(l.Vote) > 0 {
		return pick("vote", l.Vote)
	}
	if l.AllVote {
		return wire.ClientMessage{Type: "command", Verb: "all_vote", Yes: src.Intn(2) == 0}, true
	}
	return m, false
}

// RandomStatement picks, at random, a statement the view offers on the
// seat's own floor (view.legal's claim, report, suspect, vouch,
// will_nominate and best_move): a claim of any card, a report of mafia or
// not mafia, a suspicion, a vouch or a nomination to come of an offered
// seat, or the first night's victim's best move of three living seats
// other than its own. ok is false when the seat may make none now. Like RandomMove's, the message names the
// view's step.
func RandomStatement(v *wire.View, src *rng.Source) (m wire.ClientMessage, ok bool) {
	if v == nil {
		return m, false
	}
	l := v.Legal
	var choices []string
	if l.Claim {
		choices = append(choices, "claim")
	}
	for _, c := range []struct {
		verb    string
		targets []int
	}{{"report", l.Report}, {"suspect", l.Suspect}, {"vouch", l.Vouch}, {"will_nominate", l.WillNominate}} {
		if len(c.targets) > 0 {
			choices = append(choices, c.verb)
		}
	}
	living := livingOthers(v)
	if l.BestMove && len(living) >= 3 {
		choices = append(choices, "best_move")
	}
	if len(choices) == 0 {
		return m, false
	}
	m = wire.ClientMessage{Type: "command", Verb: choices[src.Intn(len(choices))], Step: v.Step}
	targets := map[string][]int{"report": l.Report, "suspect": l.Suspect, "vouch": l.Vouch, "will_nominate": l.WillNominate}[m.Verb]
	switch m.Verb {
	case "claim":
		cards := []string{"citizen", "detective", "doctor", "mafia", "don", "maniac"}
		m.Role = cards[src.Intn(len(cards))]
		return m, true
	case "report":
		m.Result = []string{"mafia", "not_mafia"}[src.Intn(2)]
	case "best_move":
		for i := 0; i < 3; i++ { // three of the living, drawn without repeats
			j := i + src.Intn(len(living)-i)
			living[i], living[j] = living[j], living[i]
		}
		m.Guess = living[:3]
		return m, true
	}
	m.Target = targets[src.Intn(len(targets))]
	return m, true
}

// livingOthers lists the living seats of the view but the viewer's own.
func livingOthers(v *wire.View) []int {
	var out []int
	for _, s := range v.Seats {
		if s.Alive && s.Seat != v.Seat {
			out = append(out, s.Seat)
		}
	}
	return out
}
