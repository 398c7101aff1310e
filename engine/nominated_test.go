package engine_test

import (
	"testing"

	"mafia/engine"
)

// lastNominates plays on to the day's last speech (seat 7's) and has it
// nominate seat 4.
func lastNominates(x *game) {
	x.t.Helper()
	x.next(1)
	x.until(engine.PhaseSpeech, 7)
	x.nominate(7, 4)
}

// TestView_NominatedHoldsOnlyInTheSpeechOfThePlayerWhoNominated: the view's
// Nominated is true from a speaker's nomination to the end of that speech,
// and false everywhere else: the next speeches, the defence, the votes,
// last words, the night and the end.

func TestView_NominatedHoldsOnlyInTheSpeechOfThePlayerWhoNominated(t *testing.T) {
	nominated := func(x *game) bool {
		var v engine.View
		x.g.ViewInto(&v, 0)
		return v.Nominated
	}
	cases := []struct {
		name string
		// reach plays from the speech of seat 1 (who has just nominated seat
		// 3) to the moment under test.
		reach func(x *game)
		want  bool
	}{
		{"the nominator's own speech", func(x *game) {}, true},
		{"the next speech", func(x *game) { x.next(1) }, false},
		{"the last speaker's speech after nominating", func(x *game) { lastNominates(x) }, true},
		{"the defence after the last speaker nominated", func(x *game) { lastNominates(x); x.next(1) }, false},
		{"the vote after the last speaker nominated", func(x *game) { lastNominates(x); x.until(engine.PhaseVote, 0) }, false},
		{"the last words after the vote", func(x *game) { lastNominates(x); x.until(engine.PhaseVote, 0); x.next(1) }, false},
		{"the night after", func(x *game) { lastNominates(x); x.untilNight(2) }, false},
		{"the end", func(x *game) {
			for i := 0; i < 4; i++ {
				x.foul(2)
			}
			x.foul(1) // the Don alone: the town wins at once at four fouls
			x.foul(1)
			x.foul(1)
			x.foul(1)
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := newGame(t, "don mafia detective doctor citizen citizen citizen")
			x.untilNight(1)
			x.until(engine.PhaseSpeech, 1)
			x.nominate(1, 3)
			c.reach(x)
			if got := nominated(x); got != c.want {
				t.Errorf("in %s (phase %s, speaker %d) Nominated is %v, want %v", c.name, x.g.Phase(), x.g.Speaker(), got, c.want)
			}
			if c.name == "the end" && !x.g.Ended() {
				t.Fatalf("the game did not end")
			}
		})
	}
}
