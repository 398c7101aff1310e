// Package admission owns who may sit where: the one policy (Policy, its
// method CanSit) that every door a player comes in by consults — a join
// (a seat asked for), a seat's connection, a login and a relayed session
// of a cluster — and today's rules behind it (Rules: a sandbox's and a
// rated table's seats, the host's blocks, one person's share of a table
// across their accounts, their bot accounts and their addresses).
// Moderation (a ban list, a suspension) is another Policy put in front of
// Rules (Chain), never a branch in one door.
//
// Rules are pure: no clock, no I/O, no goroutines (the package imports
// context only for the Policy's signature, for a moderation policy's own
// use). A Policy is called on the table's goroutine at a join and a seat's
// connection, so one that reads a store keeps what it reads in memory (a
// ban list is a set).
package admission

import (
	"context"

	"mafia/engine"
)

// Refusal codes of the seat rules (catalog id "error.<code>"); package
// room names them too, as ever.
const (
	// CodeRatedTable: a rated table seats accounts and bot accounts only.
	CodeRatedTable engine.Code = "rated_table"
	// CodeOwnSeatLimit: the asker's own person already takes N seats here.
	CodeOwnSeatLimit engine.Code = "own_seat_limit"
	// CodeSeatLimit: N seats of this table are taken from the asker's
	// network (its address, and whoever is linked to it).
	CodeSeatLimit engine.Code = "seat_limit"
	// CodeBlocked: the host kicked this client (or its address) from the
	// table; it may not sit here again.
	CodeBlocked engine.Code = "blocked"
	// CodeSandboxTable: a sandbox seats its creator and bots only.
	CodeSandboxTable engine.Code = "sandbox_table"
	// CodeBarred: a policy in front of the rules (moderation) bars the
	// asker from the server's tables.
	CodeBarred engine.Code = "barred"
)

// Kinds are the kinds of the package's codes: every one is a refusal of
// who the asker is (403).
var Kinds = map[engine.Code]engine.Kind{
	CodeRatedTable: engine.KindForbidden, CodeOwnSeatLimit: engine.KindForbidden, CodeSeatLimit: engine.KindForbidden,
	CodeBlocked: engine.KindForbidden, CodeSandboxTable: engine.KindForbidden, CodeBarred: engine.KindForbidden,
}

// Door is the way a player comes in, which a Policy is told.
type Door string

// The doors.
const (
	// DoorJoin: a seat asked for (POST /api/tables/{id}/join).
	DoorJoin Door = "join"
	// DoorSeat: a seat's (or the host's) WebSocket to its table.
	DoorSeat Door = "seat"
	// DoorLogin: a login to an account (no table).
	DoorLogin Door = "login"
	// DoorRelay: a seat's WebSocket relayed to its table's owner by
	// another node of a cluster.
	DoorRelay Door = "relay"
)

// Who is whoever asks to sit, as the seat rules see them.
type Who struct {
	// Account is the account (0: a guest, or a connection the table
	// knows by token only); Bot: it is a bot account, which Owner owns.
	Account int64
	Bot     bool
	Owner   int64
	// Addr is the client's network address as the server keys it ("":
	// unknown); Unlimited: the operator exempts it from the seat limit
	// (--unlimited), so that its seats link by accounts only.
	Addr      string
	Unlimited bool
	// Client is the hash of the client's long-lived id ("": none).
	Client string
}

// Person is the account the asker is a person as: the account's own, or a
// bot account's owner (0: a guest).
func (w Who) Person() int64 {
	if w.Account != 0 && w.Bot {
		return w.Owner
	}
	return w.Account
}

// Table is the table a player asks to sit at, as a Policy sees it at the
// door (the zero Table at a login: no table).
type Table struct {
	// ID is the table's id ("" at a login).
	ID   string
	Door Door
	// Rated and Sandbox are the table's kind.
	Rated, Sandbox bool
	// Host: the asker holds the table's host token (the host's own seat is
	// neither limited nor blocked).
	Host bool
	// Blocked: the host kicked the asker's client or address from the
	// table.
	Blocked bool
	// Seats are the persons seated now (a join's share counts them).
	Seats []Who
}

// Policy decides whether who may come in at a door of table: nil, or a
// coded refusal (an *engine.Error the catalogs have a sentence for).
type Policy interface {
	CanSit(ctx context.Context, who Who, at Table) error
}

// Func is a Policy of a function.
type Func func(ctx context.Context, who Who, at Table) error

// CanSit calls f.
func (f Func) CanSit(ctx context.Context, who Who, at Table) error { return f(ctx, who, at) }

// Chain is a Policy of several, consulted in order: the first refusal is
// the answer (moderation in front of Rules).
type Chain []Policy

// CanSit asks each policy of c in turn.
func (c Chain) CanSit(ctx context.Context, who Who, at Table) error {
	for _, p := range c {
		if p == nil {
			continue
		}
		if err := p.CanSit(ctx, who, at); err != nil {
			return err
		}
	}
	return nil
}
