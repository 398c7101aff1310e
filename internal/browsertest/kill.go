//go:build unix

package browsertest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Process is a Chromium of one test's own, on a profile folder the test
// keeps: what a page stored there outlives the process, as a phone's
// storage outlives its browser. Kill ends it the hard way; Start again on
// the same folder is the browser opened again.
type Process struct {
	dir    string
	ctx    context.Context
	cancel []context.CancelFunc
	pid    int
	killed bool
}

// Start starts a Chromium on profile folder dir (skipping the test without
// one, failing it when CI=true) and returns it with its first tab ready.
// The browser runs in a process group of its own, so that Kill reaches
// every one of its processes at once. It is stopped when the test ends.
func Start(t testing.TB, dir string, extra ...chromedp.ExecAllocatorOption) *Process {
	t.Helper()
	path := (&Browser{pkg: "browsertest"}).Need(t)
	opts := append(options(path, dir, extra), chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
		cmd.SysProcAttr = groupAttr()
	}))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	p := &Process{dir: dir, ctx: ctx, cancel: []context.CancelFunc{cancelAlloc, cancel}}
	if err := chromedp.Do(ctx); err != nil {
		p.Close()
		t.Fatalf("start chromium on %s: %v", dir, err)
	}
	proc := chromedp.FromContext(ctx).Browser.Process()
	if proc == nil {
		p.Close()
		t.Fatal("chromium started without a process")
	}
	p.pid = proc.Pid
	t.Cleanup(p.Close)
	return p
}

// Context is the browser's first tab (in its default browser context,
// whose storage is kept in the profile folder).
func (p *Process) Context() context.Context { return p.ctx }

// Kill ends the browser as a phone's battery or its system does: SIGKILL
// to the whole process group (the browser, its renderers, its storage and
// network services) in one call, with no chance to write anything more;
// then any process left on the profile folder is killed too. It returns
// once no process of the browser is left.
func (p *Process) Kill(t testing.TB) {
	t.Helper()
	if p.killed {
		return
	}
	p.killed = true
	if err := syscall.Kill(-p.pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("kill chromium: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for killUsing(p.dir) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("chromium's processes outlived SIGKILL for 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.Close()
}

// Close stops the browser (if it still runs) and its contexts.
func (p *Process) Close() {
	for i := len(p.cancel) - 1; i >= 0; i-- {
		p.cancel[i]()
	}
	p.cancel = nil
}

// killUsing sends SIGKILL to every process that runs on profile folder dir
// (Chromium passes --user-data-dir to each of its processes) and returns
// how many it found, zombies aside.
func killUsing(dir string) int {
	want := []byte("--user-data-dir=" + dir)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || len(cmd) == 0 { // gone, or a zombie (an empty command line)
			continue
		}
		for _, arg := range bytes.Split(cmd, []byte{0}) {
			if bytes.Equal(arg, want) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				n++
				break
			}
		}
	}
	return n
}
