package tournament_test

import (
	"strings"
	"testing"

	"mafia/internal/puritytest"
)

// TestPurity_TournamentImportsOnlyPurePackages: the tournament is pure
// (doc.go): no clock, no I/O, no goroutines, no global random source
// (internal/puritytest). It may import the engine, the seating (pinned pure
// by its own test) and the club, whose imports are looser: the club parses
// its seasons' days with package time (no clock) and folds names with
// unicode and x/text. Those three imports are all the club may have beyond
// the rule: no goroutine, channel, select or sync in it either, so that the
// tournament and the club, which start no goroutine, stay out of CI's race
// step (.ci/run) with reason.
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
			continue
		}
		if !clubMayImport(p) {
			t.Errorf("the club is no longer pure but for its imports of time, unicode and x/text: %s", p)
		}
	}
	if len(problems) > 0 && own == len(problems) {
		t.Log("every problem is this package's")
	}
}

// clubMayImport reports whether a purity problem is one of the club's
// three known imports (time for parsing days, unicode and x/text's norm for
// folding names): anything else in the club (a goroutine, a channel, sync,
// I/O) is not.
func clubMayImport(problem string) bool {
	if !strings.HasPrefix(problem, "../club/") {
		return false
	}
	for _, imp := range []string{`imports "time"`, `imports "unicode",`, `imports "golang.org/x/text/unicode/norm"`} {
		if strings.Contains(problem, "mafia/club "+imp) {
			return true
		}
	}
	return false
}
