// Package bot holds players that decide from their seat's view and the
// public record alone: the interfaces every bot implements (Bot, and
// Observer for a bot that follows the game's events), the levels (Random:
// legal moves at random; Smart: beliefs about every seat, from the record
// and its statements, and a plan per role, talk included; Expert: a
// probability over the hidden teams, updated by every public act, liars'
// included, and decisions by it), Talker (a random
// bot that talks, for tests), Speaker for a bot that also says short lines
// aloud (line.go: what a line means; the server renders its words), and
// Table, the driver that plays a game with them.
//
// A bot must never see the Game: it gets the view its seat may see and the
// events its seat may see (as the engine redacts them), and returns one
// command. Only Table holds the Game (a test enforces it). A bot must not
// read a clock or a global random source, so that a seeded game replays the
// same.
package bot

import (
	"mafia/engine"
	"mafia/rng"
)

// Bot chooses a seat's next command from that seat's view. ok is false when
// the bot does nothing now (it passes, or it has nothing to do).
type Bot interface {
	Act(v *engine.View) (cmd engine.Command, ok bool)
}

// Observer is a bot that follows the game: See is given, after every
// accepted command and at the start (Table.Begin), the events its seat may
// see, each the copy the engine redacts for that seat (Game.EventFor). The
// slice is valid only during the call. A bot that is no Observer decides
// from its view alone.
type Observer interface {
	See(seat engine.Seat, evs []engine.Event)
}

// Random plays legally at random: each choice is uniform among the legal
// ones, "nothing" included.
type Random struct {
	Src rng.Source
}

// NewRandom returns a random bot seeded with seed.
func NewRandom(seed uint64) *Random { return &Random{Src: rng.New(seed)} }

// pick returns a uniform seat of set, or 0 (for "nothing") with probability
// 1/(len+1) when allowNone.
func (b *Random) pick(set engine.SeatSet, allowNone bool) engine.Seat {
	n := set.Len()
	if allowNone {
		n++
	}
	i := b.Src.Intn(n)
	return set.Nth(i) // Nth(len) is 0: "nothing"
}

// Act implements Bot.
func (b *Random) Act(v *engine.View) (engine.Command, bool) {
	var c engine.Command
	ok := b.act(v, &c)
	return c, ok
}

// act is Act writing its command to *c (set whole when it returns true).
// It reads only the fields of v that Game.MoveViewInto fills (through
// View.Targets and View.Can of the moves), and by day only those that
// Game.DayMoveViewInto fills: Table gives it those narrower views, and a
// test plays the same games through Act with the whole view.
// Table calls it for a random seat: a Command (seven fields) returned by
// value through the Bot interface is stored to the stack a field at a
// time and copied on in wider loads, a store-forwarding stall on every
// decision of a simulated game.
func (b *Random) act(v *engine.View, c *engine.Command) bool {
	me := v.Seat
	switch v.Phase {
	case engine.PhaseNight:
		for _, verb := range [...]engine.Verb{engine.Kill, engine.Check, engine.Shoot, engine.Heal} {
			t := v.Targets(verb)
			if t == 0 {
				continue
			}
			if s := b.pick(t, true); s != 0 {
				*c = engine.Command{Verb: verb, By: me, Target: s}
				return true
			}
			if v.Can(engine.Skip) {
				*c = engine.Command{Verb: engine.Skip, By: me}
				return true
			}
		}
	case engine.PhaseSpeech:
		if t := v.Targets(engine.Nominate); t != 0 {
			if s := b.pick(t, true); s != 0 {
				*c = engine.Command{Verb: engine.Nominate, By: me, Target: s}
				return true
			}
		}
	case engine.PhaseVote, engine.PhaseRevote:
		if t := v.Targets(engine.Vote); t != 0 {
			if s := b.pick(t, true); s != 0 {
				*c = engine.Command{Verb: engine.Vote, By: me, Target: s}
				return true
			}
		}
	case engine.PhaseAllVote:
		if v.Can(engine.AllVote) {
			*c = engine.Command{Verb: engine.AllVote, By: me, Yes: b.Src.Intn(2) == 0}
			return true
		}
	}
	return false
}
