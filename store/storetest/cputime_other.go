//go:build !unix

package storetest

import "time"

// CPUTime is the CPU time this process has used so far; it reads 0 here.
func CPUTime() time.Duration { return 0 }
