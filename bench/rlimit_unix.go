//go:build unix

package bench

import "syscall"

// raiseFileLimit lifts the soft limit on open files towards the hard one,
// so that want connections fit (Go already does this at start on Linux;
// this also covers other systems and says so in one place).
func raiseFileLimit(want int) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return
	}
	// Cur is a uint64 on most systems and an int64 on FreeBSD: compared
	// as a uint64 on both (a limit is never negative).
	if uint64(l.Cur) >= uint64(want) || l.Cur >= l.Max {
		return
	}
	l.Cur = l.Max
	_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
}
