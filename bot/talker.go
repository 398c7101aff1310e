package bot

import (
	"mafia/engine"
	"mafia/rng"
)

// Talker is a bot that talks: on its own floor it makes, one time in three
// it is asked, a statement its view offers, drawn at random (a claim of any
// card, a report of mafia or not mafia, a suspicion, a vouch, a nomination
// to come); otherwise its Inner bot plays. It is how the tests of the
// protocol and the clients get statements into whole games: its words are
// random, so no player should believe them.
type Talker struct {
	Inner Bot
	Src   rng.Source
}

// NewTalker returns a Talker around a random bot, both seeded from seed.
func NewTalker(seed uint64) *Talker {
	return &Talker{Inner: NewRandom(seed), Src: rng.New(rng.Derive(seed, 77))}
}

// Act implements Bot.
func (b *Talker) Act(v *engine.View) (engine.Command, bool) {
	if v.Phase.Timed() && v.Speaker == v.Seat && b.Src.Intn(3) == 0 {
		if c, ok := b.statement(v); ok {
			return c, true
		}
	}
	return b.Inner.Act(v)
}

// statement is a statement the view offers, at random.
func (b *Talker) statement(v *engine.View) (engine.Command, bool) {
	c := engine.Command{By: v.Seat}
	switch b.Src.Intn(5) {
	case 0:
		if !v.Can(engine.Claim) {
			return c, false
		}
		c.Verb, c.Role = engine.Claim, engine.Citizen+engine.Role(b.Src.Intn(6))
		return c, true
	case 1:
		c.Verb, c.Result = engine.Report, engine.ResultMafia+engine.Result(b.Src.Intn(2))
	case 2:
		c.Verb = engine.Suspect
	case 3:
		c.Verb = engine.Vouch
	default:
		c.Verb = engine.WillNominate
	}
	t := v.Targets(c.Verb)
	if t == 0 {
		return c, false
	}
	c.Target = t.Nth(b.Src.Intn(t.Len()))
	return c, true
}
