package server

// This file remembers, for a while, the addresses each account's logins
// took seats from, so that the seat limits count a person's accounts
// together with the accounts seen at their address (room.Config.AddrsOf):
// a second account from the farmer's machine is the farmer's share, even
// when its bot joins from elsewhere.
//
// The memory is the node's, read by the rooms without waiting (AddrsOf
// runs in a room's goroutine); where the store keeps addresses too
// (store.SeenAddrs), each login's join writes its address through to it,
// and a join first reads back what every node saw of the joining person,
// so that a cluster's nodes, and a node after its restart, count alike.
// Both are bounded: seenPerAccount addresses an account, none kept past
// seenFor; the store forgets the stale ones as it writes.

import (
	"context"
	"sync"
	"time"

	"mafia/store"
)

// seenFor is how long an address is remembered for an account; seenPerAccount
// and seenAccounts bound what is kept.
const (
	seenFor        = 24 * time.Hour
	seenPerAccount = 8
	seenAccounts   = 100_000
)

// seenAddrs is the addresses (httpguard.Key, as the seat limits write
// them) each account took a seat from lately. Safe from any goroutine.
type seenAddrs struct {
	mu sync.Mutex
	m  map[int64][]seenAddr
}

type seenAddr struct {
	addr string
	at   time.Time
}

// add records that account took a seat (or asked for one) from addr.
func (sa *seenAddrs) add(account int64, addr string, now time.Time) {
	if account == 0 || addr == "" {
		return
	}
	sa.mu.Lock()
	defer sa.mu.Unlock()
	sa.addLocked(account, addr, now)
}

// merge adds what the store saw of an account (its times, not now).
func (sa *seenAddrs) merge(account int64, seen []store.SeenAddr, now time.Time) {
	sa.mu.Lock()
	defer sa.mu.Unlock()
	for i := len(seen) - 1; i >= 0; i-- { // oldest first: the newest are kept
		if now.Sub(seen[i].At) < seenFor && !sa.hasLocked(account, seen[i].Addr, seen[i].At) {
			sa.addLocked(account, seen[i].Addr, seen[i].At)
		}
	}
}

// hasLocked reports whether account's memory has addr as of at or later.
func (sa *seenAddrs) hasLocked(account int64, addr string, at time.Time) bool {
	for _, s := range sa.m[account] {
		if s.addr == addr && !s.at.Before(at) {
			return true
		}
	}
	return false
}

func (sa *seenAddrs) addLocked(account int64, addr string, now time.Time) {
	if sa.m == nil || len(sa.m) >= seenAccounts {
		sa.m = map[int64][]seenAddr{} // a flood of accounts starts the memory over
	}
	kept := sa.m[account][:0]
	for _, s := range sa.m[account] {
		if s.addr != addr && now.Sub(s.at) < seenFor {
			kept = append(kept, s)
		}
	}
	if len(kept) >= seenPerAccount {
		kept = kept[1:]
	}
	sa.m[account] = append(kept, seenAddr{addr: addr, at: now})
}

// of returns the addresses account took seats from lately.
func (sa *seenAddrs) of(account int64) []string {
	sa.mu.Lock()
	defer sa.mu.Unlock()
	now := time.Now()
	var out []string
	for _, s := range sa.m[account] {
		if now.Sub(s.at) < seenFor {
			out = append(out, s.addr)
		}
	}
	return out
}

// seeAddr records that a login's account took a seat (or asked for one)
// from addr: in the node's memory, and in the store (store.SeenAddrs),
// after reading back what the store saw of person (the account
// whose share the join counts in: the account's, or a bot's owner's). A
// store that fails costs the join nothing but the other nodes' memory: it
// is logged, and the join goes on with this node's.
func (s *Server) seeAddr(ctx context.Context, person, account int64, addr string, now time.Time) {
	if person != 0 {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		if got, err := s.cfg.Store.AddrsSeen(ctx, person, now.Add(-seenFor)); err != nil {
			s.log.Warn("addresses seen: read", "err", err)
		} else {
			s.guards.seen.merge(person, got, now)
		}
	}
	if account == 0 || addr == "" {
		return
	}
	s.guards.seen.add(account, addr, now)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := s.cfg.Store.SeeAddr(ctx, account, addr, now, seenPerAccount, seenFor); err != nil {
		s.log.Warn("addresses seen: write", "err", err)
	}
}
