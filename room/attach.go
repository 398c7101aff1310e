package room

// This file connects clients to the room and takes their messages: attach,
// detach, and the dispatch of each client message to its handler.

import (
	"context"
	"time"

	"mafia/engine"
	"mafia/internal/secret"
	"mafia/locale"
	"mafia/wire"
)

// Attach connects a client: token is a seat's token, the host's token, or
// empty for a spectator; since is how many events the client already has
// (from a previous connection). The returned Sub's queue (Next, Take) first
// carries the welcome frame.
func (r *Room) Attach(ctx context.Context, token string, since int) (*Sub, error) {
	return r.AttachNotify(ctx, token, since, nil)
}

// AttachNotify is Attach for a connection that writes only when told:
// notify is called, on the room's goroutine, after each item is queued for
// the Sub (the welcome first) and after its queue is closed. It must not
// block; it may run before AttachNotify returns.
func (r *Room) AttachNotify(ctx context.Context, token string, since int, notify func()) (*Sub, error) {
	return r.AttachIn(ctx, token, since, "", notify)
}

// AttachIn is AttachNotify for a connection that reads in language lang:
// the server's bots' lines and names come to it rendered in lang
// (linelang.go); "" is the table's language.
func (r *Room) AttachIn(ctx context.Context, token string, since int, lang locale.Lang, notify func()) (*Sub, error) {
	var sub *Sub
	var err error
	derr := r.do(ctx, func() {
		sub = &Sub{room: r, notify: notify, lang: lang}
		if token != "" {
			h := secret.Hash(token)
			switch {
			case h == r.table.HostToken:
				sub.Host, sub.Seat = true, r.hostSeat
			default:
				s := r.seatByHash(h)
				if s == 0 {
					err = errCode(CodeBadToken)
					return
				}
				sub.Seat, sub.Host = s, s == r.hostSeat
			}
		}
		unfrozen := false
		if isPerson(sub) {
			unfrozen = r.personCame() // a frozen game goes on (presence.go)
		}
		if sub.Seat != 0 {
			r.seats[sub.Seat].conns++
			r.seatBack(sub.Seat) // the seat is its person's again, before the welcome
			r.publishLobby()
		}
		sub.out.push(Out{Frame: r.welcome(sub, since)}, r.cfg.SendBuffer)
		if notify != nil {
			notify()
		}
		r.subs[sub] = struct{}{}
		if sub.Seat != 0 || unfrozen {
			r.broadcastLobby()
		}
		if unfrozen {
			r.settle()
		}
	})
	if derr != nil {
		return nil, derr
	}
	return sub, err
}

func (r *Room) seatByHash(h string) engine.Seat {
	for s := 1; s < len(r.seats); s++ {
		if r.seats[s].tokenHash == h {
			return engine.Seat(s)
		}
	}
	return 0
}

// Detach disconnects a client; its seat keeps its place. Unlike Submit it
// is never refused for a full inbox: it waits for room there (not for the
// room to act on it), or until the room stops. A detach lost to a busy
// moment would leave the seat "connected" and the table, which counts who
// is at it, never freezing or expiring.
func (r *Room) Detach(sub *Sub) {
	f := func() {
		if sub.dead {
			return
		}
		r.drop(sub, "") // it closed itself: nobody to tell
		if sub.Seat != 0 {
			r.broadcastLobby()
		}
		r.maybeLinger()
	}
	select {
	case r.inbox <- f:
	case <-r.done:
	}
}

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
