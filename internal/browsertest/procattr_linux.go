package browsertest

import "syscall"

// groupAttr starts the browser in a process group of its own (Kill ends
// every process of it at once), killed with this test binary if it dies
// first.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
