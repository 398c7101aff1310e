// Package tournament holds the browser test of a whole club tournament
// played on the host's assistant: twenty players, two tables, ten rounds
// and a final, each table opened from the tournament page's link, each game
// made and entered on the assistant's screens at a phone's 360×740 and
// synced, the standings read on the tournament's page.
//
// It drives the host's page in a real Chromium (chromedp) against the
// assistant and the clubs on loopback over a real SQLite file (package
// assist/internal/hosttest); without Chromium it is skipped, except in CI
// (CI=true), where a missing browser is a failure. It is a package of its
// own so that go test runs it beside the assistant's other browser tests.
package tournament

import (
	"os"
	"testing"

	"mafia/assist/internal/hosttest"
)

// TestMain runs the package's test, stops its Chromium and checks that no
// goroutine of theirs is left (hosttest.Main).
func TestMain(m *testing.M) { os.Exit(hosttest.Main(m, 1)) }
