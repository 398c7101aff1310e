package server

import (
	"fmt"
	"net/netip"
	"testing"
	"time"
)

// TestAnAddressIsForgottenOnceItsTablesHaveLeftTheLobby pins that the
// guards' memory of client addresses stays bounded by the addresses that
// hold something: an address that made tables, all of which have since left
// the lobby (started, or expired), is forgotten like any other once its
// limiters are full again.
func TestAnAddressIsForgottenOnceItsTablesHaveLeftTheLobby(t *testing.T) {
	gone := func(string) bool { return false } // every table has left the lobby
	g := newGuards(Limits{}.withDefaults(1<<14), gone)
	addr := func(net, i int) netip.Addr {
		return netip.AddrFrom4([4]byte{byte(net), byte(i >> 16), byte(i >> 8), byte(i)})
	}
	now := time.Unix(1_700_000_000, 0)
	const makers = 3000
	for i := range makers {
		st, err := g.createAllowed(addr(10, i), now, 0)
		if err != nil {
			t.Fatal(err)
		}
		g.created(st, fmt.Sprint("table", i))
	}
	// An hour later others come and go, more of them than the makers.
	now = now.Add(time.Hour)
	for i := range 2 * makers {
		tk, err := g.admit(addr(11, i), "t", "", now)
		if err != nil {
			t.Fatal(err)
		}
		tk.release()
	}
	g.mu.Lock()
	n := len(g.addrs)
	g.mu.Unlock()
	if n > makers {
		t.Errorf("%d addresses remembered, none of them holding anything", n)
	}
}
