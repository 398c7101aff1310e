//go:build unix && !linux

package browsertest

import "syscall"

// groupAttr starts the browser in a process group of its own (Kill ends
// every process of it at once). Only Linux kills it with this test binary
// (Pdeathsig); elsewhere the test's cleanup does.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
