package room

import (
	"context"
	"testing"
	"time"

	"mafia/rng"
)

// TestRoomsWhoseWritesFailTogetherDoNotRetryInTheSameInstant pins the
// jitter of background retries: rooms whose kept writes failed at the same
// moment (the database went away) each wait a time of their own, drawn
// from the room's seeded source between half and one and a half times
// rewriteEvery, so that they do not all come back in the same second.
func TestRoomsWhoseWritesFailTogetherDoNotRetryInTheSameInstant(t *testing.T) {
	ctx := context.Background()
	db, clk, setup := internalFixture(t, 5)
	var rooms []*Room
	for range 8 {
		r, _, err := Create(ctx, Config{Store: db, Clock: clk}, Settings{Name: "t", Setup: setup})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Stop()
		rooms = append(rooms, r)
	}
	if err := db.SetReadOnly(ctx, true); err != nil {
		t.Fatal(err)
	}
	waits := map[time.Duration]bool{}
	for i, r := range rooms {
		var wait time.Duration
		err := r.do(ctx, func() {
			r.retrySrc = rng.New(uint64(i)) // a seed of its own, chosen
			r.persist(r.tableWrite())       // fails: kept, and tried again later
			ft, ok := r.rewrite.(*fakeTimer)
			if !ok {
				t.Errorf("room %d: no retry scheduled after a failed write", i)
				return
			}
			wait = ft.at.Sub(clk.Now())
		})
		if err != nil {
			t.Fatal(err)
		}
		if wait < rewriteEvery/2 || wait >= rewriteEvery*3/2 {
			t.Errorf("room %d waits %s before it tries again, want [%s, %s)", i, wait, rewriteEvery/2, rewriteEvery*3/2)
		}
		waits[wait] = true
	}
	if len(waits) < len(rooms) {
		t.Errorf("%d rooms whose writes failed together retry at %d instants: %v", len(rooms), len(waits), waits)
	}
}
