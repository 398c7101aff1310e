// Package sqlitetest gives tests a real SQLite store (store/sqlite) in a
// fresh file of their own, without paying for the schema's migrations in
// every one: the first call in a test binary opens a file with
// sqlite.Open (which applies every migration), closes it and keeps its
// bytes; each call then writes those bytes to its own path and opens it
// with sqlite.Open, which finds the schema up to date and migrates nothing.
// The store a test gets is the one the program opens, on a file the
// program made; only the repeated migrations are saved (under the race
// detector they were most of the CPU of the tests that open a store per
// case: room's sandbox test spent 60% of its time in them).
//
// It is for tests only: nothing in the program imports it. The migrations
// themselves are tested where they live (store/sqlite), on files made
// from nothing.
package sqlitetest

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"mafia/store/sqlite"
)

var (
	once     sync.Once
	template []byte // a migrated, closed file's bytes
	tmplErr  error
)

// migrated returns the bytes of a file sqlite.Open made and closed: the
// schema up to date, no rows, nothing left in a write-ahead log.
func migrated() ([]byte, error) {
	once.Do(func() {
		dir, err := os.MkdirTemp("", "sqlitetest-")
		if err != nil {
			tmplErr = err
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "template.db")
		db, err := sqlite.Open(path)
		if err != nil {
			tmplErr = err
			return
		}
		if err := db.Close(); err != nil {
			tmplErr = err
			return
		}
		// Closing the last connection checkpoints the log into the file
		// and removes it; a log left behind would hold pages the copy
		// lacks.
		if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
			tmplErr = fmt.Errorf("sqlitetest: %s-wal left with %d bytes after the close", path, fi.Size())
			return
		}
		template, tmplErr = os.ReadFile(path)
	})
	return template, tmplErr
}

// Open makes a fresh store at path, which must not exist yet: a copy of
// the migrated file, opened with sqlite.Open. The caller closes it.
func Open(path string) (*sqlite.DB, error) {
	b, err := migrated()
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return sqlite.Open(path)
}

// New makes a fresh store in the test's own temporary directory (as
// mafia.db), closed when the test ends, and returns it with its path.
func New(t testing.TB) (*sqlite.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mafia.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}
