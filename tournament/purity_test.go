package tournament_test

import (
	"strings"
	"testing"

	"mafia/internal/puritytest"
)

// TestPurity_TournamentImportsOnlyPurePackages: the tournament is pure
// (doc.go): no clock, no I/O, no goroutines, no global random source
// (internal/puritytest). It may import the engine, the seating (pinned pure
// by its own test) and the club, whose own imports are not pinned here: the
// club parses its seasons' days with package time (no clock) and folds
// names with x/text, so only this package's own source is held to the rule.
func TestPurity_TournamentImportsOnlyPurePackages(t *testing.T) {
	problems, err := puritytest.Check("..", "mafia/tournament", "mafia/engine", "mafia/club", "mafia/seating")
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	for _, p := range problems {
		if strings.HasPrefix(p, "../tournament/") || strings.HasPrefix(p, "../seating/") || strings.HasPrefix(p, "../engine/") {
			t.Error(p)
			own++
		}
	}
	if len(problems) > 0 && own == len(problems) {
		t.Log("every problem is this package's")
	}
}
