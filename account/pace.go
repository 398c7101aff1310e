package account

import (
	"sync"
	"time"
)

// pacer spaces the held refusals of each address whose attempts are spent
// (Handler.spent): an address's refusals are sent at least every apart, so
// a flood gets as many refusals a second however many connections it
// opens; one request waits at least min and at most max (the slots of an
// address that asks faster than that are not kept further ahead than max:
// each of its connections then waits max a refusal). It keeps at most
// keep addresses; past that, a new address waits max with no slot of its
// own.
type pacer struct {
	mu              sync.Mutex
	every, min, max time.Duration
	keep            int
	next            map[string]time.Time
}

func newPacer(every, min, max time.Duration, keep int) *pacer {
	if max < min {
		max = min
	}
	return &pacer{every: every, min: min, max: max, keep: keep, next: map[string]time.Time{}}
}

// wait is how long a refusal to key, asked for at now, is held: until the
// address's next free slot, and between min and max.
func (p *pacer) wait(key string, now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	n, ok := p.next[key]
	if !ok && len(p.next) >= p.keep {
		for k, v := range p.next {
			if !v.After(now) {
				delete(p.next, k)
			}
		}
		if len(p.next) >= p.keep {
			return p.max
		}
	}
	if n.Before(now) {
		n = now
	}
	n = n.Add(p.every)
	if lim := now.Add(p.max); n.After(lim) {
		n = lim
	}
	p.next[key] = n
	return min(max(n.Sub(now), p.min), p.max)
}

// size is how many addresses it keeps (for tests).
func (p *pacer) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.next)
}
