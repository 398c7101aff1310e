package storetest

import (
	"errors"
	"testing"
	"time"

	"mafia/store"
)

func clockRoundTrip(t *testing.T, open Open) {
	db := open(t)
	CreateTable(t, db, "t")
	c, err := db.Clock(bg, "t")
	if err != nil || c != (store.Clock{}) {
		t.Fatalf("clock before any: %+v, %v", c, err)
	}
	running := store.Clock{Step: 7, Deadline: time.Date(2025, 5, 6, 7, 8, 9, 123, time.UTC)}
	paused := store.Clock{Step: 9, Left: 42*time.Second + 17, Paused: true}
	for _, want := range []store.Clock{running, paused, running} {
		if err := db.SaveClock(bg, "t", want); err != nil {
			t.Fatal(err)
		}
		got, err := db.Clock(bg, "t")
		if err != nil {
			t.Fatal(err)
		}
		if !sameClock(got, want) {
			t.Errorf("clock %+v, want %+v", got, want)
		}
	}
	if err := db.SaveClock(bg, "nope", running); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SaveClock of a missing table: %v", err)
	}
	if _, err := db.Clock(bg, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Clock of a missing table: %v", err)
	}
}

func heartbeatRoundTrip(t *testing.T, open Open) {
	db := open(t)
	hb, err := db.LastHeartbeat(bg)
	if err != nil || !hb.IsZero() {
		t.Fatalf("before any: %v, %v", hb, err)
	}
	for _, at := range []time.Time{time.Unix(1700000000, 999999999), time.Unix(1700000005, 1).In(time.FixedZone("y", -7200))} {
		if err := db.Heartbeat(bg, at); err != nil {
			t.Fatal(err)
		}
		hb, err := db.LastHeartbeat(bg)
		if err != nil || !hb.Equal(at) {
			t.Errorf("heartbeat %v, %v; want %v", hb, err, at)
		}
	}
}

// writesCounted: a store that counts its writes (store.WriteCounter) counts
// each committed write; one that knows its health (store.WriteMonitor)
// says its writes commit, and a refusal (a conflict) is no failure.
func writesCounted(t *testing.T, open Open) {
	db := open(t)
	CreateTable(t, db, "t")
	log, _ := BotGame(t, 2)
	wc, counts := db.(store.WriteCounter)
	var before store.WriteStats
	if counts {
		before = wc.WriteStats()
	}
	for i := range 3 {
		if err := db.AppendEvents(bg, "t", i, log[i:i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.AppendEvents(bg, "t", 0, log[:1]); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a conflicting append: %v", err)
	}
	if counts {
		after := wc.WriteStats()
		if after.Writes-before.Writes < 3 || after.Commits-before.Commits < 1 || after.Commits > after.Writes {
			t.Errorf("write stats %+v after %+v and three appends", after, before)
		}
	} else {
		t.Log("the store does not count its writes")
	}
	if wm, ok := db.(store.WriteMonitor); ok {
		h := wm.WriteHealth()
		if h.LastOK.IsZero() || h.Failing(time.Now(), 0) || h.Err != nil {
			t.Errorf("write health after good writes and a conflict: %+v", h)
		}
	} else {
		t.Log("the store does not know its write health")
	}
}
