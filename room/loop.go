package room

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"slices"
	"time"

	"mafia/engine"
	"mafia/store"
)

// storeTimeout bounds the room's store calls other than appends (tables,
// seats, clocks on pause and resume); appends wait on the room's life (see
// save).
const storeTimeout = 10 * time.Second

// ctx is the context of one store call other than an append: bounded by
// storeTimeout, and fenced as every write of the room is (fence.go).
func (r *Room) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.base, storeTimeout)
}

// run is the room's goroutine: the only one that touches its state.
func (r *Room) run() {
	defer func() {
		r.endLife()
		r.stopTimers()
		stopTimer(&r.absence)
		stopTimer(&r.linger)
		stopTimer(&r.rewrite)
		if len(r.unsaved) > 0 && !r.flushUnsaved() && !r.moved.Load() {
			r.cfg.Log.Error("room stopped with store writes that never committed", "writes", len(r.unsaved))
		}
		if r.moving.Load() {
			r.moved.Store(true) // Move: handed over, its writes made
		}
		// The watchers first: what they queue to the connections (the
		// voice table's closed) goes out before the connections close.
		r.tellWatchers(true)
		for s := range r.subs {
			r.drop(s, r.stoppedCode()) // CodeMoved once the table moved (fence.go)
		}
		r.endStandIns()
		if r.fenced && r.cfg.Lost != nil {
			r.cfg.Lost(r.id)
		}
		close(r.done)
		if r.cfg.OnStop != nil {
			r.cfg.OnStop(r.id)
		}
	}()
	// stopping may be set before the room runs (Resume's write fenced out).
	for !r.stopping {
		// What the last turn (or the room's start) queued is told to the
		// connections before the room waits (Entry.TurnEnd).
		r.endTurn()
		select {
		case f := <-r.inbox:
			select {
			case <-r.quit:
				return // stopped: nothing queued is begun after Stop (see Stop)
			default:
			}
			r.safely(f)
			for i := 0; r.lobbyDirty && !r.stopping && i < 3; i++ {
				r.lobbyDirty = false
				r.safely(r.broadcastLobby)
			}
			r.tellWatchers(false)
		case <-r.quit:
			return
		}
	}
}

// safely runs one request; a panic (a bug) stops this room, with its stack
// in the log, instead of taking every other table down with the process.
// The game's log is in the store: a restart resumes it.
func (r *Room) safely(f func()) {
	defer func() {
		if p := recover(); p != nil {
			r.cfg.Log.Error("room panicked; stopping it", "panic", p, "stack", string(debug.Stack()))
			r.stopping = true
		}
	}()
	f()
}

// later runs f on the room's goroutine after d (clock time). Unlike post, it
// waits for room in the inbox: a deadline must never be lost.
func (r *Room) later(d time.Duration, f func()) Timer {
	return r.cfg.Clock.AfterFunc(d, func() {
		select {
		case r.inbox <- f:
		case <-r.done:
		}
	})
}

// stopTimer stops *t, if it is set, and clears it.
func stopTimer(t *Timer) {
	if *t != nil {
		(*t).Stop()
		*t = nil
	}
}

func (r *Room) stopTimers() {
	for _, t := range r.timers {
		t.Stop()
	}
	r.timers = r.timers[:0]
	stopTimer(&r.retry)
}

// schedule sets the current step's deadline left from now, with the warning.
func (r *Room) schedule(left time.Duration) {
	r.scheduleUntil(r.cfg.Clock.Now().Add(left))
}

// scheduleUntil sets the current step's deadline, with the warning.
func (r *Room) scheduleUntil(deadline time.Time) {
	r.stopTimers()
	r.deadline = deadline
	left := deadline.Sub(r.cfg.Clock.Now())
	step := r.step
	if left > WarnBefore {
		r.timers = append(r.timers, r.later(left-WarnBefore, func() {
			if r.step == step && !r.paused && r.game != nil && !r.game.Ended() {
				r.warn()
			}
		}))
	}
	r.timers = append(r.timers, r.later(left, func() {
		if r.step == step && !r.paused && r.game != nil && !r.game.Ended() {
			r.timeout()
		}
	}))
	r.scheduleTicks()
}

// saveClock writes the game's clock to the store; a failure is logged and
// refused with CodeInternal, and the caller undoes the change.
func (r *Room) saveClock() error {
	if r.game == nil {
		return nil
	}
	// Paused is the host's pause: a frozen game's clock is stopped too
	// (no deadline), and the table's status says it is frozen.
	c := store.Clock{Step: r.step, Deadline: r.deadline, Left: r.left, Paused: r.hostPaused}
	if r.paused {
		c.Deadline = time.Time{}
	}
	if err := r.movedErr(); err != nil {
		return err
	}
	ctx, cancel := r.ctx()
	defer cancel()
	if err := r.cfg.Store.SaveClock(ctx, r.id, c); err != nil {
		if r.fencedOut(err) {
			return errCode(CodeMoved)
		}
		r.cfg.Log.Error("save clock", "err", err)
		return errCode(CodeInternal)
	}
	return nil
}

// givenUp reports whether a write failed because the room was stopped
// while it waited for the store (Stop ends the room's life, and a write the
// store's writer had not yet taken gives up): the request is then refused
// as the stopped room refuses everything (CodeStopped, or CodeMoved or
// CodeExpired), never as an internal error, since nothing failed but the
// wait, and a client reconnects after it (docs/protocol.md).
func (r *Room) givenUp(what string, err error) bool {
	if r.life.Err() == nil {
		return false
	}
	r.cfg.Log.Info(what+": given up, the room stopped", "err", err)
	return true
}

// timeout ends the current step as docs/rules.md says: whoever has not acted passed.
func (r *Room) timeout() {
	r.lastTick()
	if err := r.apply(engine.Command{Verb: engine.Next}); err != nil {
		if r.moved.Load() {
			return // the table is another node's: nothing is tried again
		}
		r.cfg.Log.Error("timeout", "err", err)
		// Try again shortly: the store may be back. One retry at a time,
		// however long the store fails.
		step := r.step
		stopTimer(&r.retry)
		r.retry = r.later(r.retryWait(time.Second), func() {
			if r.step == step && !r.paused {
				r.timeout()
			}
		})
		return
	}
	r.settle()
}

// apply hands one command to the engine, makes its events durable, then lets
// the seats see them. On a store failure the game is rolled back.
func (r *Room) apply(cmd engine.Command) error {
	r.before = *r.game // a copy in place: no allocation per command
	evs, err := r.game.Handle(cmd)
	if err != nil {
		return err
	}
	r.played(cmd) // before the events that may end the game are saved with the counts
	if err := r.append(evs); err != nil {
		*r.game = r.before
		r.unplayed(cmd)
		return err
	}
	return nil
}

// append makes events the game (already moved on) has produced durable,
// then lets the seats see them. Events that begin a step are saved with
// that step's clock, in the same write: the room waits for the store once
// per command, and its next command waits behind no second write.
func (r *Room) append(evs []engine.Event) error {
	first := len(r.log)
	r.log = append(r.log, evs...)
	clk, newStep, err := r.save(first, r.log[first:])
	if err != nil {
		r.log = r.log[:first]
		return err
	}
	if r.botTable != nil {
		r.botTable.Show(r.log[first:])
	}
	r.afterEvents(first, clk, newStep)
	return nil
}

// save writes the events of the game's log from first on, with the clock
// of the step they begin if they begin one (newStep), and with the table's
// new status if they start or end the game (see tableAfter), in one write.
func (r *Room) save(first int, batch []engine.Event) (clk store.Clock, newStep bool, err error) {
	clk, newStep = r.stepClock(first, batch)
	if err := r.movedErr(); err != nil {
		return clk, newStep, err
	}
	t, changed := r.tableAfter(first)
	// The room waits for its appends until it is stopped, without a timer
	// and a context of its own per command: a store that cannot take them
	// holds this room's requests (its full inbox answers busy), and Stop
	// ends the wait.
	switch {
	case changed:
		var c *store.Clock
		if newStep {
			c = &clk
		}
		err = r.cfg.Store.AppendEventsTable(r.life, t, first, batch, c)
	case newStep:
		err = r.cfg.Store.AppendEventsClock(r.life, r.id, first, batch, clk)
	default:
		err = r.cfg.Store.AppendEvents(r.life, r.id, first, batch)
	}
	if err != nil {
		if r.fencedOut(err) {
			// Nobody is sent these events, nor told of them: the new
			// owner's log goes on without them.
			return clk, newStep, errCode(CodeMoved)
		}
		if r.givenUp("append events", err) {
			return clk, newStep, r.stoppedErr()
		}
		r.cfg.Log.Error("append events", "err", err)
		return clk, newStep, errCode(CodeInternal)
	}
	if changed {
		r.table = t
	}
	return clk, newStep, nil
}

// tableAfter is the table's row as the game (already moved on by the
// events from first on) leaves it: the events that start the game make it
// playing, with the game's seed; the events that end it make it ended,
// with the winner. changed is false for any other events. The row is saved
// with the events that change it, in the same transaction: a crash between
// two writes left a started game "lobby" and an ended one "playing".
func (r *Room) tableAfter(first int) (t store.Table, changed bool) {
	t = r.table
	if first == 0 {
		t.Status, t.Seed, changed = store.StatusPlaying, r.game.Seed(), true
	}
	if r.game.Ended() {
		t.Status, t.Winner, changed = store.StatusEnded, r.game.Winner().String(), true
		// Who played the seats is saved with the end (played.go).
		set := r.set
		moves := Played{Person: slices.Clone(r.moves.Person), StandIn: slices.Clone(r.moves.StandIn)}
		if moves.Person == nil {
			moves = Played{Person: make([]int, len(r.seats)-1), StandIn: make([]int, len(r.seats)-1)}
		}
		set.Played = &moves
		if data, err := json.Marshal(set); err == nil {
			t.Data = data
		}
	}
	if changed {
		t.UpdatedAt = r.cfg.Clock.Now()
	}
	return t, changed
}

// stepClock is the clock of the step that evs (the log's events from first
// on) begin, starting now; newStep is false when they begin none, or end
// the game.
func (r *Room) stepClock(first int, evs []engine.Event) (c store.Clock, newStep bool) {
	if r.game.Ended() {
		return c, false
	}
	c.Step = -1
	for i, e := range evs {
		if stepStart(e.Kind) {
			c.Step = first + i
		}
	}
	if c.Step < 0 {
		return store.Clock{}, false
	}
	c.Left, c.Paused = r.timings.For(r.game.Phase()), r.paused
	if !r.paused {
		c.Deadline = r.cfg.Clock.Now().Add(c.Left)
	}
	return c, true
}

// afterEvents starts the new step's clock clk if one began (it is saved
// already), records the end, and sends every seat what it may see of
// log[first:].
func (r *Room) afterEvents(first int, clk store.Clock, newStep bool) {
	if r.game.Ended() {
		r.stopTimers()
		r.deadline = time.Time{}
		r.endedAt = r.cfg.Clock.Now() // the table is ended in the store already (see save)
		r.endStandIns()
		if r.cfg.Metrics.GameEnded != nil {
			r.cfg.Metrics.GameEnded()
		}
		// The lobby says "ended" before the hook is told: the hook's work
		// runs beside the room and reads the lobby (an online tournament
		// links the game only once its table reads ended; told first, it
		// could read "playing", skip the table, and leave it to the next
		// read: CI saw a round never linked by its end).
		r.publishLobby()
		if r.cfg.Ended != nil {
			r.cfg.Ended(r.id)
		}
	} else if newStep {
		r.step = clk.Step
		r.botDone = 0
		r.botQueued = 0
		r.botBegun = 0
		r.nightTalked = 0
		r.left = clk.Left
		if !r.paused {
			r.scheduleUntil(clk.Deadline)
		}
	}
	if !r.holding() {
		r.dropMafiaLines() // the night is over: its talk too
	}
	r.broadcast(first)
	r.tellWatchers(false) // each command's step, not only the request's last (watch.go)
	if r.game.Ended() {
		r.botsFarewell()
		r.maybeLinger()
	}
}

// saveTable writes the table (status, seed, winner, config) to the store.
// It is only used by background transitions, through persist.
func (r *Room) saveTable() error {
	if err := r.movedErr(); err != nil {
		return err
	}
	r.table.UpdatedAt = r.cfg.Clock.Now()
	ctx, cancel := r.ctx()
	defer cancel()
	err := r.cfg.Store.UpdateTable(ctx, r.table)
	if r.fencedOut(err) {
		return errCode(CodeMoved)
	}
	return err
}

func isVote(p engine.Phase) bool {
	return p == engine.PhaseVote || p == engine.PhaseRevote || p == engine.PhaseAllVote
}

// settle lets bots act and closes a vote everyone has answered, until the
// game waits for a person or the clock.
func (r *Room) settle() {
	for i := 0; i < 10000; i++ {
		if r.game == nil || r.game.Ended() || r.paused || r.moved.Load() {
			return
		}
		if isVote(r.game.Phase()) && r.game.Pending() == 0 {
			if err := r.apply(engine.Command{Verb: engine.Next}); err != nil {
				return
			}
			continue
		}
		if r.paced() {
			r.scheduleBots()
			return
		}
		if !r.botStep() {
			return
		}
	}
}

// maybeLinger stops the room of an ended or a frozen game after the linger
// time with nobody connected (it is loaded again when someone asks for it).
func (r *Room) maybeLinger() {
	if len(r.subs) > 0 || r.game == nil || !(r.game.Ended() || r.frozen) {
		return
	}
	at := r.endedAt
	stopTimer(&r.linger) // the linger counts from the last connection's close
	r.linger = r.later(r.cfg.Linger, func() {
		if len(r.subs) == 0 && (r.frozen || (r.game.Ended() && r.endedAt == at)) {
			r.stopping = true
		}
	})
}
