package sim

import "testing"

// statistical skips a test of the bots' strength (thousands of games
// counted against a bound) under the race detector. Such a test checks
// what the pure engine and bots decide, which the plain run (the README's
// `go test ./...`) checks in full; under the detector it only plays the
// same games again several times slower (about 25 CPU-s of CI's race
// step, 2026-12-06). What the detector is for here, Run's workers sharing
// the games, keeps its tests under it: TestRun_SameSeedSameResultWhateverTheWorkers,
// TestRun_SmartMixSameSeedSameResultWhateverTheWorkers and
// TestExploits_SameTablesOnAnyNumberOfWorkers.
func statistical(t *testing.T) {
	t.Helper()
	if raceOn {
		t.Skip("a statistical test of the bots' strength: the plain run checks it; under the race detector it would only replay the same games (see statistical)")
	}
}
