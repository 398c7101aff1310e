package engine_test

import (
	"testing"

	"mafia/engine"
)

// TestAudience_DeadMafiosoKeepsTheTeamsRecord pins a quirk docs/protocol.md
// states: a mafioso out of the game still receives the mafia's mafia_chose
// events and sees each teammate's choice in its view at night (the team's
// record), as a living one does; nobody outside the team gets either.
func TestAudience_DeadMafiosoKeepsTheTeamsRecord(t *testing.T) {
	x := newGame(t, "don mafia detective doctor citizen citizen citizen")
	x.untilNight(1)
	x.skip(1)
	x.skip(2)
	x.until(engine.PhaseSpeech, 0)
	for i := 0; i < 4; i++ {
		x.foul(2)
	}
	x.wantAlive(1, 3, 4, 5, 6, 7)
	x.untilNight(2)
	evs := x.kill(1, 5)
	var chose engine.Event
	for _, e := range evs {
		if e.Kind == engine.EvMafiaChose {
			chose = e
		}
	}
	if chose.Kind != engine.EvMafiaChose {
		t.Fatalf("no mafia_chose among %v", kinds(evs))
	}
	for s, want := range map[engine.Seat]bool{1: true, 2: true, 3: false, 5: false, 0: false} {
		if _, ok := x.g.EventFor(chose, s); ok != want {
			t.Errorf("seat %d receives mafia_chose: %v, want %v", s, ok, want)
		}
		var v engine.View
		x.g.ViewInto(&v, s)
		if got := v.MafiaChoice[1] == 5; got != want {
			t.Errorf("seat %d's view shows the Don's choice: %v, want %v", s, got, want)
		}
	}
}
