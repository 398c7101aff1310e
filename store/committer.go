package store

import (
	"context"
	"sync"
	"sync/atomic"
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
	closed  error // what Submit answers once Close has begun
	wg      sync.WaitGroup
	mu      sync.RWMutex // guards stopped against senders
	stopped bool
	senders sync.WaitGroup // submits between the stopped check and their send
}

// NewCommitter starts writers goroutines that commit the requests queued
// (up to queue waiting) in batches of at most most, by calling commit with
// each batch's requests that are still wanted (their callers waiting);
// commit sets each one's Err. Submit answers closed once Close has begun.
func NewCommitter[R Queued](writers, queue, most int, closed error, commit func(live []R)) *Committer[R] {
	c := &Committer[R]{reqs: make(chan R, queue), commit: commit, most: most, closed: closed}
	for range writers {
		c.wg.Go(c.loop)
	}
	return c
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
	select {
	case c.reqs <- r:
		c.senders.Done()
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
	c.wg.Wait()
}

// loop is one writer goroutine: it takes every pending request (up to
// most), commits them together, and answers each; it stops once the queue
// is closed and drained.
func (c *Committer[R]) loop() {
	batch := make([]R, 0, c.most)
	for {
		r, ok := <-c.reqs
		if !ok {
			return
		}
		batch = append(batch[:0], r)
	fill:
		for len(batch) < c.most {
			select {
			case r, ok := <-c.reqs:
				if !ok {
					break fill
				}
				batch = append(batch, r)
			default:
				break fill
			}
		}
		c.run(batch)
		clear(batch) // let the requests go
	}
}

// run commits the requests of batch still wanted and lets their callers go.
func (c *Committer[R]) run(batch []R) {
	live := batch[:0]
	for _, r := range batch {
		if r.request().state.CompareAndSwap(reqPending, reqTaken) {
			live = append(live, r)
		}
	}
	if len(live) == 0 {
		return
	}
	defer func() {
		for _, r := range live {
			if q := r.request(); q.done != nil {
				close(q.done)
			}
		}
	}()
	c.commit(live)
}
