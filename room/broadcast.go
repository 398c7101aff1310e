package room

import (
	"mafia/engine"
	"mafia/wire"
)

// setGame makes g, with its log, the room's game, and converts its rules
// for the views once.
func (r *Room) setGame(g *engine.Game, log []engine.Event) {
	r.game, r.log = g, log
	r.viewRules = wire.NewRules(g.Rules())
}

// visible returns the copies of log[from:] that seat s may see (0: a spectator).
// The slice is the room's scratch, valid until the next call.
func (r *Room) visible(s engine.Seat, from int) []engine.Event {
	out := r.vis[:0]
	for _, e := range r.log[from:] {
		if v, ok := r.game.EventFor(e, s); ok {
			out = append(out, v)
		}
	}
	r.vis = out
	return out
}

// countSeqs brings every seat's event count up to the log's end.
func (r *Room) countSeqs(from int) {
	if r.seqs == nil {
		r.seqs = make([]int, len(r.seats))
		from = 0
	}
	for _, e := range r.log[from:] {
		for s := range r.seqs {
			if _, ok := r.game.EventFor(e, engine.Seat(s)); ok {
				r.seqs[s]++
			}
		}
	}
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

// broadcast sends every connection the events of log[from:] its seat may
// see, with its new view. A seat that sees none of them gets nothing, so no
// one learns that somebody acted at night.
func (r *Room) broadcast(from int) {
	r.countSeqs(from)
	// Each seat's frame, encoded at its first connection (nil: the seat
	// sees none of the events).
	for sub := range r.subs {
		s := sub.Seat
		if !r.framed[s] {
			r.framed[s] = true
			evs := r.visible(s, from)
			if len(evs) > 0 {
				m := r.message("update", s, evs)
				if r.game.Ended() || r.table.Status != "playing" {
					l := r.Lobby()
					m.Lobby = &l
				}
				r.frames[s] = encodeFrame(m)
			}
		}
		if fb := r.frames[s]; fb != nil {
			r.send(sub, fb.out())
		}
	}
	for s, fb := range r.frames {
		if fb != nil {
			fb.release()
		}
		r.frames[s], r.framed[s] = nil, false
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
	if sub.dead {
		return
	}
	o.Queued = r.cfg.Clock.Now().UnixNano()
	if o.buf != nil {
		o.buf.refs.Add(1) // the queue's; the caller holds its own meanwhile
	}
	if sub.out.push(o, r.cfg.SendBuffer) {
		if sub.notify != nil {
			sub.notify()
		}
	} else {
		o.Release()
		r.cfg.Log.Warn("dropping a slow connection", "seat", sub.Seat)
		r.drop(sub)
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

// drop detaches a connection and closes its queue (its writer then closes it).
func (r *Room) drop(sub *Sub) {
	if sub.dead {
		return
	}
	sub.dead = true
	delete(r.subs, sub)
	sub.out.close()
	if sub.notify != nil {
		sub.notify()
	}
	if sub.Seat != 0 && int(sub.Seat) < len(r.seats) {
		r.seats[sub.Seat].conns--
	}
	if isPerson(sub) {
		r.personLeft() // presence.go
	}
}

// welcome is the first frame of a connection: everything its seat may see
// after its first `since` events, its view, the lobby and the clock.
func (r *Room) welcome(sub *Sub, since int) []byte {
	l := r.Lobby()
	m := wire.ServerMessage{Type: "welcome", Seat: int(sub.Seat), Host: sub.Host, Lobby: &l,
		Deadline: r.deadlineMS(), Paused: r.paused, Now: r.cfg.Clock.Now().UnixMilli()}
	if r.game != nil {
		evs := r.visible(sub.Seat, 0)
		if since < 0 || since > len(evs) {
			since = 0
		}
		m = r.message("welcome", sub.Seat, evs[since:])
		m.Host, m.Lobby = sub.Host, &l
	}
	return wire.Encode(m)
}
