package storetest

import (
	"context"
	"testing"
	"time"

	"mafia/store"
)

// RunSeenAddrs is the contract of store.SeenAddrs: an account's addresses
// come back newest first, one row an address (seen again, it moves up),
// at most keep of them, none older than asked; an address of any account
// past its time is forgotten by a later write.
func RunSeenAddrs(t *testing.T, open Open) {
	ctx := context.Background()
	s := openAs[store.SeenAddrs](t, open)
	const keep, forget = 3, 24 * time.Hour
	see := func(acct int64, addr string, at time.Time) {
		t.Helper()
		if err := s.SeeAddr(ctx, acct, addr, at, keep, forget); err != nil {
			t.Fatal(err)
		}
	}
	addrs := func(acct int64, since time.Time) []string {
		t.Helper()
		got, err := s.AddrsSeen(ctx, acct, since)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, a := range got {
			out = append(out, a.Addr)
		}
		return out
	}
	see(2, "198.51.100.9/32", t0) // another account's, soon stale
	for i, a := range []string{"a/32", "b/32", "a/32", "c/32", "d/32"} {
		see(1, a, t0.Add(time.Duration(i)*time.Minute))
	}
	if got := addrs(1, t0); len(got) != 3 || got[0] != "d/32" || got[1] != "c/32" || got[2] != "a/32" {
		t.Errorf("account 1's addresses %q, want d, c, a (b the oldest beyond 3)", got)
	}
	if got := addrs(1, t0.Add(3*time.Minute)); len(got) != 2 {
		t.Errorf("since the fourth minute: %q, want d, c", got)
	}
	if got, _ := s.AddrsSeen(ctx, 1, t0); len(got) == 0 || !got[0].At.Equal(t0.Add(4*time.Minute)) {
		t.Errorf("the newest's time %+v, want %v", got, t0.Add(4*time.Minute))
	}
	see(3, "e/32", t0.Add(25*time.Hour))
	if got := addrs(2, time.Time{}); len(got) != 0 {
		t.Errorf("account 2's address a day and more later: %q, want forgotten", got)
	}
}
