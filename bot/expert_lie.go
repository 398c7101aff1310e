package bot

import "mafia/engine"

// This file is the Expert mafia's lies. Per game (by its seeded chance) a
// mafioso may plan to claim the Detective first, on its first speech of
// day 1 when nobody has claimed; any mafioso may, by its chance, counter-
// claim a Detective claimant who is not a partner, on its next floor, and
// report the claimant as mafia. A mafioso who claimed keeps its story: one
// "check" a day, never a seat twice, never against what it said before; a
// check accuses a town seat the town already doubts, or clears a partner
// the town doubts, or clears a town seat (to look like a Detective whose
// nights are not all finds). At most one mafioso claims.

// The odds of the lies.
const (
	lieFirstOdds   = 0.7  // per game, the team claims first (spread over its members)
	lieCounterOdds = 0.15 // a mafioso counter-claims a claimant
)

// expertLie is a mafioso's plan of lies and its story.
type expertLie struct {
	first   bool // plans to claim first
	counter int8 // 0: not rolled; 1: will counter-claim; -1: will not
	fake    bool // claimed the Detective
	rival   engine.Seat
	lastRep uint16 // the day of its last "check"
	story   [engine.MaxSeats + 1]engine.Result
}

// roll draws the game's plan.
func (l *expertLie) roll(b *Expert) {
	if !b.mafia() {
		return
	}
	k := max(b.team.Len(), 1)
	l.first = float32(b.Src.Uint64()>>40)/float32(1<<24) < lieFirstOdds/float32(k)
}

// sawClaim rolls, once, whether to counter-claim a claimant who is no
// partner.
func (l *expertLie) sawClaim(b *Expert, s engine.Seat) {
	if !b.mafia() || s == b.me || b.team.Has(s) {
		return
	}
	if l.fake && l.rival == 0 {
		l.rival = s // a rival to the story: tomorrow's "check"
		return
	}
	if l.counter != 0 || l.fake {
		return
	}
	l.rival = s
	l.counter = -1
	if b.Src.Intn(100) < int(lieCounterOdds*100) {
		l.counter = 1
	}
}

// teamClaimed reports whether a partner (or the bot) claimed the
// Detective.
func (b *Expert) teamClaimed() bool { return b.claimers&b.team != 0 }

// statement is the lie the bot says now, if any.
func (l *expertLie) statement(b *Expert, v *engine.View) (engine.Command, bool) {
	me := v.Seat
	if !l.fake {
		if b.teamClaimed() {
			return engine.Command{}, false
		}
		claim := l.first && b.round <= 1 && v.Phase == engine.PhaseSpeech && b.claimers == 0
		claim = claim || l.counter == 1 && l.rival != 0
		if !claim {
			return engine.Command{}, false
		}
		l.fake = true
		return engine.Command{Verb: engine.Claim, By: me, Role: engine.Detective}, true
	}
	if l.lastRep >= b.round && b.round > 0 {
		return engine.Command{}, false
	}
	t, r := l.check(b, v)
	if t == 0 {
		return engine.Command{}, false
	}
	l.lastRep = b.round
	return engine.Command{Verb: engine.Report, By: me, Target: t, Result: r}, true
}

// check is the "check" the liar reports today: the rival claimant as
// mafia first; else an accusation of a town seat the town doubts, a
// partner cleared, or a town seat cleared.
func (l *expertLie) check(b *Expert, v *engine.View) (engine.Seat, engine.Result) {
	targets := v.Targets(engine.Report) & v.Alive
	open := targets &^ b.talk.reported
	for s := engine.Seat(1); s <= engine.Seat(b.n); s++ {
		if v.Teams[s] != engine.TeamNone && !b.team.Has(s) {
			open = open.Without(s) // a card the town knows: no lie about it
		}
	}
	if r := l.rival; r != 0 && open.Has(r) && b.mayAccuse(r) {
		return r, engine.ResultMafia
	}
	town := open &^ b.team
	roll := b.Src.Intn(100)
	if roll < 25 {
		if p := b.best(open&b.team.Without(b.me), b.pubBad); p != 0 && b.mayClear(p) && b.pubBad(p) > b.prior() {
			return p, engine.ResultNotMafia
		}
	}
	if roll < 70 {
		if t := b.best(town&^b.claimers, b.pubBad); t != 0 && b.mayAccuse(t) {
			return t, engine.ResultMafia
		}
	}
	if t := b.best(town, func(s engine.Seat) float32 { return 1 - b.pubBad(s) }); t != 0 && b.mayClear(t) {
		return t, engine.ResultNotMafia
	}
	return 0, engine.ResultNone
}
