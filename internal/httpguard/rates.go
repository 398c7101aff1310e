package httpguard

// This file is a per-address request rate: a token bucket for each client
// address (by Key), whose numbers the caller chooses.

import (
	"math"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Rates bounds the requests of each client address (by Key): Every a
// second, in bursts of Burst. Its methods are safe from any goroutine; it
// forgets an address whose bucket is full again, so it holds only the
// addresses that asked lately.
type Rates struct {
	every float64
	burst int
	mu    sync.Mutex
	addrs map[netip.Prefix]*rate.Limiter
	grown int // entries made since the last sweep
}

// NewRates returns a rate of every requests a second, bursts of burst.
func NewRates(every float64, burst int) *Rates {
	return &Rates{every: every, burst: max(burst, 1), addrs: map[netip.Prefix]*rate.Limiter{}}
}

// Allow takes one request of address a at now. When it is refused, wait
// is how long until one more would be allowed (at least a second, as
// Retry-After counts).
func (rs *Rates) Allow(a netip.Addr, now time.Time) (ok bool, wait time.Duration) {
	k := Key(a)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	l := rs.addrs[k]
	if l == nil {
		l = rate.NewLimiter(rate.Limit(rs.every), rs.burst)
		rs.addrs[k] = l
		if rs.grown++; rs.grown > 1024 && rs.grown > len(rs.addrs)/2 {
			rs.sweepLocked(now)
		}
	}
	if l.AllowN(now, 1) {
		return true, 0
	}
	need := 1 - l.TokensAt(now)
	secs := math.Ceil(need / rs.every)
	if rs.every <= 0 || secs < 1 || math.IsInf(secs, 0) || math.IsNaN(secs) {
		secs = 1
	}
	return false, time.Duration(secs) * time.Second
}

// sweepLocked forgets the addresses whose bucket is full again: they would
// start over the same.
func (rs *Rates) sweepLocked(now time.Time) {
	rs.grown = 0
	for k, l := range rs.addrs {
		if l.TokensAt(now) >= float64(rs.burst) {
			delete(rs.addrs, k)
		}
	}
}

// Len is how many addresses the rate holds now.
func (rs *Rates) Len() int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return len(rs.addrs)
}
