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

// TestView_CandidatesLastIntoLastWordsLessWhoeverLeft pins what
// docs/protocol.md says of view.candidates: after the vote, in the last
// words of the one voted out, the day's candidates are still listed, less
// that one; the night begins with none.
func TestView_CandidatesLastIntoLastWordsLessWhoeverLeft(t *testing.T) {
	x := newGame(t, "don mafia detective doctor citizen citizen citizen")
	x.untilNight(1)
	x.until(engine.PhaseSpeech, 1)
	x.nominate(1, 3)
	x.next(1)
	x.nominate(2, 5)
	x.until(engine.PhaseVote, 0)
	for s := engine.Seat(1); s <= 7; s++ {
		x.vote(s, 3)
	}
	x.next(1) // the room closes a vote everyone has answered
	x.wantPhase(engine.PhaseLastWords, 3)
	candidates := func() []engine.Seat {
		var v engine.View
		x.g.ViewInto(&v, 0)
		return append([]engine.Seat(nil), v.Candidates[:v.NumCandidates]...)
	}
	if got := candidates(); !sameSeats(got, seats(5)) {
		t.Errorf("in seat 3's last words the candidates are %v, want [5]", got)
	}
	x.untilNight(2)
	if got := candidates(); len(got) != 0 {
		t.Errorf("at night the candidates are %v, want none", got)
	}
}
