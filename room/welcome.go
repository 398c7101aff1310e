package room

// This file is a connection's first frame, the welcome.

import (
	"mafia/engine"
	"mafia/wire"
)

// welcomeKey is what the welcomes' lengths depend on besides the log
// position they start from: the log, what was sent of it, and the clock.
type welcomeKey struct {
	log, sent int
	paused    bool
}

// welcome is the first frame of a connection: what its seat may see of the
// events sent so far after its first `since` of them, its view now, the
// lobby and the clock. A seat's welcome is padded to the longest welcome
// any seat would get from the same point (welcomeLen), so that its length
// does not depend on the seat's card.
func (r *Room) welcome(sub *Sub, since int) []byte {
	l := r.Lobby()
	if r.game == nil {
		return wire.Encode(wire.ServerMessage{Type: "welcome", Seat: int(sub.Seat), Host: sub.Host, Lobby: &l,
			Deadline: r.deadlineMS(), Paused: r.paused, Now: r.cfg.Clock.Now().UnixMilli()})
	}
	s := sub.Seat
	evs := r.visible(s, 0, r.sent)
	if since < 0 || since > len(evs) {
		since = 0
	}
	from := r.sharedFrom(evs[:since])
	m := r.message("welcome", s, evs[since:])
	m.Host, m.Lobby = sub.Host, &l
	frame := wire.Encode(m)
	if s == 0 {
		return frame // spectators hold no card
	}
	return padTo(frame, r.welcomeLen(from, &l))
}

// sharedFrom maps the events a seat already has to a point of the log that
// depends only on what every seat sees: the position after the last of
// those events that every seat sees. Seats that lost their connection at
// the same moment map to the same point, whatever their cards, so their
// welcomes have one length (welcomeLen).
func (r *Room) sharedFrom(have []engine.Event) int {
	n := 0
	for _, e := range have {
		if shared(e) {
			n++
		}
	}
	if n == 0 {
		return 0
	}
	for i, e := range r.log[:r.sent] {
		if shared(e) {
			if n--; n == 0 {
				return i + 1
			}
		}
	}
	return r.sent
}

// welcomeLen is the length of a welcome that starts from log position
// from: the longest welcome any seat 1..N would get from there, with the
// host's flag and the lobby l, rounded up to a multiple of Bucket. The
// longest is kept until the log, what was sent of it or the pause
// changes: a restart reconnects every seat at once.
func (r *Room) welcomeLen(from int, l *wire.Lobby) int {
	key := welcomeKey{log: len(r.log), sent: r.sent, paused: r.paused}
	if r.welcomes == nil || r.welcomeKey != key {
		r.welcomes, r.welcomeKey = map[int]int{}, key
	}
	longest, ok := r.welcomes[from]
	fb := framePool.Get().(*frameBuf)
	if !ok {
		for s := 1; s < len(r.seats); s++ {
			m := r.message("welcome", engine.Seat(s), r.visible(engine.Seat(s), from, r.sent))
			m.Host = true
			fb.b = m.AppendFrame(fb.b[:0])
			longest = max(longest, len(fb.b))
		}
		r.welcomes[from] = longest
	}
	fb.b = l.AppendJSON(fb.b[:0])
	n := longest + len(`,"lobby":`) + len(fb.b)
	fb.refs.Store(1)
	fb.release()
	return bucket(n)
}
