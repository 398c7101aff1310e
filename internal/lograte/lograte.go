// Package lograte limits repeated log lines: a slog.Handler that passes the
// first warning or error of each kind at once and then at most one line of
// that kind per interval, saying how many it suppressed in between. A
// server whose store fails writes the same error for every game at every
// step; without a limit its log grows with the games in play.
//
// It owns only the decision to pass or drop a record. It must not change
// what a record says (it adds a count), nor limit records below Warn.
package lograte

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// maxKinds bounds the kinds remembered: past it, records are told apart by
// their level and message alone.
const maxKinds = 1024

// Handler is a slog.Handler that limits repeated warnings and errors (see
// the package comment).
//
// A record's kind is its level, its message and its own attributes, with
// an error ("err") reduced to its innermost cause: the same failure in many
// rooms, whose loggers carry the table (With), is one kind; the attributes
// a caller puts on the record itself (a table set aside, a path) tell kinds
// apart.
type Handler struct {
	next  slog.Handler
	state *state
}

type state struct {
	every time.Duration
	now   func() time.Time
	mu    sync.Mutex
	kinds map[string]*kind
}

type kind struct {
	last       time.Time // when a record of this kind was last passed
	suppressed int       // dropped since then
}

// New returns a Handler that passes records to next, at most one of each
// kind per every (0: no limit), by the clock now (nil: time.Now).
func New(next slog.Handler, every time.Duration, now func() time.Time) *Handler {
	if now == nil {
		now = time.Now
	}
	return &Handler{next: next, state: &state{every: every, now: now, kinds: map[string]*kind{}}}
}

// Enabled is next's.
func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

// Handle passes r on unless a record of its kind was passed less than the
// interval ago; a record passed after others were dropped carries their
// number as "suppressed".
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	st := h.state
	if r.Level < slog.LevelWarn || st.every <= 0 {
		return h.next.Handle(ctx, r)
	}
	key := kindOf(r, true)
	now := st.now()
	st.mu.Lock()
	k := st.kinds[key]
	if k == nil && len(st.kinds) >= maxKinds {
		st.forget(now)
		if len(st.kinds) >= maxKinds {
			key = kindOf(r, false)
			k = st.kinds[key]
		}
	}
	if k == nil {
		k = &kind{}
		st.kinds[key] = k
	} else if now.Sub(k.last) < st.every {
		k.suppressed++
		st.mu.Unlock()
		return nil
	}
	n := k.suppressed
	k.last, k.suppressed = now, 0
	st.mu.Unlock()
	if n > 0 {
		r = r.Clone()
		r.AddAttrs(slog.Int("suppressed", n), slog.Duration("suppressed_over", st.every))
	}
	return h.next.Handle(ctx, r)
}

// forget drops the kinds not seen for an interval (their count is lost).
func (st *state) forget(now time.Time) {
	for key, k := range st.kinds {
		if now.Sub(k.last) >= st.every {
			delete(st.kinds, key)
		}
	}
}

// WithAttrs is next's, sharing the limits.
func (h *Handler) WithAttrs(as []slog.Attr) slog.Handler {
	return &Handler{next: h.next.WithAttrs(as), state: h.state}
}

// WithGroup is next's, sharing the limits.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{next: h.next.WithGroup(name), state: h.state}
}

// kindOf is the key of a record's kind: its level and message, and with
// attrs its attributes, an error reduced to its innermost cause.
func kindOf(r slog.Record, attrs bool) string {
	var b strings.Builder
	b.WriteString(r.Level.String())
	b.WriteByte(0)
	b.WriteString(r.Message)
	if !attrs {
		return b.String()
	}
	r.Attrs(func(a slog.Attr) bool {
		b.WriteByte(0)
		b.WriteString(a.Key)
		b.WriteByte('=')
		v := a.Value.Resolve()
		if err, ok := v.Any().(error); ok && v.Kind() == slog.KindAny {
			b.WriteString(rootCause(err))
		} else {
			b.WriteString(v.String())
		}
		return true
	})
	return b.String()
}

// rootCause is the text of an error's innermost cause (the first, where
// it joins several).
func rootCause(err error) string {
	for {
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			next := u.Unwrap()
			if next == nil {
				return err.Error()
			}
			err = next
		case interface{ Unwrap() []error }:
			errs := u.Unwrap()
			if len(errs) == 0 {
				return err.Error()
			}
			err = errs[0]
		default:
			return fmt.Sprint(err)
		}
	}
}
