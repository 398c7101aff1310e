package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrLeaseHeld is returned by Leases.Acquire when another node holds the
// table's lease and it has not run out; the error is a *HeldError, which
// says who holds it and until when.
var ErrLeaseHeld = errors.New("store: the table's lease is held by another node")

// ErrLeaseLost is returned by Leases.Renew when the caller no longer holds
// the lease with that token: another node took it over (after it ran out),
// or it was released.
var ErrLeaseLost = errors.New("store: the table's lease was lost")

// ErrFenced is returned by a write of a table's state made under a fence
// (Fenced) whose token is no longer the one the table's lease carries:
// the lease passed to another node, and this node must not write the table
// again. It is ErrConflict too (errors.Is), so that a caller that handles a
// conflict (reload the table, or let it go) handles a fence the same way.
var ErrFenced = fmt.Errorf("store: fenced: the table's lease carries another token: %w", ErrConflict)

// Lease is one node's ownership of one table, until Expires.
type Lease struct {
	Table string
	Node  string // the node that holds it
	// Token is the lease's fencing token: each new owner of a table's
	// lease gets a strictly larger one than every token before it (of any
	// table), and a renewal keeps it. Writes fenced with a token (Fenced)
	// are refused once the lease carries another.
	Token int64
	// Expires is when the lease runs out unless renewed, by the database's
	// clock (see Leases): compare it with that clock, never with a node's.
	Expires time.Time
}

// HeldError is ErrLeaseHeld (errors.Is) with the lease that is held.
type HeldError struct {
	Lease Lease // who holds it, with which token, until when
}

// Error says who holds the lease and until when.
func (e *HeldError) Error() string {
	return fmt.Sprintf("store: the lease of table %q is held by node %q (token %d) until %s",
		e.Lease.Table, e.Lease.Node, e.Lease.Token, e.Lease.Expires.UTC().Format(time.RFC3339Nano))
}

// Is makes a HeldError match ErrLeaseHeld.
func (e *HeldError) Is(target error) bool { return target == ErrLeaseHeld }

// Leases is a Store that keeps table ownership leases, for a cluster of
// nodes on one database: each table is owned by one node at a time, which
// renews its lease well before it runs out; a node that stops renewing (it
// died, or it is paused) loses its tables to the others once their leases
// run out, and its fenced writes are refused from then on.
//
// Every time is the database's clock (now() in PostgreSQL; in SQLite, which
// one machine opens, that machine's): a lease runs out when the database
// says so, whatever the nodes' own clocks say, so that nodes whose clocks
// disagree still agree on who owns a table. A ttl is a duration added to
// that clock.
type Leases interface {
	// Acquire takes the lease of a table for node, for ttl: a lease that
	// is free (never taken, released) or has run out is taken with a new
	// token, strictly larger than every one before; node's own lease that
	// has not run out is renewed, keeping its token. A lease another node
	// holds that has not run out is refused with a *HeldError
	// (ErrLeaseHeld). A table that does not exist is ErrNotFound.
	Acquire(ctx context.Context, table, node string, ttl time.Duration) (Lease, error)
	// Renew extends l for ttl from now, keeping its token, while l's node
	// still holds the table's lease with l's token (also when it has run
	// out, so long as no node has taken it since); otherwise it is
	// ErrLeaseLost and nothing changes.
	Renew(ctx context.Context, l Lease, ttl time.Duration) (Lease, error)
	// RenewAll renews many leases in one write, as Renew renews each: the
	// leases returned are those still held by their node with their token,
	// extended for ttl from now (in no particular order); a lease missing
	// from them is lost (ErrLeaseLost for Renew). A node renews all its
	// tables' leases this way, one round trip whatever their number.
	RenewAll(ctx context.Context, ls []Lease, ttl time.Duration) ([]Lease, error)
	// Release gives the lease up, if l's node still holds it with l's
	// token (otherwise it does nothing): the table is free at once for
	// another node, and writes fenced with l's token are refused.
	Release(ctx context.Context, l Lease) error
	// Lease returns the table's lease as it is (which may have run out),
	// or ErrNotFound when nobody holds it.
	Lease(ctx context.Context, table string) (Lease, error)
	// Expired lists up to limit (<= 0: no limit) leases that have run out
	// by the database's clock, the longest run out first: the tables of
	// nodes that stopped renewing, which a surviving node takes over.
	Expired(ctx context.Context, limit int) ([]Lease, error)
}
