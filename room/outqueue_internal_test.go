package room

import (
	"context"
	"testing"
	"time"
)

func frameOf(i int) Out { return Out{Frame: []byte{byte(i)}} }

func TestOutQueueKeepsOrderAndRefusesPastItsLimit(t *testing.T) {
	var q outQueue
	for i := 0; i < 3; i++ {
		if !q.push(frameOf(i), 3) {
			t.Fatalf("push %d refused below the limit", i)
		}
	}
	if q.push(frameOf(3), 3) {
		t.Error("a push past the limit was accepted")
	}
	for i := 0; i < 3; i++ {
		o, ok, open := q.take()
		if !ok || !open || o.Frame[0] != byte(i) {
			t.Fatalf("take %d: %v %v %v", i, o, ok, open)
		}
	}
	if _, ok, open := q.take(); ok || !open {
		t.Errorf("an empty open queue: ok %v open %v", ok, open)
	}
	if !q.push(frameOf(9), 3) {
		t.Error("a drained queue refused a push")
	}
}

func TestOutQueueHandsOutWhatItHeldAfterClose(t *testing.T) {
	var q outQueue
	q.push(frameOf(1), 8)
	q.close()
	if q.push(frameOf(2), 8) {
		t.Error("a closed queue accepted a push")
	}
	if o, ok, _ := q.take(); !ok || o.Frame[0] != 1 {
		t.Fatalf("the item queued before close was lost: %v %v", o, ok)
	}
	if _, ok, open := q.take(); ok || open {
		t.Errorf("a closed, drained queue: ok %v open %v", ok, open)
	}
	if _, ok := q.next(context.Background()); ok {
		t.Error("next on a closed, drained queue returned an item")
	}
}

func TestOutQueueHoldsNoMemoryOnceDrainedAfterABurst(t *testing.T) {
	var q outQueue
	for i := 0; i < 40; i++ {
		q.push(frameOf(i), 64)
	}
	for range 40 {
		q.take()
	}
	if q.items != nil {
		t.Errorf("a drained queue keeps %d slots after a burst", cap(q.items))
	}
	q.push(frameOf(1), 64)
	q.take()
	if cap(q.items) > keepCap {
		t.Errorf("a small queue keeps %d slots", cap(q.items))
	}
}

func TestOutQueueNextWakesOnPushAndClose(t *testing.T) {
	var q outQueue
	got := make(chan Out)
	go func() {
		for {
			o, ok := q.next(context.Background())
			if !ok {
				close(got)
				return
			}
			got <- o
		}
	}()
	for i := 0; i < 100; i++ {
		q.push(frameOf(i), 64)
		if o := <-got; o.Frame[0] != byte(i) {
			t.Fatalf("next gave %v, want %d", o.Frame, i)
		}
	}
	q.close()
	if _, open := <-got; open {
		t.Error("next did not end at close")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	var q2 outQueue
	if _, ok := q2.next(ctx); ok {
		t.Error("next on an empty queue returned an item when its context ended")
	}
}
