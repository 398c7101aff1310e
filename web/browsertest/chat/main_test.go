// Package chat holds browser tests of the player's page: the chats and the floor: the chat so far, drafts, bots' lines, the dead's chat, statements, stand-ins, the night's traffic, a silent server and the screen kept awake.
//
// They drive the page in a real Chromium (chromedp) against the real
// server on loopback over a real SQLite file (package web/internal/webtest);
// without Chromium they are skipped, except in CI (CI=true), where a
// missing browser is a failure. The page's browser tests are split over the
// packages under web/browsertest so that go test runs them as test binaries
// of their own, side by side, and none nears go test's ten-minute timeout.
package chat

import (
	"os"
	"testing"

	"mafia/web/internal/webtest"
)

// browserParallel is how many of the package's tests run at once.
const browserParallel = 4

// TestMain runs the package's tests browserParallel at once, stops their
// Chromium and checks that no goroutine of theirs is left (webtest.Main).
func TestMain(m *testing.M) { os.Exit(webtest.Main(m, browserParallel)) }
