package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mafia/engine"
	"mafia/store"
)

// openTest opens a fresh store in the test's temporary directory and closes
// it when the test ends. The file is a copy of one that Open made from
// nothing (every migration applied) and closed, once per test binary
// (migratedFile), which Open then finds up to date: the tests of files made
// from nothing, of the migrations and of the lock open their own paths.
// (internal/sqlitetest does the same for the other packages' tests; it
// imports this package, so its tests cannot use it.)
func openTest(t testing.TB) (*DB, string) {
	t.Helper()
	b, err := migratedFile()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mafia.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

var migrated struct {
	once sync.Once
	file []byte
	err  error
}

// migratedFile returns the bytes of a file Open made from nothing and
// closed (its log checkpointed into it and removed).
func migratedFile() ([]byte, error) {
	migrated.once.Do(func() {
		dir, err := os.MkdirTemp("", "sqlite-test-")
		if err != nil {
			migrated.err = err
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "template.db")
		db, err := Open(path)
		if err != nil {
			migrated.err = err
			return
		}
		if err := db.Close(); err != nil {
			migrated.err = err
			return
		}
		if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
			migrated.err = fmt.Errorf("%s-wal left with %d bytes after the close", path, fi.Size())
			return
		}
		migrated.file, migrated.err = os.ReadFile(path)
	})
	return migrated.file, migrated.err
}

// holdWriter stalls the writer goroutine: it holds the one write connection
// and queues a dummy append, which the writer takes and then waits on.
// Appends queued meanwhile are committed together in the next batch, once
// release is called.
func holdWriter(t *testing.T, db *DB) (release func()) {
	t.Helper()
	tx, err := db.w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	dummy, done := &appendReq{table: ""}, make(chan struct{})
	go func() {
		defer close(done)
		db.wr.Submit(context.Background(), dummy)
	}()
	waitFor(t, dummy.Taken)
	return func() {
		tx.Rollback()
		<-done
	}
}

// waitFor polls cond until it holds, or fails the test after 10s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(time.Millisecond)
	}
}

// queue starts an append in its own goroutine and waits until it is in the
// writer's queue, so that appends queue in the order they are started. Its
// answer arrives on the returned channel.
func queue(t *testing.T, ctx context.Context, db *DB, id string, first int, evs []engine.Event) <-chan error {
	t.Helper()
	before := db.wr.Waiting()
	ch := make(chan error, 1)
	go func() { ch <- db.AppendEvents(ctx, id, first, evs) }()
	waitFor(t, func() bool { return db.wr.Waiting() == before+1 })
	return ch
}

// queueClock is queue for AppendEventsClock.
func queueClock(t *testing.T, ctx context.Context, db *DB, id string, first int, evs []engine.Event, c store.Clock) <-chan error {
	t.Helper()
	before := db.wr.Waiting()
	ch := make(chan error, 1)
	go func() { ch <- db.AppendEventsClock(ctx, id, first, evs, c) }()
	waitFor(t, func() bool { return db.wr.Waiting() == before+1 })
	return ch
}
