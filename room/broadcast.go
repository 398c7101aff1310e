package room

import (
	"mafia/engine"
	"mafia/wire"
)

// What an observer of the traffic may learn is limited here. TLS hides a
// frame's contents, not its length or its moment, so every broadcast
// sends each connected seat exactly one frame, all of one length: an
// update to a seat that sees some of the new events, a pad to one that
// sees none. The length is the longest natural frame over every seat of
// the table, connected or not (else it would depend on which cards are
// connected), and at least the step's floor, rounded up to a multiple of
// Bucket. The floor is set when a step begins, from that broadcast's
// longest frame and an allowance for what the step's private events (the
// night's actions, the votes) can add, so that within a step the length
// does not show whether or whose private event a broadcast carries.
// Spectators hold no card: their frames are not equalised. At night,
// events only some seats may see wait for the next tick (night.go); in a
// vote, for its close (defers).

// setGame makes g, with its log, the room's game, and converts its rules
// for the views once.
func (r *Room) setGame(g *engine.Game, log []engine.Event) {
	r.game, r.log = g, log
	r.viewRules = wire.NewRules(g.Rules())
	r.seqs = make([]int, len(r.seats))
	r.sent, r.floor = 0, 0
	r.welcomes = nil
}

// visible returns the copies of log[from:to] that seat s may see (0: a
// spectator). The slice is the room's scratch, valid until the next call.
func (r *Room) visible(s engine.Seat, from, to int) []engine.Event {
	out := r.vis[:0]
	for _, e := range r.log[from:to] {
		if v, ok := r.game.EventFor(e, s); ok {
			out = append(out, v)
		}
	}
	r.vis = out
	return out
}

// shared reports whether every seat sees e (each its own copy of the deal).
func shared(e engine.Event) bool {
	a := e.Audience()
	return a == engine.AudPublic || a == engine.AudSeats
}

// markSent counts log[sent:to] into every seat's event count: those events
// are being sent.
func (r *Room) markSent(to int) {
	for _, e := range r.log[r.sent:to] {
		for s := range r.seqs {
			if _, ok := r.game.EventFor(e, engine.Seat(s)); ok {
				r.seqs[s]++
			}
		}
	}
	r.sent = to
}

func (r *Room) deadlineMS() int64 {
	if r.deadline.IsZero() || r.paused || r.game == nil || r.game.Ended() {
		return 0
	}
	return r.deadline.UnixMilli()
}

// message builds a frame for seat s with the given events and its view. The
// message shares the room's scratch memory: it is valid until the next
// message, so it is encoded at once.
func (r *Room) message(typ string, s engine.Seat, evs []engine.Event) wire.ServerMessage {
	m := wire.ServerMessage{Type: typ, Seat: int(s), Deadline: r.deadlineMS(), Paused: r.paused,
		Now: r.cfg.Clock.Now().UnixMilli()}
	if r.game != nil {
		m.Seq = r.seqs[s]
		players := r.game.Players()
		r.wevents = r.wevents[:0]
		for _, e := range evs {
			r.wevents = append(r.wevents, wire.FromEvent(e, players))
		}
		m.Events = r.wevents
		r.game.ViewInto(&r.view, s)
		r.scratch.Into(&r.wview, &r.view, r.viewRules)
		if r.paused {
			r.wview.Legal = wire.Legal{} // nothing may be done while the game is paused
		}
		m.View = &r.wview
	}
	return m
}

// broadcast lets the seats see the events just appended, log[from:]: at
// once, or, when none of them is one every seat sees, at night at the
// next tick and in a vote when it closes (see defers).
func (r *Room) broadcast(from int) {
	if r.defers() {
		public := false
		for _, e := range r.log[from:] {
			public = public || shared(e)
		}
		if !public {
			return
		}
	}
	r.deliver()
}

// holding reports whether events only some seats may see wait for a tick:
// the night's.
func (r *Room) holding() bool {
	return r.game != nil && !r.game.Ended() && r.game.Phase() == engine.PhaseNight
}

// defers reports whether events only some seats may see wait: at night
// for the next tick; in a vote, a revote or an all-vote for a public
// broadcast. A vote comes with its public vote_made (who voted, not for
// whom), so it is delivered at once, to every seat in a frame of one
// length, the voter's own vote_cast riding on the voter's.
func (r *Room) defers() bool {
	return r.holding() || (r.game != nil && !r.game.Ended() && isVote(r.game.Phase()))
}

// Allowances for what a step's private events can add to a seat's frame
// over the step's first broadcast: in a vote, the voter's own vote (its
// event, its "voted"; the vote list leaves the view), which rides on its
// public vote_made and on any public broadcast before the close (a foul); at night, per mafioso, a
// mafia_chose and a choice in the view, and one check, heal or shot, a skip
// and the night's fields. A speech, a defence or last words have no private
// events: no allowance, no padding past the moment's longest frame. In
// random games the most a night added was 183 bytes at 11 seats and 475 at
// 20 seats with 9 mafiosi, a vote 3 bytes; TestFrameLengthsWithinAStep
// holds slot A to one length a night.
const (
	voteAllowance     = 128
	nightAllowance    = 256
	perMafiaAllowance = 64
)

func (r *Room) allowance() int {
	switch p := r.game.Phase(); {
	case p == engine.PhaseNight:
		return nightAllowance + perMafiaAllowance*(r.set.Setup.Don+r.set.Setup.Mafia)
	case isVote(p):
		return voteAllowance
	}
	return 0
}

// deliver sends every connection what its seat may see of the events not
// sent yet, log[sent:], with its view: one frame to every connected seat,
// all of one length (see the top of this file), and to spectators their
// own frame when they see any of the events. A seat that sees none of them
// gets a pad: so it is at every night tick (night.go).
func (r *Room) deliver() {
	from, to := r.sent, len(r.log)
	r.markSent(to)
	newStep := false
	for _, e := range r.log[from:to] {
		newStep = newStep || stepStart(e.Kind)
	}
	var lobby *wire.Lobby
	if r.game.Ended() || r.table.Status != "playing" {
		l := r.Lobby()
		lobby = &l
	}
	// Every seat's frame, connected or not: the longest sets the length.
	longest := len(padJSON)
	for s := 1; s < len(r.seats); s++ {
		evs := r.visible(engine.Seat(s), from, to)
		if len(evs) == 0 {
			continue
		}
		m := r.message("update", engine.Seat(s), evs)
		m.Lobby = lobby
		fb := encodeFrame(m)
		longest = max(longest, len(fb.b))
		if r.seats[s].conns > 0 {
			r.frames[s] = fb
		} else {
			fb.release()
		}
	}
	size := bucket(max(longest, r.floor))
	if newStep {
		size = bucket(longest)
		r.floor = bucket(longest + r.allowance())
	} else if size > r.floor {
		r.floor = size // the allowance was short: the rest of the step keeps this length
	}
	var pad, spectators *frameBuf
	spectatorsDone := false
	now := r.cfg.Clock.Now().UnixNano()
	for sub := range r.subs {
		s := sub.Seat
		if s == 0 {
			if !spectatorsDone {
				spectatorsDone = true
				if evs := r.visible(0, from, to); len(evs) > 0 {
					m := r.message("update", 0, evs)
					m.Lobby = lobby
					spectators = encodeFrame(m)
				}
			}
			if spectators != nil {
				r.sendAt(sub, spectators.out(), now)
			}
			continue
		}
		fb := r.frames[s]
		if fb == nil {
			if pad == nil {
				pad = padFrame(size)
			}
			fb = pad
		} else if len(fb.b) < size {
			fb.b = padTo(fb.b, size) // before its first send: no queue holds it yet
		}
		r.sendAt(sub, fb.out(), now)
	}
	for s, fb := range r.frames {
		if fb != nil {
			fb.release()
			r.frames[s] = nil
		}
	}
	for _, fb := range []*frameBuf{pad, spectators} {
		if fb != nil {
			fb.release()
		}
	}
}

// broadcastLobby sends every connection the lobby (seats, status, pause).
func (r *Room) broadcastLobby() {
	r.publishLobby()
	l := r.Lobby()
	frame := wire.Encode(wire.ServerMessage{Type: "update", Lobby: &l, Paused: r.paused,
		Deadline: r.deadlineMS(), Now: r.cfg.Clock.Now().UnixMilli()})
	for sub := range r.subs {
		r.send(sub, Out{Frame: frame})
	}
}

// warn tells everyone the step ends in WarnBefore.
func (r *Room) warn() {
	frame := wire.Encode(wire.ServerMessage{Type: "warning", Deadline: r.deadlineMS(), Now: r.cfg.Clock.Now().UnixMilli()})
	for sub := range r.subs {
		r.send(sub, Out{Frame: frame})
	}
}

// send queues an item for a connection, dropping a connection too slow to
// read: it must never stall the room.
func (r *Room) send(sub *Sub, o Out) {
	if !sub.dead {
		r.sendAt(sub, o, r.cfg.Clock.Now().UnixNano())
	}
}

// sendAt is send at a known moment (Unix nanoseconds of the room's clock):
// a broadcast reads the clock once for all its connections.
func (r *Room) sendAt(sub *Sub, o Out, now int64) {
	if sub.dead {
		return
	}
	o.Queued = now
	if o.buf != nil {
		o.buf.refs.Add(1) // the queue's; the caller holds its own meanwhile
	}
	if sub.out.push(o, r.cfg.SendBuffer) {
		switch {
		case sub.turnEnd != nil:
			if !sub.queuedTurn {
				sub.queuedTurn = true
				r.turnSubs = append(r.turnSubs, sub)
			}
		case sub.notify != nil:
			sub.notify()
		}
	} else {
		o.Release()
		r.cfg.Log.Warn("dropping a slow connection", "seat", sub.Seat)
		r.drop(sub, CodeTooSlow)
		// Only a seat's connections show in the lobby: a spectator too slow
		// to read costs nobody a frame (and so nobody their connection).
		if sub.Seat != 0 {
			r.lobbyDirty = true
		}
		if r.cfg.Metrics.Dropped != nil {
			r.cfg.Metrics.Dropped()
		}
	}
}

// drop detaches a connection and closes its queue (its writer then closes
// it), saying why (a room code the connection's client is told, see
// Sub.Why; "" when the connection closed itself).
func (r *Room) drop(sub *Sub, why engine.Code) {
	if sub.dead {
		return
	}
	sub.dead = true
	sub.why = why
	delete(r.subs, sub)
	sub.out.close()
	if sub.notify != nil {
		sub.notify()
	}
	if sub.Seat != 0 && int(sub.Seat) < len(r.seats) {
		r.seats[sub.Seat].conns--
		r.seatAway(sub.Seat) // its last connection gone: its grace period starts (standin.go)
	}
	if isPerson(sub) {
		r.personLeft() // presence.go
	}
}

// endTurn tells each connection the room's turn queued items for (its
// turnEnd), once, in the order of their first item: a connection that
// writes when told then writes a turn's items together. A connection
// dropped meanwhile is not told (its notify was, at the drop).
func (r *Room) endTurn() {
	for i, sub := range r.turnSubs {
		r.turnSubs[i] = nil
		sub.queuedTurn = false
		if !sub.dead {
			sub.turnEnd()
			r.noteGroup(sub.group)
		}
	}
	r.turnSubs = r.turnSubs[:0]
	r.endGroups()
}
