package account

// This file budgets the password hashes of the whole server: argon2id is
// the one thing a client without an account can make the server compute at
// will, so at most Budget.Ceiling hashes run at once, whoever asks, and the
// others wait in a queue that is fair across addresses and bounded.

import (
	"context"
	"math"
	"net/netip"
	"runtime"
	"slices"
	"sync"
	"time"
)

// Budget bounds the password hashing of a Service. A free turn goes to
// the waiting bucket that has hashed least lately (its hashes counted with
// a half-life of 10 seconds), round robin among equals.
type Budget struct {
	// Ceiling is how many hashes run at once (default max(1, GOMAXPROCS/2)):
	// the rest of the cores stay the rooms'.
	Ceiling int
	// Queue is how many attempts may wait for a hash at once (default 64);
	// PerBucket how many of them from one bucket (an IPv4 address, an
	// IPv6 /48; default 4). An attempt past either is refused with
	// CodeLoginBusy, except that a bucket with fewer waiting than the
	// fullest one takes the fullest one's newest place.
	Queue, PerBucket int
	// Trace, when set, is told of each attempt that waited for its turn,
	// as it gets it: its bucket and how many hashes of other attempts
	// began while it waited (tests watch the queue's fairness by it).
	Trace func(bucket string, passed int)
}

func (b Budget) withDefaults() Budget {
	if b.Ceiling <= 0 {
		b.Ceiling = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if b.Queue <= 0 {
		b.Queue = 64
	}
	if b.PerBucket <= 0 {
		b.PerBucket = 4
	}
	return b
}

// HashStats is what the budget has done: hashes computed, hashes running
// now and the most that ever ran at once, attempts waiting now, and the
// attempts refused because the queue was full.
type HashStats struct {
	Done, Peak, Refused uint64
	Running, Queued     int
}

// waiter is one attempt waiting for a hash: granted is closed when it may
// run, refused when it lost its place; started is the count of hashes
// begun when it began waiting.
type waiter struct {
	bucket  string
	granted chan struct{}
	out     bool // granted or evicted (under the mutex)
	evicted bool
	started uint64
}

// hashQueue is the budget at work: the waiting attempts by bucket, and the
// buckets in the round-robin order they are served in.
type hashQueue struct {
	mu      sync.Mutex
	b       Budget
	running int
	queued  int
	waiting map[string][]*waiter
	ring    []string // buckets with someone waiting, the next to serve first
	stats   HashStats
	started uint64
	onGrant func(bucket string, passed int) // Budget.Trace
	usage   usage
}

func newHashQueue(b Budget) *hashQueue {
	return &hashQueue{b: b.withDefaults(), waiting: map[string][]*waiter{}, onGrant: b.Trace,
		usage: usage{m: map[string]use{}}}
}

// bucketOf is the queue's bucket of a limiter's address key: the address
// itself for IPv4, its /48 for IPv6 (one site's network, however many /64s
// it hands out); "" (unknown) is a bucket of its own.
func bucketOf(addr string) string {
	p, err := netip.ParsePrefix(addr)
	if err != nil {
		if a, err := netip.ParseAddr(addr); err == nil {
			p = netip.PrefixFrom(a, a.BitLen())
		} else {
			return addr
		}
	}
	if p.Addr().Is6() && p.Bits() > 48 {
		p, _ = p.Addr().Prefix(48)
	}
	return p.Masked().String()
}

// acquire waits for a hash's turn for bucket: nil once it may run (the
// caller calls release after), CodeLoginBusy when the queue has no place
// for it, or internal when ctx ends first.
func (q *hashQueue) acquire(ctx context.Context, bucket string) error {
	q.mu.Lock()
	if q.running < q.b.Ceiling && q.queued == 0 {
		q.usage.add(bucket, time.Now())
		q.start()
		q.mu.Unlock()
		return nil
	}
	if !q.admit(bucket) {
		q.stats.Refused++
		q.mu.Unlock()
		return errLoginBusy
	}
	w := &waiter{bucket: bucket, granted: make(chan struct{}), started: q.started}
	if len(q.waiting[bucket]) == 0 {
		q.ring = append(q.ring, bucket)
	}
	q.waiting[bucket] = append(q.waiting[bucket], w)
	q.queued++
	q.mu.Unlock()
	select {
	case <-w.granted:
		if w.evicted {
			return errLoginBusy
		}
		return nil
	case <-ctx.Done():
		q.mu.Lock()
		defer q.mu.Unlock()
		if w.out { // granted (or evicted) meanwhile: give the turn back
			if !w.evicted {
				q.finish()
			}
		} else {
			q.remove(w)
		}
		return internal(ctx.Err())
	}
}

// room reports whether an attempt of bucket would run or wait now rather
// than be refused (an early answer, before the store is read; acquire
// decides); a refusal counts in HashStats.Refused.
func (q *hashQueue) room(bucket string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.running < q.b.Ceiling && q.queued == 0 {
		return true
	}
	mine := len(q.waiting[bucket])
	ok := mine < q.b.PerBucket && q.queued < q.b.Queue
	for _, b := range q.ring {
		if ok || mine >= q.b.PerBucket {
			break
		}
		ok = len(q.waiting[b]) > mine+1
	}
	if !ok {
		q.stats.Refused++
	}
	return ok
}

// admit makes room for one more of bucket, under the mutex: true when the
// queue and the bucket have a place, or when a fuller bucket gives its
// newest place up.
func (q *hashQueue) admit(bucket string) bool {
	mine := len(q.waiting[bucket])
	if mine >= q.b.PerBucket {
		return false
	}
	if q.queued < q.b.Queue {
		return true
	}
	fullest := ""
	for _, b := range q.ring {
		if len(q.waiting[b]) > len(q.waiting[fullest]) || fullest == "" {
			fullest = b
		}
	}
	if fullest == "" || len(q.waiting[fullest]) <= mine+1 {
		return false
	}
	ws := q.waiting[fullest]
	w := ws[len(ws)-1]
	q.remove(w)
	w.out, w.evicted = true, true
	q.stats.Refused++
	close(w.granted)
	return true
}

// remove takes a waiter out of the queue, under the mutex.
func (q *hashQueue) remove(w *waiter) {
	ws := q.waiting[w.bucket]
	for i, x := range ws {
		if x == w {
			ws = append(ws[:i:i], ws[i+1:]...)
			q.queued--
			break
		}
	}
	if len(ws) == 0 {
		delete(q.waiting, w.bucket)
		for i, b := range q.ring {
			if b == w.bucket {
				q.ring = append(q.ring[:i:i], q.ring[i+1:]...)
				break
			}
		}
	} else {
		q.waiting[w.bucket] = ws
	}
}

// start counts a hash begun, under the mutex.
func (q *hashQueue) start() {
	q.running++
	q.started++
	q.stats.Done++
	if uint64(q.running) > q.stats.Peak {
		q.stats.Peak = uint64(q.running)
	}
}

// release ends a hash and hands its turn to the next waiter.
func (q *hashQueue) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.finish()
}

// finish ends a hash, under the mutex, and hands the free turns on: to
// the waiting bucket that has hashed least lately (usage), the first in
// the ring among equals, for its oldest waiter; the bucket goes to the
// ring's end. So an address that floods waits behind one that asks once,
// and those that flood alike take turns.
func (q *hashQueue) finish() {
	q.running--
	for q.running < q.b.Ceiling && len(q.ring) > 0 {
		now := time.Now()
		least := math.Inf(1)
		for _, b := range q.ring {
			least = min(least, q.usage.of(b, now))
		}
		// Usages that differ by less than a hundredth of a hash are equal
		// (the first in the ring goes first), however the clock ticks.
		at := slices.IndexFunc(q.ring, func(b string) bool { return q.usage.of(b, now) <= least+0.01 })
		b := q.ring[at]
		w := q.waiting[b][0]
		q.remove(w)
		if len(q.waiting[b]) > 0 { // the bucket waits on, behind the others
			i := slices.Index(q.ring, b)
			q.ring = append(append(q.ring[:i:i], q.ring[i+1:]...), b)
		}
		q.usage.add(b, now)
		passed := int(q.started - w.started)
		q.start()
		w.out = true
		close(w.granted)
		if q.onGrant != nil {
			q.onGrant(b, passed)
		}
	}
}

// snapshot is the stats now.
func (q *hashQueue) snapshot() HashStats {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := q.stats
	s.Running, s.Queued = q.running, q.queued
	return s
}

// usageHalfLife is how fast a bucket's past hashes stop counting against
// it: half of them after this long.
const usageHalfLife = 10 * time.Second

// maxUsage bounds how many buckets' usage is kept: past it, those whose
// usage has decayed to nearly nothing are forgotten, and if none has, all
// are (a flood of new buckets is one of fresh ones).
const maxUsage = 4096

// use is a bucket's hashes, decayed, as of at.
type use struct {
	n  float64
	at time.Time
}

// usage is how much each bucket has hashed lately.
type usage struct{ m map[string]use }

func (u *usage) of(b string, now time.Time) float64 {
	x, ok := u.m[b]
	if !ok {
		return 0
	}
	return x.n * math.Exp2(-float64(now.Sub(x.at))/float64(usageHalfLife))
}

func (u *usage) add(b string, now time.Time) {
	if _, ok := u.m[b]; !ok && len(u.m) >= maxUsage {
		for k := range u.m {
			if u.of(k, now) < 0.05 {
				delete(u.m, k)
			}
		}
		if len(u.m) >= maxUsage {
			clear(u.m)
		}
	}
	u.m[b] = use{n: u.of(b, now) + 1, at: now}
}
