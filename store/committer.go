package store

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// The group commit both stores make: writes from every room wait in one
// queue, and a writer goroutine takes every write waiting (up to a batch's
// most) and commits them in one transaction, one commit (one flush of the
// database's log) for all of them instead of one each. A Committer is that
// queue and its writers; what a batch's transaction is, and how each write
// of it is checked and answered, is the store's (its commit func), as its
// request type R (which embeds Request) is.

// The states of a Request: its caller may give up on it only while it is
// pending; once a writer has taken it, the caller waits for the commit.
const (
	reqPending int32 = iota
	reqTaken
	reqCancelled
)

// Request is what a Committer keeps of each write it queues: a store's
// request type embeds it.
type Request struct {
	state atomic.Int32
	// Err is the write's answer, set by the store's commit before the
	// Committer lets the caller go.
	Err  error
	done chan struct{}
}

// request is how a Committer reaches the Request a store's request embeds.
func (r *Request) request() *Request { return r }

// Taken reports whether a writer has taken the request (it is committed,
// or fails, whatever its caller does).
func (r *Request) Taken() bool { return r.state.Load() == reqTaken }

// Queued is a store's request type: one that embeds Request.
type Queued interface{ request() *Request }

// Committer is a group commit's queue and writers, for a store's request
// type R. Make it with NewCommitter.
type Committer[R Queued] struct {
	reqs    chan R
	commit  func(live []R)
	most    int
	gather  Gather
	closed  error // what Submit answers once Close has begun
	wg      sync.WaitGroup
	mu      sync.RWMutex // guards stopped against senders
	stopped bool
	senders sync.WaitGroup // submits between the stopped check and their send

	// take is held by the writer gathering a batch: with several
	// writers, one at a time takes from the queue, so that they do not
	// share out between them what one would gather.
	take sync.Mutex

	arrived    atomic.Int64  // requests submitted so far (for the writers' rate)
	need       atomic.Int64  // while a writer holds a batch, the requests queued that end the hold (hold)
	full       chan struct{} // wakes it once they are
	gathers    atomic.Int64  // batches a writer held to gather more
	gatherNano atomic.Int64  // the time they were held
}

// Gather is how a Committer's writer may hold a small batch for a moment
// to gather more, as PostgreSQL's commit_delay and Kafka's linger do: much
// of a write's cost is its transaction's (its begin, its commit, a flush
// of the log or a round trip), which the writes of one batch share. A
// writer holds a batch only when writes have been arriving while it was
// busy at a rate that brings at least one more within Wait (a quiet
// store, and a caller that waits for each write before it makes the
// next, are never held): for at most Wait from when it took the batch, or
// until Until writes are queued for it. What is acknowledged is
// unchanged: each write is answered once its batch has committed. The
// zero Gather never holds a batch.
type Gather struct {
	Wait  time.Duration // the longest a batch is held (0: never)
	Until int           // a batch this large is committed at once
}

// NewCommitter starts writers goroutines that commit the requests queued
// (up to queue waiting) in batches of at most most, by calling commit with
// each batch's requests that are still wanted (their callers waiting);
// commit sets each one's Err. A small batch may be held for a moment to
// gather more, as g says. Submit answers closed once Close has begun.
func NewCommitter[R Queued](writers, queue, most int, g Gather, closed error, commit func(live []R)) *Committer[R] {
	if g.Until <= 0 || g.Until > most {
		g.Until = most
	}
	c := &Committer[R]{reqs: make(chan R, queue), commit: commit, most: most, gather: g, closed: closed,
		full: make(chan struct{}, 1)}
	for range writers {
		c.wg.Go(c.loop)
	}
	return c
}

// Gathered returns how many batches the writers held to gather more, and
// for how long in all.
func (c *Committer[R]) Gathered() (batches int64, held time.Duration) {
	return c.gathers.Load(), time.Duration(c.gatherNano.Load())
}

// Submit queues r and waits for its answer. If ctx ends before a writer
// has taken it, it returns ctx.Err() and nothing was written; once taken,
// r is committed (or fails) whatever ctx does, and its own answer is
// returned.
func (c *Committer[R]) Submit(ctx context.Context, r R) error {
	q := r.request()
	q.done = make(chan struct{})
	c.mu.RLock()
	if c.stopped {
		c.mu.RUnlock()
		return c.closed
	}
	c.senders.Add(1)
	c.mu.RUnlock()
	if c.gather.Wait > 0 {
		c.arrived.Add(1)
	}
	select {
	case c.reqs <- r:
		c.senders.Done()
		if n := c.need.Load(); n > 0 && int64(len(c.reqs)) >= n {
			c.wake()
		}
	case <-ctx.Done():
		c.senders.Done()
		return ctx.Err()
	}
	select {
	case <-q.done:
		return q.Err
	case <-ctx.Done():
		if q.state.CompareAndSwap(reqPending, reqCancelled) {
			return ctx.Err()
		}
		<-q.done // taken: the commit is under way
		return q.Err
	}
}

// wake ends a writer's hold (at most one writer holds at a time).
func (c *Committer[R]) wake() {
	select {
	case c.full <- struct{}{}:
	default:
	}
}

// Waiting is how many requests wait in the queue for a writer.
func (c *Committer[R]) Waiting() int { return len(c.reqs) }

// Closed reports whether Close has begun.
func (c *Committer[R]) Closed() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.stopped
}

// Close refuses new requests, lets the writers commit every one already
// queued, and waits for them to stop.
func (c *Committer[R]) Close() {
	c.mu.Lock()
	already := c.stopped
	c.stopped = true
	c.mu.Unlock()
	if already {
		return
	}
	c.senders.Wait()
	close(c.reqs)
	c.wake() // a batch held need not wait for more
	c.wg.Wait()
}

// gatherDecay is how much of what a writer has seen of the arrivals
// (rate) each batch keeps: the rate is that of about the last ten batches.
const gatherDecay = 0.9

// rate is what a writer knows of how fast requests arrive while it is
// busy: the arrivals it saw while it held a batch (gathering or
// committing it) over the time it held them, both decayed per batch.
// Arrivals while it waits idle are not counted: a caller that makes its
// next write only once the last is answered never arrives while it is
// busy, and lingering would gain nothing from it.
type rate struct {
	arrived float64
	busy    float64 // seconds
}

// perSecond is the arrivals a second, 0 before any were seen.
func (r *rate) perSecond() float64 {
	if r.busy <= 0 {
		return 0
	}
	return r.arrived / r.busy
}

// add counts n arrivals in d.
func (r *rate) add(n int, d time.Duration) {
	r.arrived = r.arrived*gatherDecay + float64(n)
	r.busy = r.busy*gatherDecay + d.Seconds()
}

// loop is one writer goroutine: it takes every pending request (up to
// most), holds the batch for more if it should (gather), commits them
// together, and answers each; it stops once the queue is closed and
// drained.
func (c *Committer[R]) loop() {
	batch := make([]R, 0, c.most)
	var (
		seen  rate
		timer *time.Timer
	)
	if c.gather.Wait > 0 {
		timer = time.NewTimer(time.Hour)
		timer.Stop()
	}
	for {
		c.take.Lock()
		r, ok := <-c.reqs
		if !ok {
			c.take.Unlock()
			return
		}
		batch = append(batch[:0], r)
		open := c.drain(&batch)
		var (
			began  time.Time
			before int64
		)
		if timer != nil {
			began, before = time.Now(), c.arrived.Load()
			if open && len(batch) < c.gather.Until {
				c.hold(&batch, &seen, timer, began)
			}
		}
		c.take.Unlock()
		live := c.run(batch)
		if timer != nil {
			// What arrived while this batch was gathered and committed
			// (before its callers are answered: their next requests
			// are not counted).
			seen.add(int(c.arrived.Load()-before), time.Since(began))
		}
		answer(live)
		clear(batch) // let the requests go
	}
}

// drain adds to batch every request waiting (up to most) without waiting
// for any; it returns false if the queue was closed.
func (c *Committer[R]) drain(batch *[]R) (open bool) {
	for len(*batch) < c.most {
		select {
		case r, ok := <-c.reqs:
			if !ok {
				return false
			}
			*batch = append(*batch, r)
		default:
			return true
		}
	}
	return true
}

// hold holds batch, begun at began, for more requests if requests arrive
// fast enough for it to gain one within the Gather's Wait (seen): it
// sleeps until Wait has passed or Until requests are queued (Submit wakes
// it then), and takes what is queued. It does not wake for each request
// that arrives meanwhile: a version that did (and ended the hold after
// twice the mean gap between arrivals) took 2 to 13% more CPU per append
// in BenchmarkCommands (docs/performance.md).
func (c *Committer[R]) hold(batch *[]R, seen *rate, timer *time.Timer, began time.Time) {
	if seen.perSecond()*c.gather.Wait.Seconds() < 1 {
		return
	}
	need := c.gather.Until - len(*batch)
	c.need.Store(int64(need))
	if len(c.reqs) < need {
		timer.Reset(c.gather.Wait)
		select {
		case <-timer.C:
		case <-c.full:
			timer.Stop()
		}
	}
	c.need.Store(0)
	select {
	case <-c.full: // a wake-up that came late
	default:
	}
	c.drain(batch)
	c.gathers.Add(1)
	c.gatherNano.Add(int64(time.Since(began)))
}

// run commits the requests of batch still wanted and returns them; their
// callers wait until answer lets them go.
func (c *Committer[R]) run(batch []R) (live []R) {
	live = batch[:0]
	for _, r := range batch {
		if r.request().state.CompareAndSwap(reqPending, reqTaken) {
			live = append(live, r)
		}
	}
	if len(live) == 0 {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			answer(live)
			panic(p)
		}
	}()
	c.commit(live)
	return live
}

// answer lets the callers of live go.
func answer[R Queued](live []R) {
	for _, r := range live {
		if q := r.request(); q.done != nil {
			close(q.done)
		}
	}
}
