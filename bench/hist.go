package bench

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// Histogram records durations with about 1% precision, lock-free, in a
// fixed amount of memory: exact microseconds below 1024 µs, then 128
// buckets per power of two. It is safe for concurrent use.
type Histogram struct {
	counts [histBuckets]atomic.Uint64
	n      atomic.Uint64
	max    atomic.Int64 // nanoseconds
}

const (
	histLinear  = 1024 // exact buckets, in microseconds
	histSub     = 128  // buckets per power of two above histLinear
	histOctaves = 32   // 2^10 µs .. 2^42 µs (about 50 days)
	histBuckets = histLinear + histSub*histOctaves
)

// bucketOf returns the bucket of a value in microseconds.
func bucketOf(us uint64) int {
	if us < histLinear {
		return int(us)
	}
	e := bits.Len64(us) - 1 // us >= 2^e, e >= 10
	if e-10 >= histOctaves {
		return histBuckets - 1
	}
	sub := (us >> (e - 7)) & (histSub - 1)
	return histLinear + (e-10)*histSub + int(sub)
}

// bucketTop returns the largest value in microseconds that falls in bucket b.
func bucketTop(b int) uint64 {
	if b < histLinear {
		return uint64(b)
	}
	e := (b-histLinear)/histSub + 10
	sub := uint64((b - histLinear) % histSub)
	lo := (uint64(1) << e) | sub<<(e-7)
	return lo + (uint64(1) << (e - 7)) - 1
}

// Record adds one duration.
func (h *Histogram) Record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.counts[bucketOf(uint64(d/time.Microsecond))].Add(1)
	h.n.Add(1)
	for i := 0; i < 100; i++ { // bounded: each failed swap means a larger max arrived
		m := h.max.Load()
		if int64(d) <= m || h.max.CompareAndSwap(m, int64(d)) {
			break
		}
	}
}

// Count returns how many durations were recorded.
func (h *Histogram) Count() uint64 { return h.n.Load() }

// Max returns the largest duration recorded.
func (h *Histogram) Max() time.Duration { return time.Duration(h.max.Load()) }

// Quantile returns the duration below which a fraction q (0 to 1) of the
// records fall, as the top of the bucket that holds it (0 when empty).
func (h *Histogram) Quantile(q float64) time.Duration {
	var total uint64
	var counts [histBuckets]uint64
	for i := range counts {
		counts[i] = h.counts[i].Load()
		total += counts[i]
	}
	if total == 0 {
		return 0
	}
	rank := uint64(q * float64(total))
	if rank >= total {
		rank = total - 1
	}
	var seen uint64
	for i, c := range counts {
		seen += c
		if seen > rank {
			d := time.Duration(bucketTop(i)) * time.Microsecond
			if m := h.Max(); d > m {
				d = m
			}
			return d
		}
	}
	return h.Max()
}

// Reset forgets every record.
func (h *Histogram) Reset() {
	for i := range h.counts {
		h.counts[i].Store(0)
	}
	h.n.Store(0)
	h.max.Store(0)
}
