// Package game holds browser tests of the host's assistant: games played on the host's screens: the scenarios, ties, counts of hands, last words, taps, undo, the clocks' signals and the wakes.
//
// They drive the host's page in a real Chromium (chromedp) against the
// assistant on loopback over a real SQLite file (package
// assist/internal/hosttest); without Chromium they are skipped, except in
// CI (CI=true), where a missing browser is a failure. The assistant's
// browser tests are split over the packages under assist/browsertest so
// that go test runs them as test binaries of their own, side by side, and
// none nears go test's ten-minute timeout.
package game

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"mafia/assist/internal/hosttest"
	"mafia/internal/browsertest"
)

// browserParallel is how many of the package's tests run at once.
const browserParallel = 4

// TestMain runs the package's tests, stops the Chromium they share, and
// then fails them if a goroutine they started is still running: every
// game, store, server and connection a test opens must end when it is
// closed. The check runs once, after all of them.
//
// The tests run side by side (t.Parallel), browserParallel at once unless
// -parallel says otherwise (browsertest.Parallel): most of their time is
// spent waiting on the page, the network cut, the game's clocks.
func TestMain(m *testing.M) {
	browsertest.Parallel(browserParallel)
	code := m.Run()
	hosttest.Browser.Close()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "FAIL: goroutines left running after the tests: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}
