package voice

import (
	"testing"

	"mafia/engine"
	"mafia/room"
)

func seats(s ...engine.Seat) engine.SeatSet {
	var m engine.SeatSet
	for _, x := range s {
		m = m.With(x)
	}
	return m
}

// TestHeard_TheFloorOnly pins who is heard in each kind of state.
func TestHeard_TheFloorOnly(t *testing.T) {
	play := room.StepState{Started: true, Step: 4, Phase: engine.PhaseSpeech, Round: 1, Speaker: 3}
	cases := []struct {
		name string
		st   room.StepState
		cut  engine.SeatSet
		want engine.SeatSet
	}{
		{"the lobby: everyone", room.StepState{}, 0, seats(1, 2, 3, 4, 5)},
		{"a speech: the floor's seat", play, 0, seats(3)},
		{"a speech cut by a foul: nobody", play, seats(3), 0},
		{"a vote: nobody", room.StepState{Started: true, Step: 5, Phase: engine.PhaseVote}, 0, 0},
		{"the night: nobody", room.StepState{Started: true, Step: 6, Phase: engine.PhaseNight}, 0, 0},
		{"last words: the floor's seat", room.StepState{Started: true, Phase: engine.PhaseLastWords, Speaker: 2}, 0, seats(2)},
		{"paused: nobody", room.StepState{Started: true, Phase: engine.PhaseSpeech, Speaker: 2, Paused: true}, 0, 0},
		{"frozen: nobody", room.StepState{Started: true, Phase: engine.PhaseSpeech, Speaker: 2, Frozen: true}, 0, 0},
		{"the end: everyone", room.StepState{Started: true, Ended: true, Phase: engine.PhaseEnded}, 0, seats(1, 2, 3, 4, 5)},
		{"stopped: nobody", room.StepState{Started: true, Ended: true, Stopped: true}, 0, 0},
	}
	for _, c := range cases {
		if got := Heard(c.st, c.cut, 5); got != c.want {
			t.Errorf("%s: heard %v, want %v", c.name, got.Seats(), c.want.Seats())
		}
	}
}

// TestNextCut_AFoulCutsTheFloorUntilItMoves pins the host's foul.
func TestNextCut_AFoulCutsTheFloorUntilItMoves(t *testing.T) {
	a := room.StepState{Started: true, Step: 4, Speaker: 3}
	fouled := a
	fouled.Fouls[3] = 1
	if got := nextCut(a, fouled, 0); got != seats(3) {
		t.Errorf("a foul to the floor's seat cuts %v, want [3]", got.Seats())
	}
	other := a
	other.Fouls[2] = 1
	if got := nextCut(a, other, 0); got != 0 {
		t.Errorf("a foul to another seat cuts %v, want nobody", got.Seats())
	}
	next := fouled
	next.Step, next.Speaker = 5, 4
	if got := nextCut(fouled, next, seats(3)); got != 0 {
		t.Errorf("the next floor keeps %v cut, want nobody", got.Seats())
	}
}
