package store

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

type testReq struct {
	Request
	n int
}

// TestCommitterCommitsWhatWaitsTogetherAndDrainsOnClose pins the group
// commit both stores share: writes that queue while a commit runs are
// committed together in the next one, each caller gets its own answer, a
// caller that gives up before its write is taken writes nothing, and Close
// commits what is queued before it refuses more.
func TestCommitterCommitsWhatWaitsTogetherAndDrainsOnClose(t *testing.T) {
	errClosed := errors.New("closed")
	hold, held := make(chan struct{}), make(chan struct{}, 1)
	var mu sync.Mutex
	var batches [][]int
	c := NewCommitter(1, 64, 16, Gather{}, errClosed, func(live []*testReq) {
		if live[0].n == 0 {
			held <- struct{}{}
			<-hold
		}
		var b []int
		for _, r := range live {
			b = append(b, r.n)
			if r.n == 3 {
				r.Err = errors.New("refused")
			}
		}
		mu.Lock()
		batches = append(batches, b)
		mu.Unlock()
	})
	ctx := context.Background()
	first := make(chan error, 1)
	go func() { first <- c.Submit(ctx, &testReq{n: 0}) }()
	<-held
	answers := make([]chan error, 5)
	for i := 1; i < 5; i++ {
		answers[i] = make(chan error, 1)
		r := &testReq{n: i}
		go func() { answers[r.n] <- c.Submit(ctx, r) }()
	}
	for c.Waiting() < 4 {
		runtime.Gosched() // the four wait behind the held commit
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if err := c.Submit(gone, &testReq{n: 9}); !errors.Is(err, context.Canceled) {
		t.Errorf("a write whose caller gave up: %v", err)
	}
	closed := make(chan struct{})
	go func() { c.Close(); close(closed) }()
	close(hold)
	<-closed
	if err := <-first; err != nil {
		t.Errorf("the first write: %v", err)
	}
	for i := 1; i < 5; i++ {
		if err := <-answers[i]; (err != nil) != (i == 3) {
			t.Errorf("write %d: %v", i, err)
		}
	}
	if len(batches) != 2 || len(batches[1]) != 4 {
		t.Errorf("batches %v, want [0] then the four together", batches)
	}
	if err := c.Submit(ctx, &testReq{n: 5}); !errors.Is(err, errClosed) {
		t.Errorf("a write after Close: %v", err)
	}
}

// TestCommitterHoldsABatchOnlyWhileRequestsArriveWhileItIsBusy pins
// Gather: a caller that waits for each write before it makes the next is
// never held (nothing arrives while the writer is busy), and once writes
// have arrived while it was busy, a small batch is held until Until
// requests are queued, which commit together. The hold is an hour long:
// a hold that should not happen, or that Submit failed to end, hangs the
// test.
func TestCommitterHoldsABatchOnlyWhileRequestsArriveWhileItIsBusy(t *testing.T) {
	hold, held := make(chan struct{}), make(chan struct{}, 1)
	var mu sync.Mutex
	var batches [][]int
	c := NewCommitter(1, 64, 16, Gather{Wait: time.Hour, Until: 4}, errors.New("closed"), func(live []*testReq) {
		if live[0].n == 100 {
			held <- struct{}{}
			<-hold
		}
		var b []int
		for _, r := range live {
			b = append(b, r.n)
		}
		mu.Lock()
		batches = append(batches, b)
		mu.Unlock()
	})
	defer c.Close()
	ctx := context.Background()
	for i := range 50 {
		if err := c.Submit(ctx, &testReq{n: i}); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := c.Gathered(); n != 0 {
		t.Errorf("one caller's writes, one after another: %d batches held, want none", n)
	}

	// A write arrives while the writer commits another: the rate it has
	// seen now brings one within the hour.
	first := make(chan error, 1)
	go func() { first <- c.Submit(ctx, &testReq{n: 100}) }()
	<-held
	answers := make(chan error, 4)
	go func() { answers <- c.Submit(ctx, &testReq{n: 101}) }()
	for c.Waiting() < 1 {
		runtime.Gosched()
	}
	close(hold)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	// 101 is held until three more are queued.
	for i := 102; i < 105; i++ {
		go func() { answers <- c.Submit(ctx, &testReq{n: i}) }()
	}
	for range 4 {
		if err := <-answers; err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	last := batches[len(batches)-1]
	mu.Unlock()
	slices.Sort(last)
	if !slices.Equal(last, []int{101, 102, 103, 104}) {
		t.Errorf("the last batch %v, want the four together", last)
	}
	if n, _ := c.Gathered(); n != 1 {
		t.Errorf("%d batches held, want 1", n)
	}
}
