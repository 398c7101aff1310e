package engine

import "testing"

// TestSeatOKIsOneToN pins seatOK's single unsigned comparison to its
// definition, 1 <= s <= n, for every table size and every seat number.
func TestSeatOKIsOneToN(t *testing.T) {
	for n := MinSeats; n <= MaxSeats; n++ {
		g := &Game{state: state{n: uint8(n)}}
		for s := 0; s < 256; s++ {
			if got, want := g.seatOK(Seat(s)), s >= 1 && s <= n; got != want {
				t.Fatalf("n=%d: seatOK(%d) = %v, want %v", n, s, got, want)
			}
		}
	}
}

// TestCheckRefusesEveryUnknownVerb pins check's first comparison: verb 0
// and every verb from numVerbs on are unknown, every other is not (its
// refusal, if any, comes later).
func TestCheckRefusesEveryUnknownVerb(t *testing.T) {
	g := &Game{}
	for v := 0; v < 256; v++ {
		err := g.check(&Command{Verb: Verb(v)})
		e, _ := err.(*Error)
		unknown := e != nil && e.Code == CodeUnknownVerb
		if want := v == 0 || v >= int(numVerbs); unknown != want {
			t.Fatalf("verb %d: refused as unknown %v, want %v (%v)", v, unknown, want, err)
		}
	}
}
