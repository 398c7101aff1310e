package room

// This file holds a table's reserved seats and its start condition
// (Settings.Reserved, Settings.StartBy): a seat held for one account,
// which nobody else may take (anyone may still watch); a game that starts
// by itself once every seat is taken and each reserved seat's person is
// connected; and, at StartBy, the seats still free given to the server's
// bots and the game started all the same. A club's tournament opens its
// round's tables so (docs/club.md, Online tournaments); the room knows
// nothing of tournaments beyond this.

import (
	"context"
	"time"

	"mafia/engine"
)

// CodeSeatReserved refuses a seat held for another account (Seat: the
// seat), or a join with no seat asked for at a table whose free seats are
// all held for others.
const CodeSeatReserved engine.Code = "seat_reserved"

// MaxStartWait is the longest a table with reserved seats may wait for its
// players before its free seats take bots.
const MaxStartWait = time.Hour

// reserved reports whether the table holds seats for accounts.
func (s *Settings) reserved() bool { return len(s.Reserved) > 0 }

// checkReserved refuses reserved seats that do not fit the table: one
// account per seat at most, each account once.
func (s *Settings) checkReserved() error {
	if !s.reserved() {
		if !s.StartBy.IsZero() {
			return &engine.Error{Code: CodeBadRequest, Name: "start_by"}
		}
		return nil
	}
	if len(s.Reserved) != s.Setup.Players() || s.Sandbox != nil {
		return &engine.Error{Code: CodeBadRequest, Name: "reserved"}
	}
	seen := map[int64]bool{}
	for _, a := range s.Reserved {
		if a < 0 || (a != 0 && seen[a]) {
			return &engine.Error{Code: CodeBadRequest, Name: "reserved"}
		}
		seen[a] = a != 0
	}
	return nil
}

// reservedSeat checks a join against the reservations (on the room's
// goroutine): the seat the join gets (0: the first free one as before),
// or a refusal. An account a seat is held for gets that seat.
func (r *Room) reservedSeat(req JoinRequest) (int, error) {
	if !r.set.reserved() {
		return req.Seat, nil
	}
	own := 0
	for i, a := range r.set.Reserved {
		if a != 0 && a == req.Account {
			own = i + 1
		}
	}
	switch {
	case own != 0 && (req.Seat == 0 || req.Seat == own):
		return own, nil
	case req.Seat != 0:
		if req.Seat >= 1 && req.Seat <= len(r.set.Reserved) && r.set.Reserved[req.Seat-1] != 0 {
			return 0, &engine.Error{Code: CodeSeatReserved, Seat: engine.Seat(req.Seat)}
		}
		return req.Seat, nil
	}
	for s := 1; s < len(r.seats); s++ {
		if r.set.Reserved[s-1] == 0 && !r.seats[s].bot && r.seats[s].tokenHash == "" {
			return s, nil
		}
	}
	return 0, &engine.Error{Code: CodeSeatReserved}
}

// startIfPresent starts a table with reserved seats once every seat is
// taken and each person's seat is connected (bots are always there).
func (r *Room) startIfPresent() {
	if !r.set.reserved() || r.game != nil || r.stopping {
		return
	}
	for s := 1; s < len(r.seats); s++ {
		st := r.seats[s]
		if !st.bot && (st.tokenHash == "" || st.conns == 0) {
			return
		}
	}
	if err := r.start(); err != nil {
		r.cfg.Log.Error("start a table whose players are present", "err", err)
	}
}

// watchStartBy schedules the table's StartBy (at creation and resume).
func (r *Room) watchStartBy() {
	if !r.set.reserved() || r.set.StartBy.IsZero() || r.game != nil {
		return
	}
	r.later(max(r.set.StartBy.Sub(r.cfg.Clock.Now()), 0), func() {
		if r.game == nil {
			r.fillAndStart()
		}
	})
}

// fillAndStart gives every free seat to a server's bot and starts the game
// (on the room's goroutine). A seat taken whose person is not connected
// stays theirs: the stand-in rule (standin.go) plays it while they are
// away.
func (r *Room) fillAndStart() error {
	if r.game != nil {
		return errCode(CodeAlreadyStarted)
	}
	prev := append([]seatState(nil), r.seats...)
	for s := 1; s < len(r.seats); s++ {
		if !r.seats[s].bot && r.seats[s].tokenHash == "" {
			r.seats[s] = seatState{name: botName(s), bot: true}
		}
	}
	if err := r.saveSeats(); err != nil {
		copy(r.seats, prev)
		return err
	}
	r.broadcastLobby()
	return r.start()
}

// StartNow is StartBy come early, for a table with reserved seats: the
// seats still free take the server's bots and the game starts
// (CodeAlreadyStarted if it has; CodeBadRequest at a table with no
// reserved seats).
func (r *Room) StartNow(ctx context.Context) error {
	var err error
	derr := r.do(ctx, func() {
		if !r.set.reserved() {
			err = &engine.Error{Code: CodeBadRequest, Name: "reserved"}
			return
		}
		err = r.fillAndStart()
	})
	if derr != nil {
		return derr
	}
	return err
}
