// Package phone holds browser tests of the host's assistant: what the host's phone keeps through a killed browser, a reload and an older page's storage.
//
// They drive the host's page in a real Chromium (chromedp) against the
// assistant on loopback over a real SQLite file (package
// assist/internal/hosttest); without Chromium they are skipped, except in
// CI (CI=true), where a missing browser is a failure. The assistant's
// browser tests are split over the packages under assist/browsertest so
// that go test runs them as test binaries of their own, side by side, and
// none nears go test's ten-minute timeout.
package phone

import (
	"os"
	"testing"

	"mafia/assist/internal/hosttest"
)

// browserParallel is how many of the package's tests run at once.
const browserParallel = 4

// TestMain runs the package's tests browserParallel at once, stops their
// Chromium and checks that no goroutine of theirs is left (hosttest.Main).
func TestMain(m *testing.M) { os.Exit(hosttest.Main(m, browserParallel)) }
