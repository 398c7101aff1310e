//go:build unix

package server

import "syscall"

// RaiseFileLimit raises the process's soft limit on open files to its hard
// limit (Go's runtime already does so at start on most systems; this makes
// sure) and returns both as they are then.
func RaiseFileLimit() (soft, hard uint64, err error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, 0, err
	}
	if l.Cur < l.Max {
		n := l
		n.Cur = n.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &n); err == nil {
			_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l)
		}
	}
	return uint64(l.Cur), uint64(l.Max), nil
}

// fileLimit is the process's soft limit on open files (0: unknown).
func fileLimit() uint64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	return uint64(l.Cur)
}
