package room_test

import (
	"sync"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
)

// watched records what a Watch function is given.
type watched struct {
	mu     sync.Mutex
	states []room.StepState
}

func (w *watched) add(st room.StepState) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.states = append(w.states, st)
}

func (w *watched) all() []room.StepState {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]room.StepState(nil), w.states...)
}

// floorsOf is the seats that took the floor in the log, in order: each
// speech, defence, tie speech and last words.
func floorsOf(evs []engine.Event) []engine.Seat {
	var seats []engine.Seat
	for _, e := range evs {
		switch e.Kind {
		case engine.EvSpeech, engine.EvDefence, engine.EvTieSpeech, engine.EvLastWords:
			seats = append(seats, e.Target)
		}
	}
	return seats
}

// TestWatch_AWatcherFollowsEveryFloorThePausesAndTheEnd pins the room's
// step hook (watch.go), which the voice table is built on: a watcher is told
// the lobby at once, then every floor in the order the log has them (who
// speaks, from the first speech to the last words), every pause and resume
// with the clock's deadline, the end, and the room's stop; a second
// watcher that panics is dropped without stopping the game; a cancelled
// watcher hears nothing more. Bots that act at once play many floors in
// one request of the room: the watcher still hears of each.
func TestWatch_AWatcherFollowsEveryFloorThePausesAndTheEnd(t *testing.T) {
	for _, delay := range []time.Duration{2 * tick, 0} {
		t.Run("bot delay "+delay.String(), func(t *testing.T) { watchAGame(t, delay) })
	}
}

func watchAGame(t *testing.T, delay time.Duration) {
	set := settings(t, 7, fastTimings)
	set.BotDelay = delay
	f := newFixture(t, set, nil)
	host := f.hostClient()
	spectator := f.attach("")
	var w, cancelled watched
	if _, err := f.r.Watch(bg(), w.add); err != nil {
		t.Fatal(err)
	}
	panics := 0
	if _, err := f.r.Watch(bg(), func(st room.StepState) {
		if st.Started {
			panics++
			panic("a watcher's bug")
		}
	}); err != nil {
		t.Fatal(err)
	}
	cancel, err := f.r.Watch(bg(), cancelled.add)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.all(); len(got) != 1 || got[0].Started || got[0].Table == "" || got[0].Stopped {
		t.Fatalf("a watcher of a lobby is told: %+v", got)
	}
	cancel()
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	f.sync()

	if delay == 0 {
		watchTheRest(t, f, spectator, &w, &cancelled, &panics, 0)
		return
	}
	// A pause stops the clock; the watcher sees it, and the resume.
	host.must(hostAction("pause", 0))
	f.sync()
	if last := w.all()[len(w.all())-1]; !last.Paused || !last.Deadline.IsZero() {
		t.Fatalf("after a pause the watcher was told %+v", last)
	}
	host.must(hostAction("resume", 0))
	f.sync()
	if last := w.all()[len(w.all())-1]; last.Paused || last.Deadline.IsZero() {
		t.Fatalf("after the resume the watcher was told %+v", last)
	}

	watchTheRest(t, f, spectator, &w, &cancelled, &panics, 1)
}

// watchTheRest plays the game to its end and checks what the watchers were
// told (see TestWatch_AWatcherFollowsEveryFloorThePausesAndTheEnd).
func watchTheRest(t *testing.T, f *fixture, spectator *client, w, cancelled *watched, panics *int, wantPauses int) {
	f.runToEnd(spectator, time.Hour)
	f.checkEnded(spectator)
	f.r.Stop() // returns once the room has stopped

	got := w.all()
	if *panics != 1 {
		t.Errorf("the panicking watcher was called %d times once the game began, want once (then dropped)", *panics)
	}
	if n := len(cancelled.all()); n != 1 {
		t.Errorf("a cancelled watcher was told %d states, want only the one Watch gave it", n)
	}
	if last := got[len(got)-1]; !last.Stopped || !last.Ended {
		t.Errorf("the last state a watcher is told: %+v, want the ended game, stopped", last)
	}
	if end := got[len(got)-2]; !end.Ended || end.Phase != engine.PhaseEnded || end.Speaker != 0 || !end.Deadline.IsZero() {
		t.Errorf("the end, as a watcher is told it: %+v", end)
	}
	var floors []engine.Seat
	pauses := 0
	for i, st := range got {
		if i > 0 {
			prev := got[i-1]
			if st == prev {
				t.Errorf("state %d told twice: %+v", i, st)
			}
			if st.Step < prev.Step {
				t.Errorf("state %d goes back from step %d to %d", i, prev.Step, st.Step)
			}
			if st.Speaker != 0 && (st.Speaker != prev.Speaker || st.Step != prev.Step) {
				floors = append(floors, st.Speaker)
			}
		}
		if st.Paused {
			pauses++
		}
		if st.Speaker != 0 && !st.Alive.Has(st.Speaker) && st.Phase != engine.PhaseLastWords {
			t.Errorf("state %d gives the floor to seat %d, who is out: %+v", i, st.Speaker, st)
		}
		if st.Started && !st.Paused && !st.Ended && st.Deadline.IsZero() {
			t.Errorf("state %d: a running step without a deadline: %+v", i, st)
		}
	}
	want := floorsOf(f.events())
	if len(want) < 8 {
		t.Fatalf("the game had only %d floors", len(want))
	}
	if len(floors) != len(want) {
		t.Fatalf("the watcher saw %d floors %v, the log has %d: %v", len(floors), floors, len(want), want)
	}
	for i := range want {
		if floors[i] != want[i] {
			t.Fatalf("floor %d: the watcher saw seat %d, the log has %d (%v against %v)", i, floors[i], want[i], floors, want)
		}
	}
	if pauses != wantPauses {
		t.Errorf("%d paused states, want %d", pauses, wantPauses)
	}
}
