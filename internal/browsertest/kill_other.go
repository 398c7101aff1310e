//go:build !unix

package browsertest

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

// Process is a Chromium of one test's own that Kill ends the hard way
// (kill.go). Here, with no process groups to end all of a browser's
// processes at once, it is not made: Start skips the test.
type Process struct{ ctx context.Context }

// Start skips the test: a browser killed and opened again needs Unix's
// process groups (run these tests on Linux or macOS, or in WSL).
func Start(t testing.TB, dir string, extra ...chromedp.ExecAllocatorOption) *Process {
	t.Helper()
	t.Skip("browsertest: a browser killed and opened again needs Unix's process groups; run this test on Linux or macOS (or in WSL)")
	return nil
}

// Context is the browser's first tab.
func (p *Process) Context() context.Context { return p.ctx }

// Kill ends the browser.
func (p *Process) Kill(t testing.TB) {}

// Close stops the browser.
func (p *Process) Close() {}
