package room

// This file connects clients to the room and lets them go: attach and
// detach. What they send is dispatched in dispatch.go.

import (
	"context"

	"mafia/admission"
	"mafia/engine"
	"mafia/internal/secret"
	"mafia/locale"
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
	return r.AttachFrom(ctx, token, since, lang, notify, Entry{Door: admission.DoorSeat})
}

// Entry is how a connection comes to the table, which the table's policy
// is told (policy.go): its door (admission.DoorSeat, or admission.DoorRelay for
// a seat's connection another node of a cluster relays) and the client's
// address as the server keys it.
type Entry struct {
	Door admission.Door
	Addr string
	// TurnEnd, if set, is called on the room's goroutine at the end of
	// each turn of the room's (the request or timer it handled) that
	// queued items for the connection, once, in place of notify after
	// each item: a connection can then write a turn's items in one go.
	// notify is still called for the welcome and when the queue is
	// closed. Like notify it must not block.
	TurnEnd func()
	// TurnGroup, if set (with TurnEnd), is told once at the end of each
	// turn in which any of its connections' TurnEnd was called, after all
	// of them (turngroup.go).
	TurnGroup TurnGroup
}

// AttachFrom is AttachIn for a connection that came in by e: the table's
// policy may refuse it (a coded error, as for a bad token).
func (r *Room) AttachFrom(ctx context.Context, token string, since int, lang locale.Lang, notify func(), e Entry) (*Sub, error) {
	if e.Door == "" {
		e.Door = admission.DoorSeat
	}
	var sub *Sub
	var err error
	derr := r.do(ctx, func() {
		sub = &Sub{room: r, notify: notify, turnEnd: e.TurnEnd, group: e.TurnGroup, lang: lang}
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
		if err = r.policy().CanSit(ctx, r.seatWho(sub.Seat, e.Addr), r.sitTable(e.Door, sub.Host)); err != nil {
			return
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
		r.tellStoodIn(sub)
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
		if sub.Seat != 0 {
			r.startIfPresent()
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
