package room

import (
	"context"
	"sync"
)

// outQueue is one connection's queue of frames and replies: the room
// pushes, the connection's writer takes. It holds no memory while empty (a
// room has thousands of idle connections; a buffered channel per connection
// would hold its whole bound all the time), and grows only as far as the
// room's SendBuffer, past which the room drops the connection.
type outQueue struct {
	mu     sync.Mutex
	items  []Out
	head   int
	closed bool
	// ready, made only when a reader waits (Next), gets a token after each
	// push and at close.
	ready chan struct{}
}

// keepCap is the most capacity an emptied queue keeps for its next burst.
const keepCap = 16

// push adds an item unless the queue already holds limit items; it reports
// whether the item was added.
func (q *outQueue) push(o Out, limit int) bool {
	q.mu.Lock()
	if q.closed || len(q.items)-q.head >= limit {
		q.mu.Unlock()
		return false
	}
	q.items = append(q.items, o)
	q.signalLocked()
	q.mu.Unlock()
	return true
}

// close ends the queue; what it holds can still be taken.
func (q *outQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.signalLocked()
	q.mu.Unlock()
}

func (q *outQueue) signalLocked() {
	if q.ready != nil {
		select {
		case q.ready <- struct{}{}:
		default:
		}
	}
}

// take removes the first item. ok is false when the queue is empty; open
// is false when it is also closed, so nothing more will come.
func (q *outQueue) take() (o Out, ok, open bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.head == len(q.items) {
		return Out{}, false, !q.closed
	}
	o = q.items[q.head]
	q.items[q.head] = Out{}
	q.head++
	if q.head == len(q.items) {
		q.head = 0
		if cap(q.items) > keepCap {
			q.items = nil
		} else {
			q.items = q.items[:0]
		}
	}
	return o, true, true
}

// next waits for an item; ok is false once the queue is closed and empty,
// or when ctx ends.
func (q *outQueue) next(ctx context.Context) (Out, bool) {
	for {
		o, ok, open := q.take()
		if ok {
			return o, true
		}
		if !open {
			return Out{}, false
		}
		q.mu.Lock()
		if q.ready == nil {
			q.ready = make(chan struct{}, 1)
		}
		ready := q.ready
		q.mu.Unlock()
		// An item pushed between take and here left a token, or the
		// next take finds it.
		if o, ok, open := q.take(); ok {
			return o, true
		} else if !open {
			return Out{}, false
		}
		select {
		case <-ready:
		case <-ctx.Done():
			return Out{}, false
		}
	}
}

// Take removes the first item queued for the connection without waiting.
// ok is false when nothing waits; open is false once the room has dropped
// the connection and everything it queued has been taken.
func (s *Sub) Take() (o Out, ok, open bool) { return s.out.take() }

// Next waits for the next item queued for the connection. It returns false
// once the room has dropped the connection and everything it queued has
// been taken, or when ctx ends.
func (s *Sub) Next(ctx context.Context) (Out, bool) { return s.out.next(ctx) }
