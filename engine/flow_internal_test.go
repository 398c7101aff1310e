package engine

import "testing"

// The speeches go round the table by a subtraction: offsetAfter and seatAt
// are their modulo definitions for every table size, opener, slot and
// offset.
func TestRoundTheTable_IsItsModuloDefinition(t *testing.T) {
	for n := MinSeats; n <= MaxSeats; n++ {
		for opener := 1; opener <= n; opener++ {
			for slot := 1; slot <= n; slot++ {
				if got, want := offsetAfter(Seat(slot), Seat(opener), n), (slot-opener+n)%n+1; got != want {
					t.Errorf("n %d, opener %d, slot %d: offset %d, want %d", n, opener, slot, got, want)
				}
			}
			for off := 0; off < n; off++ {
				if got, want := seatAt(Seat(opener), off, n), Seat((opener-1+off)%n+1); got != want {
					t.Errorf("n %d, opener %d, offset %d: seat %d, want %d", n, opener, off, got, want)
				}
			}
		}
	}
}
