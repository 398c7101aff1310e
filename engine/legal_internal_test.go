package engine

import (
	"testing"

	"mafia/rng"
)

// TestCandidatesIsTheSetOfTheFirstNumCandidates pins the view's candidate
// set, built four slots at a time with masks, to its definition: the seats
// in Candidates[:NumCandidates], whatever the slots past them hold.
func TestCandidatesIsTheSetOfTheFirstNumCandidates(t *testing.T) {
	src := rng.New(30)
	for n := 0; n <= MaxSeats; n++ {
		for trial := 0; trial < 200; trial++ {
			var v View
			v.NumCandidates = uint8(n)
			for i := range v.Candidates {
				v.Candidates[i] = Seat(src.Intn(256)) // seats past 31 too (no bit, as With); past n, junk the set must ignore
			}
			var want SeatSet
			for _, c := range v.Candidates[:n] {
				want = want.With(c)
			}
			if got := v.candidates(); got != want {
				t.Fatalf("n=%d candidates %v: got %b, want %b", n, v.Candidates, got, want)
			}
		}
	}
}

// TestKnownMafiaIsEverySeatShownAsMafia pins the word-at-a-time pass over
// the view's teams to a seat-by-seat one, for random teams at every seat
// 0-20 (TeamMafia's neighbours included, so a byte off by one shows).
func TestKnownMafiaIsEverySeatShownAsMafia(t *testing.T) {
	src := rng.New(31)
	for trial := 0; trial < 20000; trial++ {
		var v View
		for s := range v.Teams {
			v.Teams[s] = Team(src.Intn(5)) // TeamNone … TeamManiac, and one past
		}
		var want SeatSet
		for s, team := range v.Teams {
			if team == TeamMafia {
				want |= 1 << s
			}
		}
		if got := v.knownMafia(); got != want {
			t.Fatalf("teams %v: got %b, want %b", v.Teams, got, want)
		}
	}
	// Every single seat alone, and all of them.
	for s := 0; s <= MaxSeats; s++ {
		var v View
		v.Teams[s] = TeamMafia
		if got := v.knownMafia(); got != 1<<s {
			t.Fatalf("seat %d alone: got %b", s, got)
		}
	}
	var v View
	for s := range v.Teams {
		v.Teams[s] = TeamMafia
	}
	if got, want := v.knownMafia(), SeatSet(1<<(MaxSeats+1)-1); got != want {
		t.Fatalf("every seat: got %b, want %b", got, want)
	}
}
