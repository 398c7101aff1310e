package httpguard

import (
	"net/netip"
	"testing"
	"time"
)

// TestRates_OneAddressIsBoundedAndOthersAreNot: an address gets its burst
// at once, then is refused with a wait of whole seconds until its bucket
// fills again; another address (and an IPv6 address of another /64) keeps
// its own; one /64 is one address.
func TestRates_OneAddressIsBoundedAndOthersAreNot(t *testing.T) {
	rs := NewRates(2, 5)
	now := time.Unix(1000, 0)
	a := netip.MustParseAddr("192.0.2.1")
	for i := 0; i < 5; i++ {
		if ok, _ := rs.Allow(a, now); !ok {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	ok, wait := rs.Allow(a, now)
	if ok || wait != time.Second {
		t.Fatalf("past the burst: %v %v, want refused, wait 1s", ok, wait)
	}
	if ok, _ := rs.Allow(netip.MustParseAddr("192.0.2.2"), now); !ok {
		t.Error("another address refused")
	}
	if ok, _ := rs.Allow(a, now.Add(500*time.Millisecond)); !ok {
		t.Error("half a second later (2 a second): refused")
	}
	v6a, v6b := netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2")
	for i := 0; i < 5; i++ {
		rs.Allow(v6a, now)
	}
	if ok, _ := rs.Allow(v6b, now); ok {
		t.Error("another address of the same /64 has a bucket of its own")
	}
	slow := NewRates(0.1, 1)
	slow.Allow(a, now)
	if _, wait := slow.Allow(a, now); wait != 10*time.Second {
		t.Errorf("one request every 10 s: wait %v, want 10s", wait)
	}
}
