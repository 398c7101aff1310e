package engine

import "math/bits"

// MaxSeats is the largest table docs/rules.md allows (custom setups of 3 to 20).
const MaxSeats = 20

// MinSeats is the smallest table docs/rules.md allows.
const MinSeats = 3

// Seat is a seat number, 1..N. Seat 0 is nobody, or the host as the author
// of a command (fouls, Next).
type Seat uint8

// Host is the seat number used for the host's commands.
const Host Seat = 0

// SeatSet is a set of seats as a bit mask (bit s for seat s).
type SeatSet uint32

// Has reports whether s is in the set.
func (m SeatSet) Has(s Seat) bool { return s <= MaxSeats && m&(1<<s) != 0 }

// With returns the set with s added.
func (m SeatSet) With(s Seat) SeatSet { return m | 1<<s }

// Without returns the set with s removed.
func (m SeatSet) Without(s Seat) SeatSet { return m &^ (1 << s) }

// Len returns the number of seats in the set.
func (m SeatSet) Len() int { return bits.OnesCount32(uint32(m)) }

// First returns the lowest seat in the set, or 0 when it is empty.
func (m SeatSet) First() Seat {
	if m == 0 {
		return 0
	}
	return Seat(bits.TrailingZeros32(uint32(m)))
}

// Nth returns the i-th lowest seat (0-based), or 0 when there is none.
func (m SeatSet) Nth(i int) Seat {
	x := uint32(m)
	c0 := bits.OnesCount8(uint8(x))
	c1 := c0 + bits.OnesCount8(uint8(x>>8))
	c2 := c1 + bits.OnesCount8(uint8(x>>16))
	in := b2i(uint(i) < uint(c2+bits.OnesCount8(uint8(x>>24)))) // 0: no such seat
	// The byte that holds the seat asked for, by its seats' counts, then
	// the seat within it from a table, and 0 by a mask when there is none:
	// no branch depends on i (the random bot's pick: which byte, and
	// whether it names nobody). Tuple assignments under an if compiled to
	// branches.
	a0, a1, a2 := b2i(i >= c0), b2i(i >= c1), b2i(i >= c2)
	k := a0 + a1 + a2
	below := c0&-a0 + (c1-c0)&-a1 + (c2-c1)&-a2 // the seats in the bytes below it
	sel := uint8(x >> (8 * (k & 3)))
	return Seat((8*k + int(nthInByte[sel][(i-below)&7])) & -in)
}

// b2i is 1 for true and 0 for false (b2u8 widened: a SETcc, no branch).
func b2i(b bool) int { return int(b2u8(b)) }

// nthInByte[b][j] is the position of the j-th lowest set bit of b.
var nthInByte = func() (t [256][8]uint8) {
	for b := range 256 {
		j := 0
		for p := range 8 {
			if b>>p&1 != 0 {
				t[b][j] = uint8(p)
				j++
			}
		}
	}
	return t
}()

// Seats returns the seats in ascending order (allocates; for display and tests).
func (m SeatSet) Seats() []Seat {
	out := make([]Seat, 0, m.Len())
	for m != 0 {
		s := m.First()
		out = append(out, s)
		m &= m - 1 // drops the seat just taken, the lowest, without a shift
	}
	return out
}

// SetOf returns the set holding the given seats.
func SetOf(seats ...Seat) SeatSet {
	var m SeatSet
	for _, s := range seats {
		m = m.With(s)
	}
	return m
}

// allSeats returns the set {1..n}.
func allSeats(n int) SeatSet { return SeatSet((uint32(1)<<(n+1) - 1) &^ 1) }
