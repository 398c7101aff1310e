//go:build !unix

package server

import (
	"testing"
	"time"
)

// processCPU skips the benchmark: the process's CPU time is read by
// getrusage, which only Unix has.
func processCPU(b *testing.B) time.Duration {
	b.Skip("the process's CPU time is read by getrusage, Unix only")
	return 0
}
