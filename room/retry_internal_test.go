package room

import (
	"context"
	"testing"
	"time"
)

// TestATimeoutRetriedWhileTheStoreFailsLeavesNoTimersBehind pins that a
// step's end, retried every second while the store cannot write (a full
// disk may last hours), keeps one retry at a time: the room's timers do not
// grow with the outage.
func TestATimeoutRetriedWhileTheStoreFailsLeavesNoTimersBehind(t *testing.T) {
	ctx := context.Background()
	db, clk, setup := internalFixture(t, 5)
	r, host, err := Create(ctx, Config{Store: db, Clock: clk, SendBuffer: 1 << 14},
		Settings{Name: "t", Setup: setup, TimingMS: map[string]int64{"night": 1000}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	// Each retry is handled before the clock moves on.
	clk.SetSettle(r.Idle)
	if _, err := r.Attach(ctx, host, 0); err != nil { // the host is there: the game never freezes
		t.Fatal(err)
	}
	run := func(f func()) {
		t.Helper()
		if err := r.do(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	run(func() {
		if err := r.hostAction("add_bots", 0); err != nil {
			t.Error(err)
		}
		if err := r.hostAction("start", 0); err != nil {
			t.Error(err)
		}
	})
	if err := db.SetReadOnly(ctx, true); err != nil {
		t.Fatal(err)
	}
	step := 0
	run(func() { step = r.step })
	for i := 0; i < 300; i++ {
		clk.Advance(time.Second)
		run(func() {})
	}
	n, now := 0, 0
	run(func() { n, now = len(r.timers), r.step })
	if now != step {
		t.Fatalf("the step moved on while the store could not write")
	}
	if n > 8 {
		t.Errorf("%d timers kept after 300 s of retries", n)
	}
}
