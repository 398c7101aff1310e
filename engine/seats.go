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
	if uint(i) >= uint(bits.OnesCount32(x)) {
		return 0
	}
	// Skip a byte of seats at a time by its count, then clear at most 7
	// lower seats within the byte that holds the one asked for.
	base := 0
	for c := bits.OnesCount8(uint8(x)); i >= c; c = bits.OnesCount8(uint8(x)) {
		i, x, base = i-c, x>>8, base+8
	}
	for ; i > 0; i-- {
		x &= x - 1
	}
	return Seat(base + bits.TrailingZeros32(x))
}

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
