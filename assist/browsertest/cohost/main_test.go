// Package cohost holds the browser test of live co-hosting: a referee
// follows and corrects, from a phone of their own, the game the host runs.
//
// It drives the host's page in a real Chromium (chromedp) against the
// assistant on loopback over a real SQLite file (package
// assist/internal/hosttest); without Chromium it is skipped, except in
// CI (CI=true), where a missing browser is a failure.
package cohost

import (
	"os"
	"testing"

	"mafia/assist/internal/hosttest"
)

// browserParallel is how many of the package's tests run at once.
const browserParallel = 2

// TestMain runs the package's tests browserParallel at once, stops their
// Chromium and checks that no goroutine of theirs is left (hosttest.Main).
func TestMain(m *testing.M) { os.Exit(hosttest.Main(m, browserParallel)) }
