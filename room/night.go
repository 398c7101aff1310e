package room

// This file is the night's cadence (docs/rules.md: online, every night lasts the
// same time whichever roles are alive, and nothing visible to others shows
// who has acted).
//
// What only some seats may see at night (mafia_chose, checked, healed,
// shot, skipped) is not sent when it happens: the replies to the commands
// are, and the events wait. At every NightTick of the night's clock,
// counted from the night's start and stopped while the game is paused, and
// once more at its deadline, every connected seat gets exactly two frames:
//
//   - slot A: an update with the events it may see since the last delivery
//     and its view, or a pad;
//   - slot B: the next waiting line of the mafia's chat for the living
//     mafia, or a pad for everyone else (for everyone when no line waits).
//
// Each slot has one length for every seat (deliver; sendMafiaLine), and
// slot A keeps the night's floor, so the frames of a night are the same
// for every seat whatever the roles do. An event every seat sees (a foul,
// a removal by fouls, the night's end) is sent at once and carries what
// was waiting.

import (
	"time"

	"mafia/store"
)

// DefaultNightTick is the night's delivery cadence unless Config says.
const DefaultNightTick = time.Second

// maxMafiaLines bounds the mafia's lines waiting for a tick.
const maxMafiaLines = 32

// mafiaLine is a line of the mafia's chat waiting for a tick.
type mafiaLine struct {
	line store.ChatLine // as stored when it was posted
}

// nightTick delivers the two slots of a tick.
func (r *Room) nightTick() {
	r.deliver()
	r.sendMafiaLine()
}

// scheduleTicks arranges the night's next tick, if the current step is a
// night whose clock runs: the tick of the night's clock after the time
// already gone. The tick at the deadline is timeout's.
func (r *Room) scheduleTicks() {
	if !r.holding() || r.paused {
		return
	}
	gone := r.timings.Night - r.deadline.Sub(r.cfg.Clock.Now())
	r.scheduleTick(int(max(gone, 0)/r.cfg.NightTick) + 1)
}

// scheduleTick sets the night's k-th tick, k·NightTick after its start, if
// that is before the deadline.
func (r *Room) scheduleTick(k int) {
	at := time.Duration(k) * r.cfg.NightTick
	if at >= r.timings.Night {
		return
	}
	d := r.deadline.Sub(r.cfg.Clock.Now()) - (r.timings.Night - at)
	step := r.step
	r.timers = append(r.timers, r.later(max(d, 0), func() {
		if r.step != step || r.paused || !r.holding() {
			return
		}
		r.nightTick()
		r.scheduleTick(k + 1)
	}))
}

// lastTick is the tick at the night's deadline, before the night ends: the
// night's last private events go out in it, not with the morning.
func (r *Room) lastTick() {
	if r.holding() && r.finalTick != r.step {
		r.finalTick = r.step
		r.nightTick()
	}
}

// ticksLeft is how many ticks the current night has still to come, the
// one at its deadline included.
func (r *Room) ticksLeft() int {
	left := r.left
	if !r.paused {
		left = r.deadline.Sub(r.cfg.Clock.Now())
	}
	night, tick := r.timings.Night, r.cfg.NightTick
	gone := max(night-left, 0)
	last := int((night - 1) / tick) // the last tick before the deadline
	n := max(last-int(gone/tick), 0)
	if r.finalTick != r.step {
		n++
	}
	return n
}

// queueMafiaLine keeps line l of the mafia's chat for the coming ticks,
// unless more lines wait than the night has ticks left for.
func (r *Room) queueMafiaLine(l store.ChatLine) error {
	if len(r.mafiaLines) >= min(maxMafiaLines, r.ticksLeft()) {
		return errCode(CodeChatBusy)
	}
	if err := r.storeChat(l); err != nil {
		return err // stored when posted, so that its sender learns of a refusal
	}
	r.mafiaLines = append(r.mafiaLines, mafiaLine{line: l})
	return nil
}

// sendMafiaLine is slot B: the next waiting line of the mafia's chat to the
// living mafia, a pad of the same length to every other seat. The length
// is that of the line's longest frame in any language (a bot's line is
// rendered for each reader, linelang.go), rounded up (bucket): one length
// for every seat, whatever the languages of the mafia's connections.
func (r *Room) sendMafiaLine() {
	var line *lineFrames
	size := len(padJSON)
	if len(r.mafiaLines) > 0 {
		ln := r.mafiaLines[0]
		r.mafiaLines[0] = mafiaLine{}
		r.mafiaLines = r.mafiaLines[1:]
		if len(r.mafiaLines) == 0 {
			r.mafiaLines = nil
		}
		line = newLineFrames(ln.line, r.cfg.Clock.Now().UnixMilli())
		r.keepChat(ln.line) // it has gone out: history pages hold it (history.go)
		size = line.longest()
	}
	size = bucket(size)
	var pad *frameBuf
	for sub := range r.subs {
		switch {
		case sub.Seat == 0: // spectators hold no card
		case line != nil && r.reads("mafia", sub.Seat):
			r.send(sub, Out{Frame: padTo(append([]byte(nil), line.in(r.langOf(sub))...), size)})
		default:
			if pad == nil {
				pad = padFrame(size)
			}
			r.send(sub, pad.out())
		}
	}
	if pad != nil {
		pad.release()
	}
}
