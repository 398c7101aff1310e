package store

import "fmt"

// This file holds the checks every implementation makes of what it is
// given before it writes, so that the stores refuse alike.

// CheckKind refuses a kind of table that is none of the kinds.
func CheckKind(k Kind) error {
	if !k.Valid() {
		return fmt.Errorf("no kind of table is %q", k)
	}
	return nil
}

// CheckSeats refuses a list of seats that has a seat twice (ErrConflict).
func CheckSeats(seats []Seat) error {
	seen := make(map[int]bool, len(seats))
	for _, s := range seats {
		if seen[s.Seat] {
			return fmt.Errorf("%w: seat %d twice", ErrConflict, s.Seat)
		}
		seen[s.Seat] = true
	}
	return nil
}
