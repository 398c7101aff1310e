package room

// This file is the room's hook on its step: other parts of the server (the
// voice table first) follow who holds the floor and the phase without a line
// of theirs in the room's loop. The loop tells its watchers after each
// request it handles, when the state they see has changed; what they see is
// public (every seat and spectator sees it), so a watcher learns no secret.

import (
	"context"
	"time"

	"mafia/engine"
)

// StepState is a table's public state of the moment: its step, the phase,
// who holds the floor, and whether the clock runs. Every seat and every
// spectator sees all of it.
type StepState struct {
	// Table is the table's id.
	Table string
	// Started is true once the game is dealt (false in the lobby).
	Started bool
	// Step is the game's step (engine.Game.Step): it changes at every
	// floor, vote, night and end.
	Step int
	// Phase is the game's phase, Round its round (day and night n).
	Phase engine.Phase
	Round int
	// Speaker is the seat that holds the floor (a speech, a defence, last
	// words), 0 when nobody does: at night, in a vote, in the lobby.
	Speaker engine.Seat
	// Alive is the seats still in the game.
	Alive engine.SeatSet
	// Fouls is each seat's fouls (by seat number), public as the host
	// gives them: the voice table cuts the floor's microphone at a foul.
	Fouls [engine.MaxSeats + 1]uint8
	// Paused is true while the clock stands: the host paused the game, or
	// it froze with no person at the table (Frozen, presence.go).
	Paused, Frozen bool
	// Deadline is when the step's clock runs out (zero while paused, in
	// the lobby and after the end).
	Deadline time.Time
	// Ended is true once the game is over; Stopped in the last call a
	// watcher gets, when the room stops (the game may go on elsewhere: a
	// table handed to another node).
	Ended, Stopped bool
	// Moved is set with Stopped when the table passed to another node of
	// the cluster (its connections close 1012 table_moved): the last call
	// comes before the room lets its connections go, so that a watcher may
	// queue them a last frame (the voice table's closed).
	Moved bool
}

// watcher is one Watch's function.
type watcher struct{ f func(StepState) }

// Watch calls f with the table's step state now, then again each time it
// changes (a new step or floor, a pause or a resume, the end), and once
// more with Stopped when the room stops. f runs on the room's goroutine: it
// must not block and must not call the room back; it should hand the state
// to its own goroutine. A watcher that panics is dropped, and the room goes
// on. cancel ends the calls (f is not called after cancel returns, unless a
// call was already under way); Watch fails as Attach does when the room has
// stopped or its inbox is full.
func (r *Room) Watch(ctx context.Context, f func(StepState)) (cancel func(), err error) {
	w := &watcher{f: f}
	err = r.do(ctx, func() {
		if r.watchers == nil {
			r.watchers = map[*watcher]struct{}{}
		}
		r.watchers[w] = struct{}{}
		r.watched = r.stepState(false)
		r.callWatcher(w, r.watched)
	})
	if err != nil {
		return func() {}, err
	}
	return func() {
		// As Detach: never lost to a full inbox, nothing to do once the
		// room has stopped.
		done := make(chan struct{})
		select {
		case r.inbox <- func() { delete(r.watchers, w); close(done) }:
			select {
			case <-done:
			case <-r.done:
			}
		case <-r.done:
		}
	}, nil
}

// stepState is the state watchers see now.
func (r *Room) stepState(stopped bool) StepState {
	st := StepState{Table: r.id, Paused: r.paused, Frozen: r.frozen, Stopped: stopped,
		Moved: stopped && r.stoppedCode() == CodeMoved}
	if r.game == nil {
		return st
	}
	st.Started, st.Step, st.Phase, st.Round = true, r.game.Step(), r.game.Phase(), r.game.Round()
	st.Speaker, st.Alive, st.Ended = r.game.Speaker(), r.game.Alive(), r.game.Ended()
	for s := 1; s <= r.game.Players() && s <= engine.MaxSeats; s++ {
		st.Fouls[s] = uint8(min(r.game.Fouls(engine.Seat(s)), 255))
	}
	if !st.Paused && !st.Ended {
		st.Deadline = r.deadline
	}
	return st
}

// tellWatchers tells every watcher the state, if it changed since they were
// last told (stopped: the room's last call, always made).
func (r *Room) tellWatchers(stopped bool) {
	if len(r.watchers) == 0 {
		return
	}
	st := r.stepState(stopped)
	if st == r.watched && !stopped {
		return
	}
	r.watched = st
	for w := range r.watchers {
		r.callWatcher(w, st)
	}
}

// callWatcher calls one watcher; a panic drops it, logged, and leaves the
// room running.
func (r *Room) callWatcher(w *watcher, st StepState) {
	defer func() {
		if p := recover(); p != nil {
			delete(r.watchers, w)
			r.cfg.Log.Error("a step watcher panicked; dropped", "table", r.id, "panic", p)
		}
	}()
	w.f(st)
}
