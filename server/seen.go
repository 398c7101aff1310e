package server

// This file remembers, for a while, the addresses each account's logins
// took seats from, so that the seat limits count a person's accounts
// together with the accounts seen at their address (room.Config.AddrsOf):
// a second account from the farmer's machine is the farmer's share, even
// when its bot joins from elsewhere.

import (
	"sync"
	"time"
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
