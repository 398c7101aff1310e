package account

import (
	"context"
	"fmt"
	"runtime"
	"testing"
)

// hold takes a turn of q for bucket on a goroutine and reports on the
// returned channel once it has it (nil) or was refused; the turn is kept
// until release is called.
func hold(q *hashQueue, bucket string) chan error {
	got := make(chan error, 1)
	go func() { got <- q.acquire(context.Background(), bucket) }()
	return got
}

// waitQueued waits until n attempts wait in q (the goroutines of hold
// have queued).
func waitQueued(t *testing.T, q *hashQueue, n int) {
	t.Helper()
	for q.snapshot().Queued != n {
		select {
		case <-t.Context().Done():
			t.Fatalf("queued %d, want %d", q.snapshot().Queued, n)
		default:
			runtime.Gosched()
		}
	}
}

// TestBudget_CeilingQueueAndRoundRobin: no more than the ceiling run at
// once; the waiting attempts are served the bucket that has hashed least
// first, one bucket after another among equals, so a bucket that hashed
// already waits behind the others, and none waits behind all of another's;
// the bucket's own bound and the queue's refuse with login_busy.
func TestBudget_CeilingQueueAndRoundRobin(t *testing.T) {
	q := newHashQueue(Budget{Ceiling: 2, Queue: 9, PerBucket: 3})
	var order []string
	q.onGrant = func(b string, _ int) { order = append(order, b) }
	for range 2 {
		if err := q.acquire(bg, "a"); err != nil {
			t.Fatal(err)
		}
	}
	var waits []chan error
	n := 0
	for _, b := range []string{"a", "a", "a", "b", "b", "b", "c", "c"} {
		waits = append(waits, hold(q, b))
		n++
		waitQueued(t, q, n)
	}
	if err := q.acquire(bg, "a"); codeOf(err) != CodeLoginBusy {
		t.Errorf("a fourth waiting attempt of one bucket: %v, want login_busy", err)
	}
	waits = append(waits, hold(q, "d"))
	waitQueued(t, q, 9)
	if err := q.acquire(bg, "c"); codeOf(err) != CodeLoginBusy {
		t.Errorf("an attempt with the queue full and its bucket as full as any: %v, want login_busy", err)
	}
	// A new bucket takes the newest place of the fullest.
	waits = append(waits, hold(q, "e"))
	for q.snapshot().Refused != 3 {
		if t.Context().Err() != nil {
			t.Fatal("the new bucket took no place")
		}
		runtime.Gosched()
	}
	refused := 0
	for i := 0; i < 11; i++ {
		if s := q.snapshot(); s.Running > 2 {
			t.Fatalf("%d hashes at once, ceiling 2", s.Running)
		}
		q.release()
		if q.snapshot().Queued == 0 && q.snapshot().Running == 0 {
			break
		}
	}
	for _, w := range waits {
		if err := <-w; err != nil {
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("%d waiting attempts refused, want 1 (the one evicted)", refused)
	}
	// a has hashed twice already (and its newest place went to e): the
	// others first, then by what each has hashed, the ring's order among
	// equals.
	if got := fmt.Sprint(order); got != "[b c d e b c a b a]" {
		t.Errorf("served %s, want [b c d e b c a b a]", got)
	}
	if s := q.snapshot(); s.Peak != 2 || s.Refused != 3 || s.Done != 11 {
		t.Errorf("stats %+v, want peak 2, 3 refused, 11 done", s)
	}
}

// TestBudget_GivingUpFreesThePlace: an attempt whose request ends while
// it waits leaves the queue and computes nothing.
func TestBudget_GivingUpFreesThePlace(t *testing.T) {
	q := newHashQueue(Budget{Ceiling: 1})
	if err := q.acquire(bg, "a"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg)
	got := make(chan error, 1)
	go func() { got <- q.acquire(ctx, "b") }()
	waitQueued(t, q, 1)
	cancel()
	if err := <-got; codeOf(err) != "internal" {
		t.Errorf("an attempt whose request ended: %v", err)
	}
	if s := q.snapshot(); s.Queued != 0 || s.Done != 1 {
		t.Errorf("stats %+v after the attempt gave up", s)
	}
	q.release()
	if err := q.acquire(bg, "c"); err != nil {
		t.Errorf("with the turn free again: %v", err)
	}
}

// TestBudget_BucketsOfAddresses: IPv4 addresses are buckets of their own,
// IPv6 ones share their /48.
func TestBudget_BucketsOfAddresses(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"10.0.0.1/32", "10.0.0.1/32"},
		{"2001:db8:1:2::/64", "2001:db8:1::/48"},
		{"2001:db8:1:ffff::/64", "2001:db8:1::/48"},
		{"2001:db8::1", "2001:db8::/48"},
		{"", ""},
	} {
		if got := bucketOf(c.a); got != c.b {
			t.Errorf("bucketOf(%q) = %q, want %q", c.a, got, c.b)
		}
	}
}

// TestBudget_AFreshAddressGoesNext: behind a queue of addresses that
// keep hashing, an address that has not hashed lately gets the next turn.
func TestBudget_AFreshAddressGoesNext(t *testing.T) {
	q := newHashQueue(Budget{Ceiling: 1, Queue: 64, PerBucket: 4})
	var order []string
	q.onGrant = func(b string, _ int) { order = append(order, b) }
	if err := q.acquire(bg, "x"); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range []string{"a", "b", "c", "a", "b", "c", "a", "b", "c"} {
		hold(q, b)
		n++
		waitQueued(t, q, n)
	}
	for range 6 { // each flooder hashes twice
		q.release()
	}
	hold(q, "fresh")
	waitQueued(t, q, 4)
	q.release()
	if got := order[len(order)-1]; got != "fresh" {
		t.Errorf("after %v the turn went to %s, want the fresh address", order, got)
	}
}
