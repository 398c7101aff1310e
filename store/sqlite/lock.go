package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ErrLocked is returned by Open when another store holds the file: another
// server (or another Open in this process) has it open.
var ErrLocked = errors.New("store/sqlite: the database is in use by another server")

// LockedError says which file is held, through which lock file, and by
// which process when that is known. It is ErrLocked (errors.Is).
type LockedError struct {
	Path string // the database file
	Lock string // the lock file beside it
	PID  int    // the process that holds it; 0 if not known
}

func (e *LockedError) Error() string {
	who := "another server"
	if e.PID > 0 {
		who = "another server (pid " + strconv.Itoa(e.PID) + ")"
	}
	return fmt.Sprintf("store/sqlite: %s is in use by %s: it holds the lock %s; stop it first, or use another file",
		e.Path, who, e.Lock)
}

// Is makes a LockedError match ErrLocked.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// lockSuffix names the lock file: the database's path with it appended.
const lockSuffix = ".lock"

// fileLock is the exclusive lock a store holds on its file for as long as
// it is open, so that a second server on the same file refuses to start
// instead of writing beside the first (each keeps the logs' lengths and the
// seats in memory, and they would overwrite each other).
//
// The lock is taken on a file of its own beside the database, never on the
// database or its WAL: SQLite's own locks on those come and go with every
// transaction of the store's several connections. Where the system has
// flock (Linux, the BSDs, macOS) the lock file holds the pid of the process
// that holds the lock; elsewhere SQLite's exclusive locking mode on the lock
// file stands in (see sqliteLock). Either way the system releases the lock
// when the process ends, however it ends: kill -9 leaves no stale lock.
type fileLock struct {
	release func() error
}

// lock takes the lock of the database at path, or returns a *LockedError.
func lock(path string) (*fileLock, error) {
	lp := path + lockSuffix
	release, pid, err := lockFile(lp)
	if errors.Is(err, errHeld) {
		return nil, &LockedError{Path: path, Lock: lp, PID: pid}
	}
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: lock %s: %w", lp, err)
	}
	return &fileLock{release: release}, nil
}

func (l *fileLock) unlock() error {
	if l == nil || l.release == nil {
		return nil
	}
	err := l.release()
	l.release = nil
	return err
}

// errHeld is lockFile's answer when another holds the lock.
var errHeld = errors.New("held by another")

// flockFile is lockFile where the system has flock: an exclusive,
// non-blocking flock on the lock file, which then holds our pid. lockEx
// tries the flock (errHeld if another holds it).
func flockFile(lp string, lockEx func(f *os.File) error) (release func() error, pid int, err error) {
	f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, err
	}
	if err := lockEx(f); err != nil {
		var buf [32]byte
		n, _ := f.ReadAt(buf[:], 0)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(buf[:n])))
		f.Close()
		return nil, pid, err
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() error {
		_ = f.Truncate(0) // no pid of a process that no longer holds it
		return f.Close()  // closing releases the flock
	}, 0, nil
}

// sqliteLock is lockFile where the system has no flock: the lock file is a
// small SQLite database held in an exclusive transaction for as long as the
// store is open. SQLite locks it with the system's own file locks (fcntl,
// LockFileEx), which the system releases when the process ends. The pid of
// the holder is not known.
func sqliteLock(lp string) (release func() error, pid int, err error) {
	db, err := sql.Open("sqlite", lp+"?_pragma=locking_mode(EXCLUSIVE)&_pragma=busy_timeout(0)")
	if err != nil {
		return nil, 0, err
	}
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err == nil {
		_, err = conn.ExecContext(ctx, "BEGIN EXCLUSIVE")
		if err != nil {
			conn.Close()
		}
	}
	if err != nil {
		db.Close()
		if c := sqliteCode(err) & 0xff; c == 5 || c == 6 { // SQLITE_BUSY, SQLITE_LOCKED
			return nil, 0, errHeld
		}
		return nil, 0, err
	}
	return func() error {
		_, _ = conn.ExecContext(ctx, "ROLLBACK")
		return errors.Join(conn.Close(), db.Close())
	}, 0, nil
}
