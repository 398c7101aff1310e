//go:build linux

package bench

import (
	"os"
	"strconv"
	"syscall"
)

// Yield sets every thread of this process to the CPU priority nice n (0 is
// the usual priority; higher yields more), so that a bench on the server's
// own machine takes a core only when the server leaves it one. Linux gives
// each thread its own nice value, and a new thread inherits its creator's:
// the threads are set until two passes in a row find none left (a thread
// being cloned from one not yet set copies the old value and shows in
// /proc only when its clone is done: one empty pass let such a thread
// through, once in CI), and threads started later inherit n. It returns
// how many threads it set.
func Yield(n int) (int, error) {
	set := map[int]bool{}
	empty := 0
	for {
		ents, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return len(set), err
		}
		fresh := 0
		for _, e := range ents {
			tid, err := strconv.Atoi(e.Name())
			if err != nil || set[tid] {
				continue
			}
			if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, n); err != nil {
				if err == syscall.ESRCH {
					continue // the thread has ended meanwhile
				}
				return len(set), err
			}
			set[tid] = true
			fresh++
		}
		if fresh > 0 {
			empty = 0
		} else if empty++; empty == 2 {
			return len(set), nil
		}
	}
}
