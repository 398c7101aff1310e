package room_test

import (
	"testing"
	"time"

	"mafia/engine"
)

// TestAGameAtTheRoundLimitEndsInADraw: a table of bots, watched, played on
// the clock alone with round_limit 1: after day 1 there is no night 2, the
// game ends as a draw, stored as ended with its winner, and the watcher is
// shown it (docs/rulings.md 16).
func TestAGameAtTheRoundLimitEndsInADraw(t *testing.T) {
	set := settings(t, 11, fastTimings)
	// second_tie=nobody: at most two players leave in round 1 (the night's
	// victim, the one voted out), so no side can win before the limit.
	set.Options = map[string]string{"round_limit": "1", "second_tie": "nobody"}
	f := newFixture(t, set, nil)
	host := f.hostClient()
	watch := f.attach("")
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	f.runToEnd(watch, time.Hour)
	g := f.checkEnded(watch)
	evs := f.events()
	last := evs[len(evs)-1]
	if g.Winner() != engine.WinnerDraw || last.Cause != engine.CauseRoundLimit || g.Round() != 1 {
		t.Fatalf("the game ended in round %d: %s, cause %q", g.Round(), g.Winner(), last.Cause)
	}
	for _, e := range evs {
		if e.Kind == engine.EvNightBegan && e.Round > 1 {
			t.Fatalf("night %d began under round_limit 1", e.Round)
		}
	}
	if w := watch.view.Winner; w != "draw" {
		t.Errorf("the watcher was shown %q", w)
	}
}
