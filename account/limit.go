package account

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limit is a rate of login attempts: Burst at once, then one every Every.
type Limit struct {
	Every time.Duration
	Burst int
}

// limiter keeps one token bucket per key (a name's key, an address), at
// most max of them: when full, the buckets that are full again (their
// keys idle long enough to be forgotten) are dropped, and if none is, the
// new key shares one overflow bucket, so that a flood of new keys is
// limited as one and memory stays bounded.
type limiter struct {
	mu       sync.Mutex
	lim      Limit
	max      int
	buckets  map[string]*rate.Limiter
	overflow *rate.Limiter
}

func newLimiter(l Limit, max int) *limiter {
	return &limiter{lim: l, max: max, buckets: map[string]*rate.Limiter{},
		overflow: rate.NewLimiter(rate.Every(l.Every), l.Burst)}
}

// allow takes one attempt for key at now, reporting false when it is over
// the limit.
func (l *limiter) allow(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= l.max {
			for k, v := range l.buckets {
				if v.TokensAt(now) >= float64(l.lim.Burst) {
					delete(l.buckets, k)
				}
			}
		}
		if len(l.buckets) >= l.max {
			return l.overflow.AllowN(now, 1)
		}
		b = rate.NewLimiter(rate.Every(l.lim.Every), l.lim.Burst)
		l.buckets[key] = b
	}
	return b.AllowN(now, 1)
}

// spent reports whether key's bucket is empty at now (its attempts past
// the limit), without taking one.
func (l *limiter) spent(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		return len(l.buckets) >= l.max && l.overflow.TokensAt(now) < 1
	}
	return b.TokensAt(now) < 1
}

// size is how many keys it holds (for tests).
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
