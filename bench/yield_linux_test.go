//go:build linux

package bench

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// threadNices reads the nice value of every thread of this process.
func threadNices(t *testing.T) map[int]int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]int{}
	for _, e := range ents {
		b, err := os.ReadFile("/proc/self/task/" + e.Name() + "/stat")
		if err != nil {
			continue // ended meanwhile
		}
		// The command name, in parentheses, may hold spaces: the fields
		// after it start with the third (state); nice is the nineteenth.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		nice, err := strconv.Atoi(f[19-3])
		if err != nil {
			t.Fatal(err)
		}
		tid, _ := strconv.Atoi(e.Name())
		out[tid] = nice
	}
	return out
}

// The test lowers the priority of a child copy of the test binary: a
// process cannot raise its own back without privilege.
func TestYield_SetsEveryThreadAndThoseStartedLater(t *testing.T) {
	if os.Getenv("MAFIA_YIELD_CHILD") == "1" {
		yieldChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestYield_SetsEveryThreadAndThoseStartedLater$", "-test.v")
	cmd.Env = append(os.Environ(), "MAFIA_YIELD_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "every thread at nice 7") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func yieldChild(t *testing.T) {
	// Some threads exist before Yield, more are started after it.
	hold := make(chan struct{})
	var wg sync.WaitGroup
	start := func(n int) {
		for range n {
			wg.Add(1)
			go func() {
				runtime.LockOSThread() // a thread of its own until the test ends
				wg.Done()
				<-hold
			}()
		}
		wg.Wait()
	}
	start(4)
	n, err := Yield(7)
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Fatalf("Yield set %d threads, want at least the 5 running", n)
	}
	start(4)
	defer close(hold)
	for tid, nice := range threadNices(t) {
		if nice != 7 {
			t.Errorf("thread %d at nice %d, want 7", tid, nice)
		}
	}
	if !t.Failed() {
		fmt.Println("every thread at nice 7")
	}
}
