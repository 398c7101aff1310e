package store

import (
	"context"
	"time"
)

// SeenAddrs is a Store that remembers, for a while, the client addresses
// each account's logins took seats from (as the seat limits key them), so
// that every node of a cluster, and a node after a restart, counts a
// person's accounts together with the accounts seen at their address. It
// is bounded: an account keeps its newest few addresses, and none past
// their time.
type SeenAddrs interface {
	// SeeAddr records that account took a seat (or asked for one) from
	// addr at at; the account keeps its newest keep addresses, and the
	// store forgets (some of) the addresses of any account seen before
	// at less forget.
	SeeAddr(ctx context.Context, account int64, addr string, at time.Time, keep int, forget time.Duration) error
	// AddrsSeen is the addresses account was seen at since since, newest
	// first.
	AddrsSeen(ctx context.Context, account int64, since time.Time) ([]SeenAddr, error)
}

// SeenAddr is one address an account was seen at, and when last.
type SeenAddr struct {
	Addr string
	At   time.Time
}
