package room

// This file takes the clients' messages (the protocol's client frames, after
// the server has decoded them): each is queued on the room's goroutine and
// dispatched by type to its handler, the answer queued for its connection.

import (
	"time"

	"mafia/engine"
	"mafia/wire"
)

// Submit queues a client's message; the answer is queued for sub as a
// Reply. It fails at once with CodeBusy when the room's inbox is full.
//
// A ping goes through the inbox like any message, and its pong is queued
// after the answers to everything the connection sent before it. That is
// on purpose, though a pong needs nothing of the room: a pong answered by
// the connection would come back sooner than the answer to a night's
// chat line or move, so the time from a frame to its answer would tell an
// observer of the wire who acts at night (docs/protocol.md, "Frame
// lengths"); and clients use a pong as "everything before it is done". Its
// inbox slot is bounded by the connection's rate of frames, as every
// frame's is.
func (r *Room) Submit(sub *Sub, m wire.ClientMessage, received time.Time) error {
	return r.post(func() {
		if sub.dead {
			return
		}
		err := r.handle(sub, m)
		if (m.Type != "ping" && m.Type != "history") || err != nil {
			r.send(sub, Out{Reply: &Reply{ID: m.ID, Err: err}})
		}
		if r.cfg.Metrics.Command != nil && m.Type == "command" {
			r.cfg.Metrics.Command(r.cfg.Clock.Now().Sub(received), err == nil)
		}
	})
}

func (r *Room) handle(sub *Sub, m wire.ClientMessage) error {
	// A message that names its step is for that step only: one that
	// arrives after the step ended (a vote sent as the vote closed, now in
	// the revote) is refused, never applied to the step that followed.
	// Without a step it is taken in whatever step it arrives (v1 clients).
	if m.Step != 0 && m.Type != "ping" && (r.game == nil || m.Step != r.game.Step()) {
		return errCode(CodeStaleStep)
	}
	switch m.Type {
	case "ping":
		r.send(sub, Out{Frame: AnswerFrame(wire.ServerMessage{Type: "pong", ID: m.ID, Now: r.cfg.Clock.Now().UnixMilli()})})
		return nil
	case "command":
		if sub.Seat == 0 {
			return errCode(CodeSpectator)
		}
		if r.game == nil {
			return errCode(CodeNotStarted)
		}
		if r.paused {
			return errCode(CodePaused)
		}
		if v, known := engine.ParseVerb(m.Verb); known && v != engine.Next && v != engine.Foul {
			if !v.HasTarget() {
				m.Target = 0 // ignored by a verb without one
			} else if m.Target < 0 || m.Target > engine.MaxSeats {
				// Checked before it is narrowed to a Seat, and named as sent.
				return noSuchSeat(m.Target, r.game.Players())
			}
		}
		cmd, ok := m.Command(sub.Seat)
		if !ok {
			switch v, known := engine.ParseVerb(m.Verb); {
			case v == engine.Next || v == engine.Foul:
				return &engine.Error{Code: engine.CodeHostOnly}
			case known:
				return &engine.Error{Code: CodeBadRequest, Name: "target"}
			}
			return &engine.Error{Code: engine.CodeUnknownVerb, Name: m.Verb}
		}
		if err := r.apply(cmd); err != nil {
			return err
		}
		r.settle()
		return nil
	case "chat":
		return r.chat(sub, m.Channel, m.Text)
	case "history":
		return r.history(sub, m.ID, m.Before) // its page is its answer
	case "host":
		if !sub.Host {
			return errCode(CodeNotHost)
		}
		return r.hostAction(m.Action, m.Target)
	}
	return errCode(CodeBadRequest)
}
