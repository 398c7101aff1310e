package room

// This file seats and unseats players in the lobby: join, leave, and the
// seats' record in the store.

import (
	"context"
	"strconv"

	"mafia/engine"
)

// JoinRequest is one request for a seat.
type JoinRequest struct {
	Name string // the display name
	Seat int    // the seat asked for; 0: the first free one
	// Token is the token the request carried, if any: with the host's
	// token the seat becomes the host's seat.
	Token string
	// Client is the client's long-lived id (the server's client cookie),
	// "" if it has none; Addr is the client's network address as the
	// server keys it, "" if unknown.
	Client string
	Addr   string
}

// Join seats a player by display name: in the seat asked for (0: the first
// free one). A caller holding the host's token becomes the host's seat. It
// returns the seat and its secret token.
func (r *Room) Join(ctx context.Context, req JoinRequest) (int, string, error) {
	seat, hostToken := req.Seat, req.Token
	name, err := CheckName(req.Name)
	if err != nil {
		return 0, "", err
	}
	var got int
	var tok string
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
			err = noSuchSeat(seat, len(r.seats)-1)
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
		r.seats[seat] = seatState{name: name, tokenHash: HashToken(tok)}
		got = seat
		r.saveSeats()
		r.broadcastLobby()
	})
	if derr != nil {
		return 0, "", derr
	}
	return got, tok, err
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
		for sub := range r.subs {
			if sub.Seat == s {
				r.drop(sub)
			}
		}
		if s == r.hostSeat {
			r.hostSeat = 0
		}
		r.seats[s] = seatState{}
		r.saveSeats()
		r.broadcastLobby()
	})
	if derr != nil {
		return derr
	}
	return err
}

func (r *Room) saveSeats() {
	ctx, cancel := r.ctx()
	defer cancel()
	if err := r.cfg.Store.SaveSeats(ctx, r.id, r.storeSeats()); err != nil {
		r.cfg.Log.Error("save seats", "err", err)
	}
}

func botName(s int) string { return "Bot " + strconv.Itoa(s) }
