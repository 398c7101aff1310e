package room

// This file tells a person who comes back what the bot standing in for
// them did (issue 28, defect 8; docs/protocol.md, "Stand-ins").
//
// When a bot stands in for a seat (standin.go) the room notes how many
// events the seat had been sent then. When the person takes the seat back
// (or comes back after the game ended while the bot played), their welcome
// is followed by a `stood_in` frame naming that number: the seat's own
// events from there on (its votes, nominations, night moves) are what the
// bot did for it, and the page says so.
//
// Whether and when a bot stands in is public (the lobby's stand_in flag),
// so the frame's moment tells nothing; its length must not tell the card
// either (a mafioso is sent more events than a citizen, so the number has
// more digits sooner): every stood_in frame is padded to one length.

import (
	"mafia/engine"
	"mafia/wire"
)

// stoodInLen is the length of every stood_in frame (its longest is under
// 60 bytes).
const stoodInLen = Bucket

// stoodInFrame is the frame that tells seat s that a bot played for it
// from its since-th event on.
func stoodInFrame(s engine.Seat, since int) []byte {
	return padTo(wire.Encode(wire.ServerMessage{Type: "stood_in", Seat: int(s), Seq: since}), stoodInLen)
}

// tellStoodIn queues, after sub's welcome, what a bot did for sub's seat
// while its person was away, once: the first connection of the seat to
// come back is told.
func (r *Room) tellStoodIn(sub *Sub) {
	if sub.Seat == 0 || int(sub.Seat) >= len(r.seats) {
		return
	}
	st := &r.seats[sub.Seat]
	if st.backSince == 0 {
		return
	}
	since := st.backSince - 1
	st.backSince = 0
	sub.out.push(Out{Frame: stoodInFrame(sub.Seat, since)}, r.cfg.SendBuffer)
}
