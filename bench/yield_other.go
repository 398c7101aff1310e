//go:build !linux

package bench

import "errors"

// Yield would set this process's CPU priority to nice n; it is only
// implemented on Linux, where each thread has its own.
func Yield(n int) (int, error) {
	return 0, errors.New("bench: lowering the bench's priority is only supported on Linux")
}
