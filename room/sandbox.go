package room

// This file holds the sandbox: a table for a bot author's tests, for its
// creator and the server's bots only, whose deal (or one seat's card) is
// fixed by the create request (docs/protocol.md, "Sandbox tables").

import (
	"strconv"

	"mafia/admission"
	"mafia/engine"
)

// Sandbox fixes a table's deal, so that a bot can be tested as a given card
// without dealing again and again. Exactly one of Deal and Card is given.
// A sandbox table takes no person but its creator (CodeSandboxTable) and is
// never public (CodeSandboxPublic); its lobby and its record say so.
type Sandbox struct {
	// Deal is every seat's card, seat 1's first, by role name ("don",
	// "mafia", "maniac", "detective", "doctor", "citizen"): exactly the
	// table's setup, in the order wanted.
	Deal []string `json:"deal,omitempty"`
	// Card is one seat's card, by role name: one of the table's setup.
	// The other cards are dealt from the rest of the setup by the game's
	// seed.
	Card string `json:"card,omitempty"`
	// Seat is the seat that gets Card; 0: the host's seat at the start
	// (the start is refused with CodeSandboxNoSeat while the host has
	// none).
	Seat int `json:"seat,omitempty"`
}

// The sandbox's refusals.
const (
	// CodeSandboxTable: a join to a sandbox without the host's token.
	CodeSandboxTable = admission.CodeSandboxTable
	// CodeSandboxPublic: a sandbox asked to be listed.
	CodeSandboxPublic engine.Code = "sandbox_public"
	// CodeSandboxDealOrCard: a sandbox with neither a deal nor a card, or
	// with both (or a seat beside a deal).
	CodeSandboxDealOrCard engine.Code = "sandbox_deal_or_card"
	// CodeSandboxDealSize: a deal of Value cards for a table of N seats.
	CodeSandboxDealSize engine.Code = "sandbox_deal_size"
	// CodeSandboxDealRoles: a deal whose cards are not the table's setup:
	// the setup has N of Role, the deal Value.
	CodeSandboxDealRoles engine.Code = "sandbox_deal_roles"
	// CodeSandboxCard: a card (Role) the table's setup does not deal.
	CodeSandboxCard engine.Code = "sandbox_card"
	// CodeSandboxNoSeat: the start of a sandbox whose card is the host's,
	// while the host has no seat.
	CodeSandboxNoSeat engine.Code = "sandbox_no_seat"
)

// check validates the sandbox against the table's setup: a name that is
// no role is engine.CodeUnknownRole (Name), a seat off the table
// engine.CodeNoSuchSeat.
func (sb *Sandbox) check(setup engine.Setup) error {
	hasDeal, hasCard := len(sb.Deal) > 0, sb.Card != ""
	if hasDeal == hasCard || (hasDeal && sb.Seat != 0) {
		return errCode(CodeSandboxDealOrCard)
	}
	n := setup.Players()
	if hasCard {
		role, ok := engine.ParseRole(sb.Card)
		if !ok {
			return &engine.Error{Code: engine.CodeUnknownRole, Name: sb.Card}
		}
		if count(setup, role) == 0 {
			return &engine.Error{Code: CodeSandboxCard, Role: role}
		}
		if sb.Seat < 0 || sb.Seat > n {
			return noSuchSeat(sb.Seat, n)
		}
		return nil
	}
	roles := make([]engine.Role, len(sb.Deal))
	for i, name := range sb.Deal {
		role, ok := engine.ParseRole(name)
		if !ok {
			return &engine.Error{Code: engine.CodeUnknownRole, Name: name}
		}
		roles[i] = role
	}
	if len(roles) != n {
		return &engine.Error{Code: CodeSandboxDealSize, N: n, Value: strconv.Itoa(len(roles))}
	}
	got := engine.SetupOf(roles)
	for _, role := range []engine.Role{engine.Don, engine.Mafioso, engine.Maniac, engine.Detective, engine.Doctor, engine.Citizen} {
		if want, have := count(setup, role), count(got, role); want != have {
			return &engine.Error{Code: CodeSandboxDealRoles, Role: role, N: want, Value: strconv.Itoa(have)}
		}
	}
	return nil
}

// count is how many cards of role a setup deals.
func count(s engine.Setup, role engine.Role) int {
	switch role {
	case engine.Don:
		return s.Don
	case engine.Mafioso:
		return s.Mafia
	case engine.Maniac:
		return s.Maniac
	case engine.Detective:
		return s.Detective
	case engine.Doctor:
		return s.Doctor
	case engine.Citizen:
		return s.Citizens
	}
	return 0
}

// deal returns the cards the game starts with, seat 1's first, and the
// seed it records: a table's random deal from seed; a sandbox's deal as
// given (seed 0: no seed dealt it); a sandbox's card at its seat, the rest
// of the setup dealt by seed around it. host is the host's seat (0: none).
func (set *Settings) deal(seed uint64, host engine.Seat) ([]engine.Role, uint64, error) {
	sb := set.Sandbox
	switch {
	case sb == nil:
		return set.Setup.Deal(seed, nil), seed, nil
	case len(sb.Deal) > 0:
		roles := make([]engine.Role, len(sb.Deal))
		for i, name := range sb.Deal {
			roles[i], _ = engine.ParseRole(name) // checked when the table was made
		}
		return roles, 0, nil
	}
	seat := sb.Seat
	if seat == 0 {
		seat = int(host)
	}
	if seat == 0 {
		return nil, 0, errCode(CodeSandboxNoSeat)
	}
	card, _ := engine.ParseRole(sb.Card)
	rest := set.Setup
	switch card {
	case engine.Don:
		rest.Don--
	case engine.Mafioso:
		rest.Mafia--
	case engine.Maniac:
		rest.Maniac--
	case engine.Detective:
		rest.Detective--
	case engine.Doctor:
		rest.Doctor--
	case engine.Citizen:
		rest.Citizens--
	}
	others := rest.Deal(seed, nil)
	roles := make([]engine.Role, 0, len(others)+1)
	roles = append(roles, others[:seat-1]...)
	roles = append(roles, card)
	return append(roles, others[seat-1:]...), seed, nil
}
