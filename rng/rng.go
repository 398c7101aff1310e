// Package rng is the project's seeded random source: a small, fast,
// allocation-free generator (SplitMix64) whose sequence is fixed forever for
// a given seed, so that a recorded seed replays the same deal and the same
// bot choices on every machine and Go version.
//
// It owns nothing but the generator. It must never read a clock, the
// operating system or a global source; callers pass the seed in.
package rng

import "math/bits"

// Source is a SplitMix64 generator. The zero value is a valid source seeded
// with 0; copy it to fork the sequence.
type Source struct {
	state uint64
}

// New returns a source seeded with seed.
func New(seed uint64) Source { return Source{state: seed} }

// Seed resets the source to seed.
func (s *Source) Seed(seed uint64) { s.state = seed }

// Uint64 returns the next 64 random bits.
func (s *Source) Uint64() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a uniform integer in [0, n). It returns 0 when n <= 0.
func (s *Source) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	// Lemire's multiply-shift with rejection: unbiased and division-free on
	// the common path.
	un := uint64(n)
	hi, lo := bits.Mul64(s.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(s.Uint64(), un)
		}
	}
	return int(hi)
}

// Derive returns a seed for the i-th member of a family of streams rooted at
// seed, so that game i of a simulation gets the same seed whichever worker
// plays it.
func Derive(seed, i uint64) uint64 {
	s := Source{state: seed ^ (i * 0xd1342543de82ef95)}
	s.Uint64()
	return s.Uint64()
}
