package bot

import (
	"mafia/engine"
	"mafia/rng"
)

// Smart is the reasoning bot, the level "smart". It keeps beliefs about
// every seat from what its seat may know: the public record (deaths and the
// cards reveal_on_death shows, who nominated whom, who voted for whom in
// every vote, each night's outcome) and its own secrets (its card, its
// team, its checks, its heals), and plays its card with a plan (plan.go).
//
// Its beliefs are two layers (statements, talk.go, are one more kind of
// public evidence):
//   - pub, a suspicion score per seat computed from public events only, in
//     the same way by every Smart bot at the table: bots of the same side
//     agree on whom to vote without talking, and anyone reading the record
//     could compute it too;
//   - what the seat alone knows (its view: Teams, Checks, the Doctor's
//     saves), laid on top when it decides.
//
// It needs its events (it is an Observer): given views alone it still plays
// legally, with an empty record. Everything it holds is a fixed-size array
// indexed by seat: a decision allocates nothing. Its only randomness is Src.
type Smart struct {
	Src rng.Source

	me    engine.Seat
	n     uint8
	rules engine.Ruleset
	role  engine.Role
	team  engine.SeatSet // the mafia's team, as a mafioso knows it (else 0)
	alive engine.SeatSet
	round uint16

	// The public record, read the same way by every Smart bot.
	pub    [engine.MaxSeats + 1]int32  // suspicion: higher is more likely mafia or maniac
	tie    [engine.MaxSeats + 1]uint32 // today's public tie-break between equal suspicions
	cand   [engine.MaxSeats]engine.Seat
	ncand  uint8
	nomBy  [engine.MaxSeats + 1]engine.Seat // today's nominator of each candidate
	cons   engine.Seat                      // the vote's expected target (the most suspicious candidate)
	record uint64                           // a digest of the public record (public tie-breaks)
	multi  bool                             // the open vote had a choice (more than one candidate)
	voted  [engine.MaxSeats + 1]engine.Seat // the last closed vote: voter → candidate counted
	follow engine.SeatSet                   // who voted for the expected candidate in the last vote with a choice (at first: everyone)

	// What this seat alone reads from the record.
	accuse  [engine.MaxSeats + 1]int32 // mafia: nominations, votes and reports against the team; maniac: against him
	healed  engine.Seat                // doctor: tonight's heal
	trusted engine.SeatSet             // doctor: seats the mafia or the maniac chose (a heal saved them)

	talkState  // the statements of the record, and the bot's own (talk.go)
	speakState // its spoken lines (speak.go)
}

// NewSmart returns a reasoning bot seeded with seed.
func NewSmart(seed uint64) *Smart {
	b := &Smart{}
	b.Reset(seed)
	return b
}

// Reset forgets the last game and reseeds the bot (a muted bot speaks
// again).
func (b *Smart) Reset(seed uint64) {
	*b = Smart{Src: rng.New(seed)}
	b.say = rng.New(rng.Derive(seed, sayStream))
}

// The weights of the public evidence.
const (
	wVoteAway   = 3 // voted for another candidate than the expected one
	wVoteWith   = 1 // voted for the expected one (taken off)
	wNomAway    = 1 // nominated a less suspicious seat than one free to nominate
	wRevealVote = 4 // voted for a seat whose card, revealed, was town (added) or not (taken off)
	wRevealNom  = 5 // nominated such a seat
	wKnown      = 1000
)

// See implements Observer: it folds the seat's events into the record.
func (b *Smart) See(seat engine.Seat, evs []engine.Event) {
	for i := range evs {
		b.see(seat, &evs[i])
	}
}

func (b *Smart) see(seat engine.Seat, e *engine.Event) {
	switch e.Kind {
	case engine.EvGameStarted:
		src, sp := b.Src, b.speakState
		*b = Smart{Src: src, me: seat, n: e.Count, rules: e.Rules, role: e.RoleOf(seat)}
		b.keepSpeak(sp)
		b.alive = engine.SeatSet(uint32(1)<<(e.Count+1) - 2)
		b.follow = b.alive
		if b.role.IsMafia() {
			for s := engine.Seat(1); s <= engine.Seat(e.Count); s++ {
				if e.RoleOf(s).IsMafia() {
					b.team = b.team.With(s)
				}
			}
		}
	case engine.EvNightBegan:
		b.round, b.healed = e.Round, 0
		b.dealTies()
	case engine.EvHealed:
		b.healed = e.Target
	case engine.EvNightEnded:
		b.fold(uint64(e.Set))
		b.newDay() // the morning: the night's last words belong to the day
		if b.healed != 0 && !e.Set.Has(b.healed) {
			// Nobody dies of a heal: a healed seat that lives may have been
			// chosen; one that would have lived anyway costs nothing here,
			// since only a quiet morning counts.
			if e.Set == 0 {
				b.trusted = b.trusted.With(b.healed)
			}
		}
	case engine.EvDayBegan:
		b.round, b.ncand = e.Round, 0
		b.nomBy = [engine.MaxSeats + 1]engine.Seat{}
		b.dealTies()
	case engine.EvNominated:
		if want := b.top(b.free().Without(e.Actor)); want != 0 && b.sus(e.Target) < b.sus(want) {
			b.pub[e.Actor] += wNomAway
		}
		if int(b.ncand) < len(b.cand) {
			b.cand[b.ncand] = e.Target
			b.ncand++
		}
		b.nomBy[e.Target] = e.Actor
		b.noteAccusal(e.Actor, e.Target, 2)
		b.seeNomination(e)
	case engine.EvVoteBegan, engine.EvTie:
		b.ncand = e.Count
		for i := uint8(0); i < e.Count && int(i) < len(b.cand); i++ {
			b.cand[i] = e.ListAt(int(i))
		}
		if e.Kind == engine.EvVoteBegan {
			b.dealTies() // the day's nominations are in the record now
			b.cons, b.multi = b.top(b.candidates()), e.Count > 1
		}
	case engine.EvVoteClosed:
		b.voted = [engine.MaxSeats + 1]engine.Seat{}
		b.votedRound = b.round
		if b.multi {
			b.follow = 0
		}
		for v := engine.Seat(1); v <= engine.Seat(b.n); v++ {
			c := e.CountedFor(v)
			if c == 0 {
				continue
			}
			b.voted[v] = c
			if c == b.det && c != 0 && v != c {
				b.why[v] = reason{LineAgainstDetective, c} // voted against the believed Detective
			}
			if !b.multi {
				continue
			}
			if c == b.cons {
				b.follow = b.follow.With(v)
			}
			switch {
			case c == b.cons:
				b.pub[v] -= wVoteWith
			case v != b.cons:
				b.pub[v] += wVoteAway
			}
			b.noteAccusal(v, c, 1)
		}
	case engine.EvStatement:
		b.seeStatement(e)
	case engine.EvPlayerOut:
		b.alive = b.alive.Without(e.Target)
		if e.Team != engine.TeamNone && (e.Cause == engine.CauseVote || e.Cause == engine.CauseAll) {
			sign := int32(1)
			if e.Team != engine.TeamTown {
				sign = -1
			}
			for v := engine.Seat(1); v <= engine.Seat(b.n); v++ {
				if b.voted[v] == e.Target {
					b.pub[v] += sign * wRevealVote
				}
			}
			if a := b.nomBy[e.Target]; a != 0 {
				b.pub[a] += sign * wRevealNom
			}
		}
		b.seeOut(e)
	}
}

// noteAccusal counts, for a mafioso, a nomination or vote against the team,
// and, for the maniac, one against himself.
func (b *Smart) noteAccusal(by, against engine.Seat, w int32) {
	if (b.team != 0 && b.team.Has(against)) || (b.role == engine.Maniac && against == b.me) {
		b.accuse[by] += w
	}
}

// dealTies draws today's public tie-break from what every seat knows (the
// round, who is alive, and a digest of the public record so far: the
// nights' outcomes, the nominations, the statements), so that bots agree on
// equal suspicions, and the tie falls differently in every game, never by
// seat order.
func (b *Smart) dealTies() {
	for s := 1; s <= int(b.n); s++ {
		b.tie[s] = uint32(mix(uint64(s)<<40 ^ uint64(b.round)<<24 ^ uint64(b.alive) ^ b.record))
	}
}

// mix is a 64-bit finaliser (splitmix64's).
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// fold adds x to the digest of the public record.
func (b *Smart) fold(x uint64) { b.record = mix(b.record ^ x) }

// candidates returns today's candidates as a set.
func (b *Smart) candidates() engine.SeatSet {
	var m engine.SeatSet
	for i := uint8(0); i < b.ncand; i++ {
		m = m.With(b.cand[i])
	}
	return m
}

// free returns the living seats that are not candidates.
func (b *Smart) free() engine.SeatSet { return b.alive &^ b.candidates() }

// top returns the most suspicious seat of set by the public record alone
// (public ties), or 0 for an empty set. It is what every Smart bot expects
// of the others.
func (b *Smart) top(set engine.SeatSet) engine.Seat {
	var best engine.Seat
	var bk int64
	for m := set; m != 0; {
		s := m.First()
		m = m.Without(s)
		k := int64(b.sus(s))<<32 | int64(b.tie[s])
		if best == 0 || k > bk {
			best, bk = s, k
		}
	}
	return best
}
