package store

import (
	"context"
	"errors"
	"sync"
	"time"
)

// WriteTracker keeps what a store knows of its writes (WriteHealth): every
// write transaction of the store reports how it ended (Note). Both stores
// keep one; what differs between them is only how a failure is put in
// words (their reason func) and which of their own errors are no failure.
// The zero value is ready.
type WriteTracker struct {
	mu sync.Mutex
	h  WriteHealth
}

// WriteHealth returns whether the store's writes commit, as far as it
// knows.
func (t *WriteTracker) WriteHealth() WriteHealth {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.h
}

// Note records how a write ended: committed (err nil), or failed, with
// reason putting the failure in a few words for an operator. A refusal of
// what was asked (IsRefusal) says nothing of the store and is not noted.
func (t *WriteTracker) Note(err error, reason func(error) string) {
	if err != nil && IsRefusal(err) {
		return
	}
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	h := &t.h
	if err == nil {
		h.LastOK, h.Since = now, time.Time{}
		return
	}
	if h.Since.IsZero() {
		h.Since = now
	}
	h.LastFail, h.Err, h.Reason = now, err, reason(err)
}

// IsRefusal reports whether a write's err refuses what was asked (a
// conflict, a fence, a table not found, a full chat, a lease held or
// lost) or says the caller gave up (its context), as opposed to a store
// that could not write.
func IsRefusal(err error) bool {
	return errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) || errors.Is(err, ErrChatFull) ||
		errors.Is(err, ErrLeaseHeld) || errors.Is(err, ErrLeaseLost) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
