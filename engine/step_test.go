package engine_test

import (
	"testing"

	"mafia/engine"
)

// Tests of the step number (Game.Step, View.Step): the number a client
// names in a command so that it is never applied to a later step.

// stepStartKinds are the events that begin a step, as docs/protocol.md
// lists them: the night, each turn to speak, each vote, and the end.
var stepStartKinds = map[engine.EventKind]bool{
	engine.EvNightBegan: true, engine.EvLastWords: true, engine.EvSpeech: true, engine.EvDefence: true,
	engine.EvVoteBegan: true, engine.EvTieSpeech: true, engine.EvAllVoteBegan: true, engine.EvGameEnded: true,
}

// wantSameStep fails unless every seat's view, the spectator's and the
// host's carry the game's step.
func (x *game) wantSameStep() {
	x.t.Helper()
	want := uint32(x.g.Step())
	for s := engine.Seat(0); s <= engine.Seat(x.g.Players())+1; s++ {
		if v := x.g.ViewFor(s); v.Step != want {
			x.t.Fatalf("seat %d's view has step %d, the game %d", s, v.Step, want)
		}
	}
	if v := x.g.HostView(); v.Step != want {
		x.t.Fatalf("the host's view has step %d, the game %d", v.Step, want)
	}
}

// TestStep_ChangesExactlyAtStepStarts plays a day through a tie, the
// revote and the all-vote: the step grows by one at each event that begins
// a step and at no other, and every view carries it.
func TestStep_ChangesExactlyAtStepStarts(t *testing.T) {
	x := newGame(t, deal8)
	if x.g.Step() != 1 {
		t.Fatalf("night 1 is step %d, want 1", x.g.Step())
	}
	x.wantSameStep()
	do := func(evs []engine.Event, before int) {
		t.Helper()
		want := before
		for _, e := range evs {
			if stepStartKinds[e.Kind] {
				want++
			}
		}
		if got := x.g.Step(); got != want {
			t.Fatalf("after %v the step is %d, want %d", kinds(evs), got, want)
		}
		x.wantSameStep()
	}
	// The night's actions are not steps.
	for _, c := range []engine.Command{cmd(engine.Kill, 1, 5), cmd(engine.Kill, 2, 5), cmd(engine.Check, 1, 3),
		cmd(engine.Check, 3, 1), cmd(engine.Heal, 4, 4)} {
		before := x.g.Step()
		do(x.do(c), before)
	}
	if x.g.Step() != 1 {
		t.Fatalf("night 1 after its actions is step %d, want 1", x.g.Step())
	}
	// The rest of the game, one command at a time: nominations, votes and
	// fouls are not steps; the morning, each speech, the votes are.
	steps := map[int]engine.Phase{}
	for i := 0; !x.g.Ended() && i < 2000; i++ {
		before := x.g.Step()
		var evs []engine.Event
		switch v := x.g.ViewFor(x.g.Speaker()); {
		case x.g.Phase() == engine.PhaseSpeech && len(v.Targets(engine.Nominate).Seats()) > 0 && i%3 == 0:
			evs = x.nominate(x.g.Speaker(), v.Targets(engine.Nominate).First())
		case (x.g.Phase() == engine.PhaseVote || x.g.Phase() == engine.PhaseRevote) && i%2 == 0:
			for s := engine.Seat(1); s <= engine.Seat(x.g.Players()); s++ {
				if vs := x.g.ViewFor(s); vs.Can(engine.Vote) {
					evs = x.vote(s, vs.Targets(engine.Vote).First())
					break
				}
			}
		case i%7 == 0 && x.g.Alive().Len() > 4:
			evs = x.foul(x.g.Alive().First())
		}
		if evs == nil {
			evs = x.next(1)
		}
		do(evs, before)
		if p, seen := steps[x.g.Step()]; seen && p != x.g.Phase() {
			t.Fatalf("step %d is %s and %s", x.g.Step(), p, x.g.Phase())
		}
		steps[x.g.Step()] = x.g.Phase()
	}
	if !x.g.Ended() {
		t.Fatal("the game did not end")
	}
}

// TestStep_TheRevoteIsAnotherStep is the case the step is for: a vote sent
// at the end of the vote must not count in the revote, so the two votes
// have different numbers.
func TestStep_TheRevoteIsAnotherStep(t *testing.T) {
	x := meetingDay1(t, "last_words=off")
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6, 3: 7})
	x.until(engine.PhaseVote, 0)
	vote := x.g.Step()
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 6, 6: 6, 7: 6, 8: 6})
	x.until(engine.PhaseRevote, 0)
	revote := x.g.Step()
	// the tie speeches of 5 and 6 came between
	if revote != vote+3 {
		t.Fatalf("the vote is step %d, the revote %d; want %d", vote, revote, vote+3)
	}
	x.wantSameStep()
}

// TestStep_SaysNothingOfTheNight: the step counts public events only, so a
// night where the Don, the detective and the doctor act has the same steps
// as one where nobody does (the log's length differs).
func TestStep_SaysNothingOfTheNight(t *testing.T) {
	busy, idle := newGame(t, deal8), newGame(t, deal8)
	busy.act(engine.Check, 1, 3)
	busy.act(engine.Check, 3, 2)
	busy.heal(4, 6)
	busy.skip(2)
	if len(busy.log) == len(idle.log) {
		t.Fatal("the nights' logs are as long: the test shows nothing")
	}
	if busy.g.Step() != idle.g.Step() {
		t.Fatalf("night 1 is step %d with actions, %d without", busy.g.Step(), idle.g.Step())
	}
	busy.next(1)
	idle.next(1)
	if busy.g.Step() != idle.g.Step() {
		t.Fatalf("the morning is step %d after actions, %d after none", busy.g.Step(), idle.g.Step())
	}
	for k := range stepStartKinds {
		e := engine.Event{Kind: k}
		if e.Audience() != engine.AudPublic || !k.BeginsStep() {
			t.Errorf("%s begins a step: it must be public (%v) and BeginsStep (%v)", k, e.Audience(), k.BeginsStep())
		}
	}
	for k := engine.EvGameStarted; k <= engine.EvGameEnded; k++ {
		if k.BeginsStep() != stepStartKinds[k] {
			t.Errorf("%s: BeginsStep %v, the protocol's list %v", k, k.BeginsStep(), stepStartKinds[k])
		}
	}
}
