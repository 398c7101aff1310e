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
	b0, b1, b2, b3 := uint8(x), uint8(x>>8), uint8(x>>16), uint8(x>>24)
	c0 := bits.OnesCount8(b0)
	c1 := c0 + bits.OnesCount8(b1)
	c2 := c1 + bits.OnesCount8(b2)
	if uint(i) >= uint(c2+bits.OnesCount8(b3)) {
		return 0
	}
	// The byte that holds the seat asked for, chosen by its seats' counts
	// (conditional moves, not a loop), then the seat within it from a
	// table: no branch depends on i.
	sel, base, j := b0, 0, i
	if i >= c0 {
		sel, base, j = b1, 8, i-c0
	}
	if i >= c1 {
		sel, base, j = b2, 16, i-c1
	}
	if i >= c2 {
		sel, base, j = b3, 24, i-c2
	}
	return Seat(base + int(nthInByte[sel][j&7]))
}

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
