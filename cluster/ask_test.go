package cluster

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"
)

// TestAForwardedRequestCostsNoBigAllocation pins a relayed seat's
// handshake cost (issue 27): a request to another node (a forwarded join,
// a relay's open) waits for its one answer on a channel of one, not on a
// synchronous subscription's default channel of 65,536 messages (half a
// megabyte made and cleared each time). Twenty forwarded requests
// allocate well under what one such channel did.
func TestAForwardedRequestCostsNoBigAllocation(t *testing.T) {
	ctx := within(t, 30*time.Second)
	ca, cb := newFakeClock(), newFakeClock()
	a := startNode(t, Config{ID: "a", Now: ca.Now, Tick: ca.Tick})
	b := startNode(t, Config{ID: "b", Now: cb.Now, Tick: cb.Tick, Local: http.HandlerFunc(echo), Peers: []string{a.RouteURL()}})
	meet(ctx, t, a, b)
	forward := func() {
		req := httptest.NewRequest(http.MethodGet, "/api/tables/t1", nil)
		rec := httptest.NewRecorder()
		a.Forward(rec, req, "b", "203.0.113.7")
		if rec.Code != http.StatusCreated {
			t.Fatalf("status %d, want the owner's 201", rec.Code)
		}
	}
	forward() // warm: the first request sets up what every later one reuses
	const n = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		forward()
	}
	runtime.ReadMemStats(&after)
	// Both nodes run in this process: this counts the owner's side too.
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 256<<10 {
		t.Errorf("a forwarded request allocates %d bytes, want under 256 KiB (a sync subscription's channel alone is 512 KiB)", per)
	}
}
