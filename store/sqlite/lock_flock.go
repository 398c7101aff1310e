//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package sqlite

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes the exclusive lock of the lock file lp (see fileLock).
func lockFile(lp string) (release func() error, pid int, err error) {
	return flockFile(lp, func(f *os.File) error {
		for {
			err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			switch {
			case err == nil:
				return nil
			case errors.Is(err, syscall.EINTR):
				continue
			case errors.Is(err, syscall.EWOULDBLOCK):
				return errHeld
			}
			return err
		}
	})
}
