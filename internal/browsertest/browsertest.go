// Package browsertest starts the headless Chromium that a package's browser
// tests share (chromedp), and decides what happens without one: the test is
// skipped, except in CI (CI=true), where a missing browser is a failure.
// The browser is Chromium's headless shell where it is installed, else the
// full chromium (Path).
//
// It is for tests only: nothing in the program imports it. It owns the
// browser processes and their profile folders; it must not know any page.
// Besides the shared browser, a test may start one of its own on a profile
// folder it keeps (Start), kill it as a phone's browser dies, and start it
// again on the same folder (kill.go). The tests' element queries go through
// its wrappers of chromedp's (query.go), which look for an element every
// 50 ms rather than every 5.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// Path returns the browser to run, or "": $MAFIA_CHROMIUM when set (a path
// that does not exist stands for "no browser"), else Chromium's headless
// shell where installed (Debian's chromium-headless-shell: the same Blink,
// V8 and network stack as chromium, without the browser's user interface;
// the same tests took 25-60% less CPU with it), else chromium.
func Path() string { return find(shellFirst) }

// The browsers Path looks for, in its order, each on the
// PATH, else in usrBin ("chrome-headless-shell" is Google's build's name).
var (
	shellFirst = []string{"chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser"}
	usrBin     = "/usr/bin" // where Debian installs both, should the PATH lack it
)

// find returns $MAFIA_CHROMIUM's browser, or the first of names found.
func find(names []string) string {
	if p := os.Getenv("MAFIA_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
		if p := filepath.Join(usrBin, name); isExecutable(p) {
			return p
		}
	}
	return ""
}

// isExecutable reports whether path is a file someone may run.
func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// Browser is one Chromium for a package's tests, started by the first test
// that needs it; each test opens tabs in browser contexts of its own.
type Browser struct {
	pkg   string // the package, for the skip note
	extra []chromedp.ExecAllocatorOption

	skipNote sync.Once
	mu       sync.Mutex
	ctx      context.Context
	cancel   []context.CancelFunc
	err      error
}

// New describes the browser of package pkg, with extra command-line options.
func New(pkg string, extra ...chromedp.ExecAllocatorOption) *Browser {
	return &Browser{pkg: pkg, extra: extra}
}

// Need returns the browser's path, or skips the test without one (fails it
// when CI=true).
//
// Under the race detector in short mode it skips too, with that reason
// (CI runs web's and assist's tests without a browser so): the browser
// tests take most of a race run's time in Chromium and the pages'
// JavaScript, where the detector sees nothing, and CI runs them in full,
// without it.
func (b *Browser) Need(t testing.TB) string {
	t.Helper()
	if raceBuild && testing.Short() {
		t.Skip("browser tests skipped under -race -short: CI runs them without the race detector")
	}
	p := Path()
	if p != "" {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true and no browser is installed: the browser tests must run in CI (apt-get install chromium-headless-shell)")
	}
	b.skipNote.Do(func() {
		// go test prints nothing of a passing package; say it on the
		// terminal, if there is one, so that a skip is not taken for a run.
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			fmt.Fprintf(tty, "%s: browser tests skipped: no chromium-headless-shell or chromium installed\n", b.pkg)
			tty.Close()
		}
	})
	t.Skip("browser tests skipped: no chromium-headless-shell or chromium installed")
	return ""
}

// Context returns the running browser's context, starting it if needed.
func (b *Browser) Context(t testing.TB) context.Context {
	t.Helper()
	path := b.Need(t)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		t.Fatal(b.err)
	}
	if b.ctx != nil {
		return b.ctx
	}
	dir, err := os.MkdirTemp("", "mafia-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), options(path, dir, b.extra)...)
	ctx, cancel := chromedp.NewContext(alloc)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		cancelAlloc()
		os.RemoveAll(dir)
		b.err = fmt.Errorf("start chromium: %w", err)
		t.Fatal(b.err)
	}
	b.ctx = ctx
	// Undone last first (Close): the tab's context, then the browser,
	// waited for, then its profile. Removed while the browser still ran,
	// the profile was written again and left in the temporary folder (one
	// a package, each run).
	b.cancel = append(b.cancel, func() { os.RemoveAll(dir) }, cancelAlloc, cancel)
	return ctx
}

// options are the command line of every browser the tests start: headless,
// on the profile folder dir, speaking English, with extra options last.
// Chromium's headless shell takes the same command line: it is headless
// whatever it is given (the headless flag is for chromium), and the rest
// (no GPU, no QUIC, the fake microphone's flags of web/voicetest, the
// host resolver's rules of the assistant's tests) work in both.
func options(path, dir string, extra []chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(dir),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.Flag("accept-lang", "en-US,en"),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
	)
	return append(opts, extra...)
}

// Close stops the browser and removes its profile (from TestMain, after
// the tests).
func (b *Browser) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.cancel) - 1; i >= 0; i-- {
		b.cancel[i]()
	}
	b.cancel, b.ctx = nil, nil
}
