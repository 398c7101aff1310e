package admission

// This file holds today's seat rules behind the policy: what a join was
// refused for before the policy existed, gathered in one place.

import (
	"context"

	"mafia/engine"
)

// DefaultSeatsPerAddress is how many seats of one table may be taken from
// one person's network by default.
const DefaultSeatsPerAddress = 3

// Rules are the server's own seat rules, a Policy. At a join (DoorJoin):
// a sandbox seats its host only (CodeSandboxTable); a rated table seats
// accounts and bot accounts only (CodeRatedTable); a client or an address
// the host kicked may not sit again (CodeBlocked); and one person's share
// of a table is at most SeatsPerAddress seats, one at a rated table
// (CodeOwnSeatLimit, CodeSeatLimit: see share). The host's own join is
// neither blocked nor counted. The other doors let everyone in: a seat
// taken by a join is its holder's until they leave.
type Rules struct {
	// SeatsPerAddress bounds one person's seats at a table (0:
	// DefaultSeatsPerAddress; negative: no limit).
	SeatsPerAddress int
	// AddrsOf, if set, is the addresses a person's logins took seats from
	// lately, at any table (as Who.Addr writes them): the share links a
	// person to them as to their seats' own.
	AddrsOf func(person int64) []string
}

// CanSit applies the rules at a door.
func (r Rules) CanSit(_ context.Context, who Who, at Table) error {
	if at.Door != DoorJoin {
		return nil
	}
	if at.Sandbox && !at.Host {
		return &engine.Error{Code: CodeSandboxTable}
	}
	if at.Rated && who.Account == 0 {
		// Ratings are an account's: a guest has none to change.
		return &engine.Error{Code: CodeRatedTable}
	}
	if at.Host {
		return nil
	}
	if at.Blocked {
		return &engine.Error{Code: CodeBlocked}
	}
	limit := r.SeatsPerAddress
	if limit == 0 {
		limit = DefaultSeatsPerAddress
	}
	if limit < 0 {
		return nil
	}
	return r.share(who, at, limit)
}

// share refuses a join past one person's share of the table (limit
// seats; one at a rated table). A person is everyone the join is linked
// to, seat by seat: the seats taken from the join's address, those of the
// join's account and of the bot accounts its person owns, those of persons
// whose logins took seats from the same addresses lately (AddrsOf), and
// again from each of those seats' addresses and persons, so that one
// person with a second account, a second machine and their bots is one
// share. A share over its limit is refused with CodeOwnSeatLimit when the
// join's own person (its account, or its owner's) already sits in it,
// else with CodeSeatLimit (another seat from its network). An unlimited
// address (Who.Unlimited) links by accounts only.
func (r Rules) share(who Who, at Table, limit int) error {
	if at.Rated {
		limit = 1 // one person, one seat, at a table that changes ratings
	}
	person := who.Person()
	addrs, persons := map[string]bool{}, map[int64]bool{}
	if who.Addr != "" && !who.Unlimited {
		addrs[who.Addr] = true
	}
	seen := func(p int64) []string {
		if p == 0 || r.AddrsOf == nil {
			return nil
		}
		return r.AddrsOf(p)
	}
	if person != 0 {
		persons[person] = true
		for _, a := range seen(person) {
			addrs[a] = true
		}
	}
	in := make([]bool, len(at.Seats))
	n, own := 0, false
	for grown := true; grown; {
		grown = false
		for s, st := range at.Seats {
			if in[s] {
				continue
			}
			p := st.Person()
			pseen := seen(p)
			linked := (st.Addr != "" && !st.Unlimited && addrs[st.Addr]) || (p != 0 && persons[p])
			for _, a := range pseen {
				linked = linked || addrs[a]
			}
			if !linked {
				continue
			}
			in[s], grown = true, true
			n++
			own = own || (p != 0 && p == person)
			if st.Addr != "" && !st.Unlimited {
				addrs[st.Addr] = true
			}
			if p != 0 {
				persons[p] = true
			}
			for _, a := range pseen {
				addrs[a] = true
			}
		}
	}
	if n < limit {
		return nil
	}
	if own {
		return &engine.Error{Code: CodeOwnSeatLimit, N: limit}
	}
	return &engine.Error{Code: CodeSeatLimit, N: limit}
}
