package room

// This file consults the table's policy of who may sit (package admission)
// at the room's doors: a join (seats.go) and a seat's connection
// (attach.go, whether direct or relayed by another node of a cluster).

import (
	"mafia/admission"
	"mafia/engine"
)

// policy is the table's policy: Config.Policy (moderation) in front of
// the seat rules.
func (r *Room) policy() admission.Policy {
	return admission.Chain{r.cfg.Policy, admission.Rules{SeatsPerAddress: r.cfg.SeatsPerAddress, AddrsOf: r.cfg.AddrsOf}}
}

// sitTable is the table as the policy sees it at door: its kind and the
// persons seated now, at a join (a server's bot's seat and an empty one
// are no person's). host: the asker holds the host's token.
func (r *Room) sitTable(door admission.Door, host bool) admission.Table {
	at := admission.Table{ID: r.id, Door: door, Rated: r.set.Rated, Sandbox: r.set.Sandbox != nil, Host: host}
	for s := 1; s < len(r.seats) && door == admission.DoorJoin; s++ {
		if st := r.seats[s]; !st.bot && st.tokenHash != "" {
			at.Seats = append(at.Seats, st.who())
		}
	}
	return at
}

// who is the person a seat was taken by, as the policy sees them.
func (st seatState) who() admission.Who {
	return admission.Who{Account: st.account, Bot: st.botAccount, Owner: st.owner, Addr: st.addr,
		Unlimited: st.freeAddr, Client: st.client}
}

// seatWho is who comes in at a seat's connection: the seat's person (none
// for a spectator), from the connection's address.
func (r *Room) seatWho(seat engine.Seat, addr string) admission.Who {
	var who admission.Who
	if seat != 0 {
		who = r.seats[seat].who()
	}
	who.Addr = addr
	return who
}
