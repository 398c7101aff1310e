//go:build unix

package storetest

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time this process has used so far, user and system
// (0 where it cannot be read).
func CPUTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
