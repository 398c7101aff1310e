package bot

import (
	"strings"

	"mafia/engine"
	"mafia/rng"
)

// This file is the scripted adversaries: players with one trick each, the
// tricks a sharp person (or a bot written from docs/bots.md alone) tries on
// a table of bots. Each wraps an honest inner bot (a Smart bot, or the level
// of the table it plays against) and scripts only its trick; everything
// else, the night included, is the inner bot's. Like every bot it decides
// from its seat's view (the record of statements is View.Talk) and passes
// its events on to the inner bot; it never sees a Game.
//
//   - fakedet: as a mafioso, the Don or the Maniac, it claims the Detective
//     on its first floor and on every later day "reports" a seat as mafia
//     (whoever else claims the Detective first, else whoever accused it or
//     a partner, else a seat at random), and once a game clears a partner
//     with a "not mafia"; as a town card it plays honestly;
//   - follower: a town seat that believes every statement: it nominates
//     and votes the seats the latest Detective claimer reported as mafia,
//     else the seat the table suspects most, and says it suspects them;
//   - counterclaim: a mafioso (or the Don) that, as soon as anyone else
//     claims the Detective, claims it too on its next floor and reports
//     each other claimer as mafia;
//   - lateclaim: a mafioso (or the Don) that waits until a seat that
//     claimed the Detective has left the game (no living claimer can
//     contradict it then), claims the Detective on its next floor, and
//     from then on reports as fakedet does.
//
// `mafia sim --report --adversary` seats one of them at a card among bots of
// a level and sets its side's win rate beside the honest baseline of the
// same seat (docs/balance.md).

// The refusals of a bad adversary (catalog ids "error.<code>").
const (
	// CodeUnknownAdversary: Value is not an adversary's name.
	CodeUnknownAdversary engine.Code = "unknown_adversary"
	// CodeAdversaryCard: the adversary Name plays no trick as the card Value
	// (or Value is no card).
	CodeAdversaryCard engine.Code = "adversary_card"
)

// Adversaries lists the scripted adversaries' names, in order.
func Adversaries() []string { return adversaryNames[:] }

// ParseAdversary reads a scripted adversary's name; anything else is refused
// with CodeUnknownAdversary.
func ParseAdversary(s string) (Level, error) {
	s = strings.TrimSpace(s)
	for i, n := range adversaryNames {
		if n == s {
			return firstAdversary + Level(i), nil
		}
	}
	return 0, &engine.Error{Code: CodeUnknownAdversary, Value: s}
}

// Placement is an adversary at a card: it plays the first seat (by number)
// the deal gives that card.
type Placement struct {
	Level Level
	Card  engine.Role
}

// String spells the placement as ParsePlacements reads it: name@card.
func (p Placement) String() string { return p.Level.String() + "@" + p.Card.String() }

// placementCards are the cards a placement may name, in the order "all"
// lists them.
var placementCards = [...]engine.Role{engine.Mafioso, engine.Don, engine.Maniac, engine.Citizen, engine.Doctor, engine.Detective}

// Placements returns the adversary l at every card it plays its trick as.
func (l Level) Placements() []Placement {
	var out []Placement
	for _, r := range placementCards {
		if l.AppliesTo(r) {
			out = append(out, Placement{l, r})
		}
	}
	return out
}

// ParsePlacements reads a list of adversaries at cards, comma-separated:
// "fakedet@mafia" (a card by its name in the rules: mafia, don, maniac,
// citizen, doctor, detective), "fakedet" (at every card it plays its trick
// as) or "all" (every adversary at every such card). An unknown adversary is
// refused with CodeUnknownAdversary, a card it plays no trick as with
// CodeAdversaryCard.
func ParsePlacements(s string) ([]Placement, error) {
	var out []Placement
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "all" {
			for l := firstAdversary; l < endAdversaries; l++ {
				out = append(out, l.Placements()...)
			}
			continue
		}
		name, card, hasCard := strings.Cut(part, "@")
		l, err := ParseAdversary(name)
		if err != nil {
			return nil, err
		}
		if !hasCard {
			out = append(out, l.Placements()...)
			continue
		}
		r, ok := engine.ParseRole(strings.TrimSpace(card))
		if !ok || !l.AppliesTo(r) {
			return nil, &engine.Error{Code: CodeAdversaryCard, Name: l.String(), Value: strings.TrimSpace(card)}
		}
		out = append(out, Placement{l, r})
	}
	return out, nil
}

// IsAdversary reports whether the level is a scripted adversary.
func (l Level) IsAdversary() bool { return l >= firstAdversary && l < endAdversaries }

// AppliesTo reports whether the adversary l plays its trick as the card r
// (with any other card it plays as its inner bot): fakedet as the mafia's
// cards and the Maniac, counterclaim as the mafia's, follower as the town's.
func (l Level) AppliesTo(r engine.Role) bool {
	switch l {
	case LevelFakeDet:
		return r.IsMafia() || r == engine.Maniac
	case LevelCounterClaim, LevelLateClaim:
		return r.IsMafia()
	case LevelFollower:
		return r != engine.RoleNone && r.Team() == engine.TeamTown
	}
	return false
}

// advStream is the stream of an adversary's own choices (rng.Derive of its
// seed): its inner bot keeps the seed itself, so that the inner bot plays as
// the honest seat would have until the trick changes the game.
const advStream = 0x616476 // "adv"

// Adversary is a scripted adversary (Level: which one) around an honest
// inner bot.
type Adversary struct {
	Level Level
	Inner Bot
	Src   rng.Source // the trick's own choices
}

// NewAdversary returns the adversary l around inner, its own choices seeded
// from seed.
func NewAdversary(l Level, inner Bot, seed uint64) *Adversary {
	a := &Adversary{}
	a.Reset(l, inner, seed)
	return a
}

// Reset makes a the adversary l around inner, its own choices seeded from
// seed, as NewAdversary does (without allocating).
func (a *Adversary) Reset(l Level, inner Bot, seed uint64) {
	*a = Adversary{Level: l, Inner: inner, Src: rng.New(rng.Derive(seed, advStream))}
}

// See implements Observer: the inner bot sees what the seat sees.
func (a *Adversary) See(seat engine.Seat, evs []engine.Event) {
	if o, ok := a.Inner.(Observer); ok {
		o.See(seat, evs)
	}
}

// Act implements Bot: the trick where it applies, else the inner bot.
func (a *Adversary) Act(v *engine.View) (engine.Command, bool) {
	if v.Seat != 0 && a.Level.AppliesTo(v.Role) {
		var c engine.Command
		ok := false
		switch a.Level {
		case LevelFakeDet:
			c, ok = a.fakeDetective(v)
		case LevelCounterClaim:
			c, ok = a.counterClaim(v)
		case LevelFollower:
			c, ok = a.follow(v)
		case LevelLateClaim:
			if claimedDetective(v.Talk, v.Seat) || detectiveClaimers(v.Talk).Without(v.Seat)&^v.Alive != 0 {
				c, ok = a.fakeDetective(v)
			}
		}
		if ok {
			return c, true
		}
	}
	return a.Inner.Act(v)
}

// partners returns the seats the viewer knows are of its own side (the
// mafia's team for a mafioso; nobody for the Maniac).
func partners(v *engine.View) engine.SeatSet {
	var m engine.SeatSet
	if !v.Role.IsMafia() {
		return 0
	}
	for s := engine.Seat(1); s <= engine.Seat(v.Players); s++ {
		if s != v.Seat && v.Teams[s] == engine.TeamMafia {
			m = m.With(s)
		}
	}
	return m
}

// claimedDetective reports whether s has claimed the Detective in the record.
func claimedDetective(t engine.Talk, s engine.Seat) bool {
	for i := 0; i < t.Len(); i++ {
		if st := t.At(i); st.By == s && st.Verb == engine.Claim && st.Role == engine.Detective {
			return true
		}
	}
	return false
}

// detectiveClaimers returns every seat that has claimed the Detective.
func detectiveClaimers(t engine.Talk) engine.SeatSet {
	var m engine.SeatSet
	for i := 0; i < t.Len(); i++ {
		if st := t.At(i); st.Verb == engine.Claim && st.Role == engine.Detective {
			m = m.With(st.By)
		}
	}
	return m
}

// reportsBy returns the seats s has reported with an answer of kind bad
// (mafia or maniac: bad; not mafia: !bad), in round r only when r > 0.
func reportsBy(t engine.Talk, s engine.Seat, bad bool, r uint16) engine.SeatSet {
	var m engine.SeatSet
	for i := 0; i < t.Len(); i++ {
		st := t.At(i)
		if st.By != s || st.Verb != engine.Report || (r != 0 && st.Round != r) {
			continue
		}
		if (st.Result != engine.ResultNotMafia) == bad {
			m = m.With(st.Target)
		}
	}
	return m
}

// reportedIn reports whether s made any report in round r.
func reportedIn(t engine.Talk, s engine.Seat, r uint16) bool {
	return reportsBy(t, s, true, r)|reportsBy(t, s, false, r) != 0
}

// accusers returns the seats that reported as mafia, suspected or said they
// will nominate a seat of set.
func accusers(t engine.Talk, set engine.SeatSet) engine.SeatSet {
	var m engine.SeatSet
	for i := 0; i < t.Len(); i++ {
		st := t.At(i)
		switch st.Verb {
		case engine.Report:
			if st.Result == engine.ResultNotMafia {
				continue
			}
		case engine.Suspect, engine.WillNominate:
		default:
			continue
		}
		if set.Has(st.Target) {
			m = m.With(st.By)
		}
	}
	return m
}

// pick returns a seat of set at random (0 for an empty set).
func (a *Adversary) pick(set engine.SeatSet) engine.Seat {
	if set == 0 {
		return 0
	}
	return set.Nth(a.Src.Intn(set.Len()))
}

// fakeDetective is the fake Detective's statements on its floor: the claim,
// then a report each day, and once a partner cleared.
func (a *Adversary) fakeDetective(v *engine.View) (engine.Command, bool) {
	if !v.Can(engine.Claim) {
		return engine.Command{}, false
	}
	me, t := v.Seat, v.Talk
	if !claimedDetective(t, me) {
		return engine.Command{Verb: engine.Claim, By: me, Role: engine.Detective}, true
	}
	mates := partners(v)
	if !reportedIn(t, me, v.Round) {
		free := v.Alive.Without(me) &^ mates &^ reportsBy(t, me, true, 0)
		target := a.pick(free & detectiveClaimers(t))
		if target == 0 {
			target = a.pick(free & accusers(t, mates.With(me)))
		}
		if target == 0 {
			target = a.pick(free)
		}
		if target != 0 && v.Targets(engine.Report).Has(target) {
			return engine.Command{Verb: engine.Report, By: me, Target: target, Result: engine.ResultMafia}, true
		}
	}
	if v.Round >= 2 && reportsBy(t, me, false, 0) == 0 {
		if p := a.pick(mates & v.Alive); p != 0 && v.Targets(engine.Report).Has(p) {
			return engine.Command{Verb: engine.Report, By: me, Target: p, Result: engine.ResultNotMafia}, true
		}
	}
	return engine.Command{}, false
}

// counterClaim is the counter-claimer's statements on its floor: once any
// other seat (no partner) has claimed the Detective, the claim, then a
// "mafia" report of each such claimer.
func (a *Adversary) counterClaim(v *engine.View) (engine.Command, bool) {
	if !v.Can(engine.Claim) {
		return engine.Command{}, false
	}
	me, t := v.Seat, v.Talk
	claimers := detectiveClaimers(t).Without(me) &^ partners(v)
	if claimers == 0 {
		return engine.Command{}, false
	}
	if !claimedDetective(t, me) {
		return engine.Command{Verb: engine.Claim, By: me, Role: engine.Detective}, true
	}
	todo := claimers &^ reportsBy(t, me, true, 0) & v.Targets(engine.Report)
	if s := todo.First(); s != 0 {
		return engine.Command{Verb: engine.Report, By: me, Target: s, Result: engine.ResultMafia}, true
	}
	return engine.Command{}, false
}

// follow is the follower's day: it suspects, nominates and votes whom the
// statements accuse (followed); elsewhere its inner bot plays.
func (a *Adversary) follow(v *engine.View) (engine.Command, bool) {
	me := v.Seat
	switch v.Phase {
	case engine.PhaseSpeech:
		t := followed(v, v.Alive.Without(me))
		if t == 0 {
			return engine.Command{}, false
		}
		if v.Can(engine.Claim) && !saidOnFloor(v, engine.Suspect, t) && v.Targets(engine.Suspect).Has(t) {
			return engine.Command{Verb: engine.Suspect, By: me, Target: t}, true
		}
		if v.Targets(engine.Nominate).Has(t) {
			return engine.Command{Verb: engine.Nominate, By: me, Target: t}, true
		}
	case engine.PhaseVote, engine.PhaseRevote:
		if t := followed(v, v.Targets(engine.Vote)); t != 0 {
			return engine.Command{Verb: engine.Vote, By: me, Target: t}, true
		}
	}
	return engine.Command{}, false
}

// saidOnFloor reports whether the speaker said verb about t on this floor.
func saidOnFloor(v *engine.View, verb engine.Verb, t engine.Seat) bool {
	n := v.Talk.Len()
	for i := n - int(v.Said); i < n; i++ {
		if st := v.Talk.At(i); st.Verb == verb && st.Target == t {
			return true
		}
	}
	return false
}

// followed is the seat of set the statements accuse, believed as said: the
// latest "mafia" report of the latest Detective claimer, else the seat most
// suspected (suspects and will_nominates, the later the heavier on equal
// counts), or 0.
func followed(v *engine.View, set engine.SeatSet) engine.Seat {
	t := v.Talk
	var det engine.Seat
	for i := t.Len() - 1; i >= 0 && det == 0; i-- {
		if st := t.At(i); st.Verb == engine.Claim && st.Role == engine.Detective {
			det = st.By
		}
	}
	if det != 0 {
		for i := t.Len() - 1; i >= 0; i-- {
			st := t.At(i)
			if st.By == det && st.Verb == engine.Report && st.Result != engine.ResultNotMafia && set.Has(st.Target) {
				return st.Target
			}
		}
	}
	var score [engine.MaxSeats + 1]int
	var best engine.Seat
	for i := 0; i < t.Len(); i++ {
		st := t.At(i)
		if (st.Verb != engine.Suspect && st.Verb != engine.WillNominate) || !set.Has(st.Target) {
			continue
		}
		score[st.Target]++
		if best == 0 || score[st.Target] >= score[best] {
			best = st.Target
		}
	}
	return best
}
