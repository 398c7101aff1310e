package room

// This file seats and unseats players in the lobby: join, leave, and the
// seats' record in the store.

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"mafia/engine"
)

// MaxName is the longest display name, in characters.
const MaxName = 32

// Join seats a player by display name: in seat (0: the first free one). A
// caller holding the host's token (hostToken) becomes the host's seat. It
// returns the seat and its secret token.
func (r *Room) Join(ctx context.Context, name string, seat int, hostToken string) (int, string, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxName {
		return 0, "", errCode(CodeNameRequired)
	}
	var got int
	var tok string
	var err error
	derr := r.do(ctx, func() {
		if r.game != nil {
			err = errCode(CodeAlreadyStarted)
			return
		}
		if seat == 0 {
			for s := 1; s < len(r.seats); s++ {
				if !r.seats[s].bot && r.seats[s].tokenHash == "" {
					seat = s
					break
				}
			}
			if seat == 0 {
				err = errCode(CodeTableFull)
				return
			}
		}
		if seat < 1 || seat >= len(r.seats) {
			err = &engine.Error{Code: engine.CodeNoSuchSeat, Seat: engine.Seat(min(seat, 255)), N: len(r.seats) - 1}
			return
		}
		if r.seats[seat].bot || r.seats[seat].tokenHash != "" {
			err = &engine.Error{Code: CodeSeatTaken, Seat: engine.Seat(seat)}
			return
		}
		tok = NewToken()
		if hostToken != "" && HashToken(hostToken) == r.table.HostToken && r.hostSeat == 0 {
			// The host's seat is reached with the host's own token.
			tok = hostToken
			r.hostSeat = engine.Seat(seat)
		}
		prev := r.seats[seat]
		r.seats[seat] = seatState{name: name, tokenHash: HashToken(tok)}
		if err = r.saveSeats(); err != nil {
			// A seat the store does not have would refuse its token after
			// a restart: it is not given.
			r.seats[seat] = prev
			if r.hostSeat == engine.Seat(seat) {
				r.hostSeat = 0
			}
			return
		}
		got = seat
		r.broadcastLobby()
	})
	if derr != nil {
		return 0, "", derr
	}
	if err != nil {
		return 0, "", err
	}
	return got, tok, nil
}

// Leave frees a seat before the game starts.
func (r *Room) Leave(ctx context.Context, token string) error {
	var err error
	derr := r.do(ctx, func() {
		if r.game != nil {
			err = errCode(CodeAlreadyStarted)
			return
		}
		s := r.seatByHash(HashToken(token))
		if s == 0 {
			err = errCode(CodeBadToken)
			return
		}
		// Saved first: a seat the store still holds is not given back.
		prev := r.seats[s]
		r.seats[s] = seatState{}
		err = r.saveSeats()
		r.seats[s] = prev
		if err != nil {
			return
		}
		for sub := range r.subs {
			if sub.Seat == s {
				r.drop(sub)
			}
		}
		if s == r.hostSeat {
			r.hostSeat = 0
		}
		r.seats[s] = seatState{} // as saved
		r.broadcastLobby()
	})
	if derr != nil {
		return derr
	}
	return err
}

// saveSeats writes the seats to the store; a failure is logged and
// refused with CodeInternal, and the caller undoes the change.
func (r *Room) saveSeats() error {
	ctx, cancel := r.ctx()
	defer cancel()
	if err := r.cfg.Store.SaveSeats(ctx, r.id, r.storeSeats()); err != nil {
		r.cfg.Log.Error("save seats", "err", err)
		return errCode(CodeInternal)
	}
	return nil
}

func botName(s int) string { return "Bot " + strconv.Itoa(s) }
