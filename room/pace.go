package room

// This file is the bots' pace: how long a server's bot takes before a move.
//
// A table's Settings.Pace chooses it:
//
//   - PaceInstant: a bot moves as soon as it may. It is for tables nobody
//     waits at (mafia bench, tests), and every table stored before there
//     was a pace reads as it ("" is instant).
//   - PaceHuman: at a table where a person holds a seat, a bot takes a
//     person's time: it reads and speaks for several seconds, votes after
//     some thought, acts at night after a while (humanWaits). Each wait is
//     drawn anew for every turn from the bots' own random source (never the
//     deal's seed: see initBots), at the rulebook's step lengths, and is
//     shortened in proportion for a shorter step (a table of short test
//     timings still plays). At a table of bots alone it is instant: nobody
//     is there to wait for.
//
// Settings.BotDelay, the fixed delay tables had before there was a pace, is
// the least wait under either pace: instant with a delay is that delay, as
// before; human with a delay never waits less than it.
//
// On its own floor at human pace a bot speaks as a person does: after its
// reading time its lines and statements go out one by one, a sentence's
// time apart (ItemGap), then its move; a floor whose time runs short (the
// margin before its deadline reached) gets what is left at once.
//
// Whatever the pace, a bot's turn is set before the step's deadline, by a
// margin (paceMargin): a bot never runs a step past its deadline, however
// long its wait or its delay (the wait is cut to the time left).

import (
	"time"

	"mafia/engine"
	"mafia/rng"
)

// The paces a table's bots may play at (Settings.Pace).
const (
	PaceInstant = "instant"
	PaceHuman   = "human"
)

// maxPaceMargin bounds the margin before a step's deadline within which no
// bot's turn is set (a tenth of the step, at most this).
const maxPaceMargin = 2 * time.Second

// paceMargin is how long before the deadline of a step of length step the
// last bot turn of that step may be.
func paceMargin(step time.Duration) time.Duration { return min(step/10, maxPaceMargin) }

// waitRange is a range of waits of one kind of turn, at the rulebook's
// length of its step.
type waitRange struct{ lo, hi time.Duration }

// humanWaits are a person's times per kind of step, at the rulebook's step
// lengths (DefaultTimings): a speech (read the table, speak, nominate or
// not) of 6 to 18 s of its 60, a defence or a tie speech of a few seconds,
// last words of 4 to 10 s, a vote after 2 to 8 s of its 20, and a night's
// move after 4 to 15 s of its 45.
var humanWaits = [...]waitRange{
	engine.PhaseNight:     {4 * time.Second, 15 * time.Second},
	engine.PhaseLastWords: {4 * time.Second, 10 * time.Second},
	engine.PhaseSpeech:    {6 * time.Second, 18 * time.Second},
	engine.PhaseDefence:   {5 * time.Second, 12 * time.Second},
	engine.PhaseVote:      {2 * time.Second, 8 * time.Second},
	engine.PhaseRevote:    {2 * time.Second, 8 * time.Second},
	engine.PhaseTieSpeech: {4 * time.Second, 10 * time.Second},
	engine.PhaseAllVote:   {2 * time.Second, 8 * time.Second},
}

// HumanWait returns the range of a bot's wait at human pace in a step of
// phase p and length step: the person's time at the rulebook's length,
// shortened in proportion for a shorter step (never lengthened for a
// longer one). It is 0, 0 for a phase with no turns.
func HumanWait(p engine.Phase, step time.Duration) (lo, hi time.Duration) {
	if int(p) >= len(humanWaits) {
		return 0, 0
	}
	w := humanWaits[p]
	full := DefaultTimings().For(p)
	if full <= 0 {
		return 0, 0
	}
	if step < full {
		return scale(w.lo, step, full), scale(w.hi, step, full)
	}
	return w.lo, w.hi
}

// scale is d·num/den without overflow for durations of hours.
func scale(d, num, den time.Duration) time.Duration {
	return time.Duration(float64(d) * float64(num) / float64(den))
}

// drawWait draws a wait uniform in lo..hi from src.
func drawWait(src *rng.Source, lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(src.Intn(int((hi-lo)/time.Millisecond)+1))*time.Millisecond
}

// capWait is a wait cut so that the turn comes before the step's deadline
// (left from now) by the step's margin; 0 when that time has come.
func capWait(w, left, step time.Duration) time.Duration {
	return max(min(w, left-paceMargin(step)), 0)
}

// humanPace reports whether the bots take a person's time: the table's
// pace is human and a person holds a seat.
func (r *Room) humanPace() bool { return r.set.Pace == PaceHuman && r.anyoneSeated() }

// paced reports whether the bots' turns wait on the clock (a delay, or
// human pace), rather than coming at once.
func (r *Room) paced() bool { return r.set.BotDelay > 0 || r.humanPace() }

// botWait is how long, from now, seat s's bot waits before its next turn
// in the current step: its reading time (HumanWait), or, on a floor it has
// begun at human pace, the gap before its next line or statement
// (ItemGap).
func (r *Room) botWait(s engine.Seat) time.Duration {
	p := r.game.Phase()
	step := r.timings.For(p)
	w := r.set.BotDelay
	if r.humanPace() {
		lo, hi := HumanWait(p, step)
		if r.botBegun.Has(s) {
			lo, hi = ItemGap(p, step)
			w = 0
		}
		w = max(w, drawWait(&r.paceSrc, lo, hi))
	}
	return capWait(w, r.deadline.Sub(r.cfg.Clock.Now()), step)
}

// turnsLeft reports whether the current step's time allows a bot another
// turn (one not past the step's margin before its deadline).
func (r *Room) turnsLeft() bool {
	step := r.timings.For(r.game.Phase())
	return r.deadline.Sub(r.cfg.Clock.Now()) > paceMargin(step)
}

// itemGap is the gap between a bot's lines and statements on its floor at
// human pace, at the rulebook's step lengths: a sentence's time.
var itemGap = waitRange{2 * time.Second, 5 * time.Second}

// ItemGap returns the range of the gap between a bot's items (its lines,
// its statements) on its floor at human pace, in a step of phase p and
// length step: shortened, like HumanWait, for a step shorter than the
// rulebook's.
func ItemGap(p engine.Phase, step time.Duration) (lo, hi time.Duration) {
	full := DefaultTimings().For(p)
	if full <= 0 || !p.Timed() {
		return 0, 0
	}
	if step < full {
		return scale(itemGap.lo, step, full), scale(itemGap.hi, step, full)
	}
	return itemGap.lo, itemGap.hi
}
