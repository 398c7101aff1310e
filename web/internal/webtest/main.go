package webtest

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"mafia/internal/browsertest"
)

// Main is the TestMain of a package of the page's browser tests: it runs
// the package's tests side by side, parallel at once unless -parallel says
// otherwise (browsertest.Parallel: a browser test spends most of its time
// waiting on a game's clocks, and go test's default of one per CPU left a
// 2-core machine idle through those waits), stops the Chromium they share,
// and then fails them if a goroutine they started is still running (every
// server, store, connection and tab a test opens must end when it is
// closed; checked once, after all of them). It returns the exit code for
// os.Exit.
func Main(m *testing.M, parallel int) int {
	browsertest.Parallel(parallel)
	code := m.Run()
	Browser.Close()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "FAIL: goroutines left running after the tests: %v\n", err)
			code = 1
		}
	}
	return code
}
