//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package sqlite

// lockFile takes the exclusive lock of the lock file lp (see fileLock):
// without flock, through SQLite's exclusive locking mode.
func lockFile(lp string) (release func() error, pid int, err error) {
	return sqliteLock(lp)
}
