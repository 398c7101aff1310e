package room

// This file seats and unseats players in the lobby: join, leave, and the
// seats' record in the store.

import (
	"context"
	"strconv"

	"mafia/admission"
	"mafia/engine"
	"mafia/internal/secret"
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
	// Account is the account the player is logged in as (0: a guest);
	// Name is then the account's name. BotAccount: the account is a bot
	// an account owns, and the seat is shown as a bot's. An account
	// takes one seat at a table.
	Account    int64
	BotAccount bool
	// Owner is the account that owns the bot account (0 unless
	// BotAccount), OwnerName its name: a person and the bot accounts they
	// own are one person for the seat limits (withinSeatLimit), and the
	// table sees whose bot the seat is (wire.SeatInfo.Owner).
	Owner     int64
	OwnerName string
	// Unlimited: the request's address is exempt from the seat limit
	// (the operator's --unlimited, e.g. a load generator): its seats count
	// by their accounts only.
	Unlimited bool
}

// Join seats a player by display name: in the seat asked for (0: the first
// free one). A caller holding the host's token becomes the host's seat. It
// returns the seat and its secret token.
//
// One person, one seat: a request that carries a seat's token (or the
// host's, once the host sits) is answered with that seat, never given a
// second one (CodeAlreadySeated if it asks for another); a client id that
// holds a seat here gets no other. Then the table's policy decides
// (policy.go): the seat rules (admission.Rules: at most
// Config.SeatsPerAddress seats of one person's network, CodeSeatLimit; a
// client or an address the host kicked may not sit here again,
// CodeBlocked; a rated table's and a sandbox's seats) behind whatever
// Config.Policy puts in front of them.
func (r *Room) Join(ctx context.Context, req JoinRequest) (int, string, error) {
	name, err := CheckName(req.Name)
	if err != nil {
		return 0, "", err
	}
	var got int
	var tok string
	derr := r.do(ctx, func() { got, tok, err = r.join(name, req) })
	if derr != nil {
		return 0, "", derr
	}
	if err != nil {
		return 0, "", err
	}
	return got, tok, nil
}

// join is Join on the room's goroutine, with the name checked.
func (r *Room) join(name string, req JoinRequest) (int, string, error) {
	if r.game != nil {
		return 0, "", errCode(CodeAlreadyStarted)
	}
	isHost := req.Token != "" && secret.Hash(req.Token) == r.table.HostToken
	if held := r.heldBy(req.Token); held != 0 {
		if req.Seat != 0 && req.Seat != int(held) {
			return 0, "", &engine.Error{Code: CodeAlreadySeated, Seat: held}
		}
		return int(held), req.Token, nil
	}
	if req.Account != 0 {
		for s := 1; s < len(r.seats); s++ {
			if r.seats[s].account == req.Account {
				return 0, "", &engine.Error{Code: CodeAlreadySeated, Seat: engine.Seat(s)}
			}
		}
	}
	client := ""
	if req.Client != "" {
		client = secret.Hash(req.Client)
		for s := 1; s < len(r.seats); s++ {
			if r.seats[s].client == client {
				return 0, "", &engine.Error{Code: CodeAlreadySeated, Seat: engine.Seat(s)}
			}
		}
	}
	// Who may sit here is the table's policy's to say (policy.go): the
	// seat rules, and whatever moderation is put in front of them.
	who := admission.Who{Account: req.Account, Bot: req.Account != 0 && req.BotAccount, Owner: req.Owner,
		Addr: req.Addr, Unlimited: req.Unlimited, Client: client}
	at := r.sitTable(admission.DoorJoin, isHost)
	at.Blocked = (client != "" && r.blocked["c"+client]) || (req.Addr != "" && r.blocked["a"+req.Addr])
	if err := r.policy().CanSit(context.Background(), who, at); err != nil {
		return 0, "", err
	}
	name = r.distinctName(name)
	seat, err := r.reservedSeat(req)
	if err != nil {
		return 0, "", err
	}
	if seat == 0 {
		for s := 1; s < len(r.seats); s++ {
			if !r.seats[s].bot && r.seats[s].tokenHash == "" {
				seat = s
				break
			}
		}
		if seat == 0 {
			return 0, "", errCode(CodeTableFull)
		}
	}
	if seat < 1 || seat >= len(r.seats) {
		return 0, "", noSuchSeat(seat, len(r.seats)-1)
	}
	if r.seats[seat].bot || r.seats[seat].tokenHash != "" {
		return 0, "", &engine.Error{Code: CodeSeatTaken, Seat: engine.Seat(seat)}
	}
	tok := secret.Token()
	prev, prevHost := r.seats[seat], r.hostSeat
	if isHost {
		// The host's seat is reached with the host's own token (the host
		// has none yet: heldBy found none).
		tok = req.Token
		r.hostSeat = engine.Seat(seat)
	}
	r.seats[seat] = seatState{name: name, tokenHash: secret.Hash(tok), client: client, addr: req.Addr, freeAddr: req.Unlimited,
		account: req.Account, botAccount: req.Account != 0 && req.BotAccount}
	if r.seats[seat].botAccount {
		r.seats[seat].owner, r.seats[seat].ownerName = req.Owner, req.OwnerName
	}
	if err := r.saveSeats(); err != nil {
		// A seat the store does not have would refuse its token after a
		// restart: it is not given.
		r.seats[seat], r.hostSeat = prev, prevHost
		return 0, "", err
	}
	r.broadcastLobby()
	r.watchAbsence() // a join restarts the count of a lobby nobody is connected to
	r.startIfPresent()
	return seat, tok, nil
}

// heldBy is the seat a token holds: a seat's token its seat, the host's
// token the host's seat; 0 for none (no token, a token of no seat here, or
// the host's while the host has no seat).
func (r *Room) heldBy(token string) engine.Seat {
	if token == "" {
		return 0
	}
	h := secret.Hash(token)
	if h == r.table.HostToken {
		return r.hostSeat
	}
	return r.seatByHash(h)
}

// block keeps whoever took a seat (their client id and address) from
// taking a seat at this table again.
func (r *Room) block(st seatState) {
	if r.blocked == nil {
		r.blocked = map[string]bool{}
	}
	if st.client != "" {
		r.blocked["c"+st.client] = true
	}
	if st.addr != "" {
		r.blocked["a"+st.addr] = true
	}
}

// Leave frees a seat before the game starts.
func (r *Room) Leave(ctx context.Context, token string) error {
	var err error
	derr := r.do(ctx, func() {
		if r.game != nil {
			err = errCode(CodeAlreadyStarted)
			return
		}
		s := r.seatByHash(secret.Hash(token))
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
				r.drop(sub, CodeSeatLeft)
			}
		}
		if s == r.hostSeat {
			r.hostSeat = 0
		}
		r.seats[s] = seatState{} // as saved
		r.broadcastLobby()
		r.watchAbsence()
	})
	if derr != nil {
		return derr
	}
	return err
}

// saveSeats writes the seats to the store; a failure is logged and
// refused with CodeInternal, and the caller undoes the change.
func (r *Room) saveSeats() error {
	if err := r.movedErr(); err != nil {
		return err
	}
	ctx, cancel := r.ctx()
	defer cancel()
	if err := r.cfg.Store.SaveSeats(ctx, r.id, r.storeSeats()); err != nil {
		if r.fencedOut(err) {
			return errCode(CodeMoved)
		}
		r.cfg.Log.Error("save seats", "err", err)
		return errCode(CodeInternal)
	}
	return nil
}

func botName(s int) string { return "Bot " + strconv.Itoa(s) }
