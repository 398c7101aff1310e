package record_test

import (
	"errors"
	"testing"

	"mafia/assist/record"
	"mafia/engine"
)

// TestTheStepCountsTheEventsThatBeginAStep pins which events begin a step:
// the same count the online protocol's views carry.
func TestTheStepCountsTheEventsThatBeginAStep(t *testing.T) {
	begins := map[engine.EventKind]bool{
		engine.EvNightBegan: true, engine.EvLastWords: true, engine.EvSpeech: true, engine.EvDefence: true,
		engine.EvVoteBegan: true, engine.EvTieSpeech: true, engine.EvAllVoteBegan: true,
		engine.EvGameEnded: true, // the end is a step too, as in engine.Game.Step
	}
	for k := engine.EvGameStarted; ; k++ {
		if k.String() == "?" {
			break
		}
		want := 0
		if begins[k] {
			want = 1
		}
		if got := record.StepOf([]engine.Event{{Kind: k}}); got != want {
			t.Errorf("%s: step %d, want %d", k, got, want)
		}
	}
}

// TestTheStepMovesWithEveryStepOfAGame replays a scenario entry by entry:
// the step never goes back, moves with every Next that ends a step, and
// stays within a step (a vote's hands, a nomination, a foul).
func TestTheStepMovesWithEveryStepOfAGame(t *testing.T) {
	s, cmds, _ := fromScenario(t, "04-tie-revote-all-leave.json")
	prev := -1
	for i := range cmds {
		g, log, err := record.Replay(s, cmds[:i])
		if err != nil {
			t.Fatal(err)
		}
		step := record.StepOf(log)
		if step < prev {
			t.Fatalf("entry %d: the step went back from %d to %d", i, prev, step)
		}
		phase, round, speaker := g.Phase(), g.Round(), g.Speaker()
		g2, after, err := record.Replay(s, cmds[:i+1])
		if err != nil {
			t.Fatal(err)
		}
		moved := g2.Phase() != phase || g2.Round() != round || g2.Speaker() != speaker
		if moved && record.StepOf(after) == step && !g2.Ended() {
			t.Errorf("entry %d (%s): the game moved from %s/%d/%d to %s/%d/%d, the step stayed %d",
				i, cmds[i].Verb, phase, round, speaker, g2.Phase(), g2.Round(), g2.Speaker(), step)
		}
		if cmds[i].Verb == "vote" && record.StepOf(after) != step {
			t.Errorf("entry %d: a vote moved the step", i)
		}
		prev = step
	}
}

// TestAnEntryForAStepThatHasPassedIsRefused: an entry carries the step it
// was made for; the same entry a step later is refused with stale_step
// (and the step now), in a replay as on the page and the server.
func TestAnEntryForAStepThatHasPassedIsRefused(t *testing.T) {
	s, cmds, _ := fromScenario(t, "04-tie-revote-all-leave.json")
	// Find the first day's first speech and its step.
	var at int
	var step int
	for i := range cmds {
		g, log, _ := record.Replay(s, cmds[:i])
		if g.Phase() == engine.PhaseSpeech {
			at, step = i, record.StepOf(log)
			break
		}
	}
	end := record.Command{ID: "end", Seq: at, Verb: "next", Step: step}
	good := append(append([]record.Command(nil), cmds[:at]...), end)
	if _, _, err := record.Replay(s, good); err != nil {
		t.Fatalf("the entry for the step it was made for: %v", err)
	}
	again := end
	again.ID, again.Seq = "again", at+1
	_, log, err := record.Replay(s, append(good, again))
	var re *record.ReplayError
	var e *engine.Error
	if !errors.As(err, &re) || re.Index != at+1 || !errors.As(err, &e) || e.Code != record.CodeStaleStep || e.N != step+1 {
		t.Fatalf("a second end for the same step: %v, want stale_step at %d (now %d)", err, at+1, step+1)
	}
	if record.StepOf(log) != step+1 {
		t.Fatalf("the refused entry moved the game")
	}
	// Without a step (an older phone's entry) it is the engine's to judge.
	again.Step = 0
	if _, _, err := record.Replay(s, append(good, again)); err != nil {
		t.Fatalf("an entry without a step: %v", err)
	}
}
