package bot_test

import (
	"os"
	"runtime/debug"
	"testing"
)

// gcPercent is the garbage collector's target for the package's tests,
// unless GOGC says otherwise.
const gcPercent = 400

// TestMain runs the package's tests with the garbage collector at
// gcPercent instead of Go's default 100. The property tests play over a
// hundred thousand seeded games, and each game's bots build their models
// afresh (the expert's world model is a few large slices): at the default
// the collector ran so often that it, and the memory it handed back to the
// system between games, took about a third of the package's CPU (measured
// on the legality test in -short mode: 2.6 s of CPU at 100, 1.8 s at 400).
// The heap stays small (a few games at a time), so the larger target costs
// little memory. Nothing the tests check depends on it.
func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(m.Run())
}
