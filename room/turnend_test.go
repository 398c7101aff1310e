package room_test

import (
	"sync/atomic"
	"testing"

	"mafia/admission"
	"mafia/room"
)

// TestTurnEnd_ToldOncePerTurnAfterItsItems pins room.Entry.TurnEnd: a
// connection with one is told once at the end of each turn of the room's
// that queued items for it, on the room's goroutine, with the turn's items
// already queued (it takes them there, as the server's connections write
// them), and is not notified of each item; notify still says the welcome
// and the queue's close.
func TestTurnEnd_ToldOncePerTurnAfterItsItems(t *testing.T) {
	f := newFixture(t, settings(t, 6, fastTimings), nil)
	cs := f.fillWithPeople(2)
	var notified, told, taken atomic.Int64
	var sp atomic.Pointer[room.Sub]
	turnEnd := func() {
		told.Add(1)
		sub := sp.Load()
		if sub == nil {
			t.Error("told of a turn before Attach returned")
			return
		}
		for {
			if _, ok, _ := sub.Take(); !ok {
				return
			}
			taken.Add(1)
		}
	}
	sub, err := f.r.AttachFrom(bg(), "", 0, "", func() { notified.Add(1) }, room.Entry{Door: admission.DoorSeat, TurnEnd: turnEnd})
	if err != nil {
		t.Fatal(err)
	}
	sp.Store(sub)
	if n := notified.Load(); n != 1 {
		t.Fatalf("notified %d times by the attach; want once, for the welcome", n)
	}
	if _, ok, _ := sub.Take(); !ok {
		t.Fatal("no welcome queued")
	}
	for i := 1; i <= 3; i++ {
		cs[1].must(chat("town", "a line"))
		f.sync()
		if n := told.Load(); n != int64(i) {
			t.Fatalf("after %d lines (a turn each), told %d times", i, n)
		}
		if n := taken.Load(); n != int64(i) {
			t.Fatalf("after %d lines, %d items taken when told; want each line's frame, queued before the telling", i, n)
		}
	}
	if n := notified.Load(); n != 1 {
		t.Fatalf("notified %d times; want only the welcome's (TurnEnd in place of notify)", n)
	}
	f.r.Stop()
	if n := notified.Load(); n != 2 {
		t.Fatalf("notified %d times after the room stopped; want the welcome's and the close's", n)
	}
	if _, _, open := sub.Take(); open {
		t.Fatal("the queue is open after the room stopped")
	}
}
