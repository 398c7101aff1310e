package bot

import (
	"mafia/engine"
	"mafia/rng"
)

// Expert is the level "expert": a bot that keeps a probability over the
// hidden teams (expert_world.go) and decides by it, its own knowledge
// first. Every public act is evidence weighed by how likely each team is to
// make it, lying cards included (expert_see.go): a claim is evidence, not
// truth. Its plans (expert_plan.go) and talk (expert_talk.go) use that
// belief; its mafia also keeps the public belief (the same model with no
// private knowledge: how the town sees each seat) and lies in more than one
// way (expert_lie.go).
//
// Like Smart it decides from its seat's view and the events its seat may
// see, never a Game; its only randomness is Src (moves) and a stream of its
// own for lines. After a game's setup a decision allocates nothing.
type Expert struct {
	Src rng.Source
	say rng.Source

	mute bool

	me    engine.Seat
	n     uint8
	rules engine.Ruleset
	role  engine.Role
	team  engine.SeatSet // the mafia's team, as a mafioso knows it
	alive engine.SeatSet
	round uint16
	phase engine.Phase

	own    model // with what this seat alone knows
	pub    model // public facts only (the mafia's model of the town)
	hasPub bool

	ownSnap, pubSnap snapshot // the models put back after a line (Speak)

	// the record
	claimers   engine.SeatSet // seats that claimed the Detective
	claimSeq   [engine.MaxSeats + 1]uint8
	nclaims    uint8
	claimRound [engine.MaxSeats + 1]uint16
	report     [engine.MaxSeats + 1][engine.MaxSeats + 1]engine.Result
	cand       [engine.MaxSeats]engine.Seat
	ncand      uint8
	nomOrder   [engine.MaxSeats + 1]uint8 // today's nomination order of each candidate (1: first)
	multi      bool
	detSeat    engine.Seat                // the Detective, known for certain (revealed, the Don's find, oneself)
	accuse     [engine.MaxSeats + 1]int32 // mafia: acts against the team; maniac: against him
	accusedBy  [engine.MaxSeats + 1]engine.SeatSet
	healed     engine.Seat
	prevAlive  engine.SeatSet
	spoke      engine.SeatSet // today's speakers
	spokeUp    engine.SeatSet // today's seats that accused someone
	checked    engine.SeatSet // the living when the worlds were last checked against the game going on

	// shadow is a mafioso's model of a town that reads the record as the
	// smart level does (public suspicion, the expected vote): where the
	// town's votes are likely to go, so that the mafia's votes blend in
	shadow Smart

	// its own talk
	talk expertTalk
	lie  expertLie
	sp   expertSpeak
}

// NewExpert returns an expert bot seeded with seed.
func NewExpert(seed uint64) *Expert {
	b := &Expert{}
	b.Reset(seed)
	return b
}

// Reset forgets the last game and reseeds the bot (a muted bot speaks
// again). The worlds' memory is kept for the next game.
func (b *Expert) Reset(seed uint64) {
	own, pub := b.own, b.pub
	*b = Expert{Src: rng.New(seed), say: rng.New(rng.Derive(seed, sayStream))}
	b.own.ws, b.own.p = own.ws[:0], own.p[:0]
	b.pub.ws, b.pub.p = pub.ws[:0], pub.p[:0]
}

// Mute makes the bot a silent player from now on (a stand-in): no
// statement, no line.
func (b *Expert) Mute() { b.mute = true }

// mafia reports whether the bot plays for the mafia.
func (b *Expert) mafia() bool { return b.role.IsMafia() }

// start begins a game for seat me of n seats with its card (and, for a
// mafioso, the team).
func (b *Expert) start(me engine.Seat, n uint8, rules engine.Ruleset, role engine.Role, team engine.SeatSet) {
	keep := *b
	*b = Expert{Src: keep.Src, say: keep.say, mute: keep.mute, own: keep.own, pub: keep.pub, shadow: keep.shadow,
		ownSnap: keep.ownSnap, pubSnap: keep.pubSnap}
	b.me, b.n, b.rules, b.role, b.team = me, n, rules, role, team
	b.alive = engine.SeatSet(uint32(1)<<(n+1) - 2)
	b.prevAlive = b.alive
	kLo, kHi, man := expertSetup(n, team)
	all := b.alive
	switch {
	case role.IsMafia():
		b.own.reset(n, kLo, kHi, man, team, all&^team, 0, team, &b.Src)
		b.hasPub = true
		// the town's eyes see the mafia; the maniac is left out of them
		// (eight times fewer worlds: the mafia asks who looks mafia)
		b.pub.reset(n, kLo, kHi, 0, 0, 0, 0, 0, &b.Src)
	case role == engine.Maniac:
		if man == 0 {
			man = 1
		}
		b.own.reset(n, kLo, kHi, 1, 0, engine.SeatSet(0).With(me), engine.SeatSet(0).With(me), 0, &b.Src)
	default:
		b.own.reset(n, kLo, kHi, man, 0, engine.SeatSet(0).With(me), 0, engine.SeatSet(0).With(me), &b.Src)
	}
	if role == engine.Detective {
		b.detSeat = me
	}
	b.lie.roll(b)
}

// expertSetup is what a seat assumes of the setup: a preset's counts for
// its player count (the mafia's own count when it knows its team), else a
// range around the presets' share and a maniac unknown.
func expertSetup(n uint8, team engine.SeatSet) (kLo, kHi int, maniac int8) {
	if s, err := engine.Preset(int(n)); err == nil {
		k := s.Don + s.Mafia
		if team != 0 {
			k = team.Len()
		}
		return k, k, int8(s.Maniac)
	}
	g := (int(n)*3 + 5) / 11
	kLo, kHi = max(1, g-1), g+1
	if team != 0 {
		kLo, kHi = team.Len(), team.Len()
	}
	return kLo, kHi, -1
}

// adopt starts the record from a view, for a bot that was shown no deal.
func (b *Expert) adopt(v *engine.View) {
	var team engine.SeatSet
	if v.Role.IsMafia() {
		for s := engine.Seat(1); s <= engine.Seat(v.Players); s++ {
			if v.Teams[s] == engine.TeamMafia {
				team = team.With(s)
			}
		}
	}
	b.start(v.Seat, v.Players, v.Rules, v.Role, team)
	b.alive, b.prevAlive, b.round = v.Alive, v.Alive, v.Round
	for s := engine.Seat(1); s <= engine.Seat(v.Players); s++ {
		if s != v.Seat && v.Teams[s] != engine.TeamNone && !team.Has(s) {
			b.know(s, v.Teams[s])
		}
	}
}

// know records a team known for certain in every model.
func (b *Expert) know(s engine.Seat, t engine.Team) {
	b.own.knowTeam(s, t, &b.Src)
	if b.hasPub {
		b.pub.knowTeam(s, t, &b.Src)
	}
}

// both applies one public act to the models.
func (b *Expert) both(a, t engine.Seat, tab *[3][3]float32) {
	if a != b.me {
		b.own.act(a, t, tab) // its own acts tell it nothing
	}
	if b.hasPub {
		b.pub.act(a, t, tab)
	}
}

// bad is the seat's belief that s is not of the town: its own model, with
// what it knows for certain on top.
func (b *Expert) bad(s engine.Seat) float32 {
	if s == b.me {
		if b.role.Team() == engine.TeamTown {
			return 0
		}
		return 1
	}
	return b.own.pBad(s)
}

// pubBad is how suspicious s looks to the town (the public model; a bot
// with none uses its own).
func (b *Expert) pubBad(s engine.Seat) float32 {
	if b.hasPub {
		return b.pub.pBad(s)
	}
	return b.own.pBad(s)
}

// candidates returns today's candidates as a set.
func (b *Expert) candidates() engine.SeatSet {
	var m engine.SeatSet
	for i := uint8(0); i < b.ncand; i++ {
		m = m.With(b.cand[i])
	}
	return m
}

// noise is a small seeded jitter that breaks ties among equal choices.
func (b *Expert) noise() float32 { return float32(b.Src.Uint64()>>40) / float32(1<<24) * 1e-3 }
