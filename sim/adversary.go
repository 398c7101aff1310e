package sim

import (
	"mafia/engine"
	"mafia/rng"
	"mafia/sim/tells"
)

// This file is the simulator's side of the exploit tables (`mafia sim
// --report --adversary`): one scripted adversary seated at a card among the
// mix's bots, and the public-record classifier counted over every game.

// seatAdversary puts the configured adversary at the first seat the deal
// gave its card, around the honest bot already seated there (same seed:
// the game is the baseline's until the trick changes it).
func (p *player) seatAdversary(seed uint64) {
	if p.place.Level == 0 {
		return
	}
	for s := 1; s < len(p.table.Bots); s++ {
		if p.roles[s-1] == p.place.Card {
			p.adv.Reset(p.place.Level, p.table.Bots[s], rng.Derive(seed, uint64(s)))
			p.table.Bots[s] = &p.adv
			return
		}
	}
}

// Classified is the classifier's tally: when day 1's vote begins (every
// speech of day 1 said), the three living seats the public record ranks
// most suspicious (tells.Reader), and how many of them were mafia.
type Classified struct {
	Points int // games ranked (with a vote on day 1, and more than three living)
	Picks  int // seats picked: three a game
	Hits   int // of them, mafia
	// Chance is the mafia a random pick of three would find, summed over
	// the games (living mafia / living, times three), in units of
	// 1/ChanceUnit: whole numbers, so that the sum is the same in any order.
	Chance int64
}

// ChanceUnit divides Classified.Chance: every count of living seats (1 to
// 20) divides it.
const ChanceUnit = 232792560 // lcm(1, …, 20)

// Precision returns the share of picks that were mafia and its 95% Wilson
// interval (the picks of one game are not independent: read it as rough).
func (c Classified) Precision() (p, lo, hi float64) {
	return Result{Games: c.Picks}.Rate(c.Hits)
}

// Random returns the precision a random pick among the living would have.
func (c Classified) Random() float64 {
	if c.Picks == 0 {
		return 0
	}
	return float64(c.Chance) / ChanceUnit / float64(c.Picks)
}

func (c *Classified) add(o Classified) {
	c.Points += o.Points
	c.Picks += o.Picks
	c.Hits += o.Hits
	c.Chance += o.Chance
}

// classifyDay is the day at whose start the classifier ranks the seats.
// classifyAt reports whether e is the classifier's fixed point: the first
// vote of day 1 begins, every speech of the day said (the day the tells
// matter most, and the fewest facts).
func classifyAt(e *engine.Event) bool {
	return e.Kind == engine.EvVoteBegan && e.Phase == engine.PhaseVote && e.Round == 1
}

// classifyTop is how many seats it picks.
const classifyTop = 3

// classifier runs a tells.Reader over one game's events.
type classifier struct {
	rd    tells.Reader
	roles []engine.Role
	top   [classifyTop]engine.Seat
	c     *Classified
}

func (k *classifier) start(roles []engine.Role, rules engine.Ruleset, c *Classified) {
	k.rd.Reset(len(roles), rules)
	k.roles, k.c = roles, c
}

func (k *classifier) events(evs []engine.Event) {
	for i := range evs {
		e := &evs[i]
		k.rd.See(e)
		if !classifyAt(e) {
			continue
		}
		alive := k.rd.Alive()
		if alive.Len() <= classifyTop {
			continue
		}
		mafia := 0
		for m := alive; m != 0; {
			s := m.First()
			m = m.Without(s)
			if k.roles[s-1].IsMafia() {
				mafia++
			}
		}
		k.c.Points++
		for _, s := range k.rd.Rank(k.top[:]) {
			k.c.Picks++
			if k.roles[s-1].IsMafia() {
				k.c.Hits++
			}
		}
		k.c.Chance += int64(classifyTop*mafia) * (ChanceUnit / int64(alive.Len()))
	}
}

// events is the table's OnEvents with the classifier on: the metrics' meter
// (when on) and the classifier see every event.
func (p *player) events(cmd engine.Command, evs []engine.Event) {
	if p.metrics {
		p.meter.events(cmd, evs)
	}
	p.tells.events(evs)
}
