package assist

import (
	"context"
	"fmt"
	"sync"

	"mafia/engine"
	"mafia/seating"
)

// CodeSeatingBusy refuses a seating while the server is making another
// one: the generator runs one seating at a time (up to seating.MaxMoves of
// annealing, seconds of a core), and /host/seating is open to anyone.
const CodeSeatingBusy engine.Code = "seating_busy"

// seatingKept is how many seatings the page keeps, the least recently
// asked for dropped first: the same form asked again (another language, a
// reload, the print dialog's second look) is answered without the
// generator.
const seatingKept = 8

// seatingGate makes the seatings of /host/seating one at a time and keeps
// the last few. A request for the seating being made waits for it; a
// request for another is refused with CodeSeatingBusy until it is done.
type seatingGate struct {
	generate func(seating.Config) (seating.Seating, error) // seating.Generate; a test's in its place

	mu     sync.Mutex
	kept   []seatingMade // the most recently asked first, at most seatingKept
	making *seatingMade  // the seating being made, or nil
	waits  int           // the requests waiting for it (what a test waits for)
}

// seatingMade is one seating asked for: its form's key and, once done,
// what the generator gave.
type seatingMade struct {
	key  string
	done chan struct{} // closed when s and err are set
	s    seating.Seating
	err  error
}

// seatingKey is what makes a seating: two forms with one key get the same
// seating (the names are not in it: they are only printed).
func seatingKey(c seating.Config) string {
	return fmt.Sprintf("%d/%d/%d/%d/%d/%v", c.Players, c.Tables, c.Seats, c.Games, c.Seed, c.Avoid)
}

// Seating returns cfg's seating: kept, being made (waited for until ctx
// ends), or made now if nothing else is being made and allow (nil: always)
// lets it; else CodeSeatingBusy, or allow's refusal.
func (g *seatingGate) Seating(ctx context.Context, cfg seating.Config, allow func() error) (seating.Seating, error) {
	key := seatingKey(cfg)
	g.mu.Lock()
	for i, m := range g.kept {
		if m.key == key { // to the front: the least recently asked goes first
			copy(g.kept[1:i+1], g.kept[:i])
			g.kept[0] = m
			g.mu.Unlock()
			return m.s, m.err
		}
	}
	if m := g.making; m != nil {
		g.mu.Unlock()
		if m.key != key {
			return seating.Seating{}, &engine.Error{Code: CodeSeatingBusy}
		}
		g.mu.Lock()
		g.waits++
		g.mu.Unlock()
		defer func() {
			g.mu.Lock()
			g.waits--
			g.mu.Unlock()
		}()
		select {
		case <-m.done:
			return m.s, m.err
		case <-ctx.Done():
			return seating.Seating{}, ctx.Err()
		}
	}
	if allow != nil {
		if err := allow(); err != nil {
			g.mu.Unlock()
			return seating.Seating{}, err
		}
	}
	m := &seatingMade{key: key, done: make(chan struct{})}
	g.making = m
	g.mu.Unlock()
	kept := false
	defer func() { // also when the generator panics: the gate opens again
		g.mu.Lock()
		g.making = nil
		if kept {
			g.kept = append([]seatingMade{*m}, g.kept[:min(len(g.kept), seatingKept-1)]...)
		} else {
			m.err = &engine.Error{Code: CodeSeatingBusy}
		}
		g.mu.Unlock()
		close(m.done)
	}()
	m.s, m.err = g.generate(cfg)
	kept = true
	return m.s, m.err
}
