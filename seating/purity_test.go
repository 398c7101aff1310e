package seating_test

import (
	"testing"

	"mafia/internal/puritytest"
)

// TestPurity_SeatingImportsOnlyPurePackages: the seating is pure (doc.go):
// no clock, no I/O, no goroutines, no global random source; it may import
// the engine for its coded errors (internal/puritytest).
func TestPurity_SeatingImportsOnlyPurePackages(t *testing.T) {
	problems, err := puritytest.Check("..", "mafia/seating", "mafia/engine")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
