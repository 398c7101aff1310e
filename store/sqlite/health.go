package sqlite

import (
	"context"
	"errors"
	"fmt"

	sqlite3lib "modernc.org/sqlite/lib"

	"mafia/store"
)

// WriteHealth returns whether the store's writes commit, as far as it knows
// (store.WriteTracker: every write transaction, the writer's group commits
// and the others, reports how it ended).
func (db *DB) WriteHealth() store.WriteHealth { return db.health.WriteHealth() }

// noteWrite records how a write transaction ended. A refusal of what was
// asked (store.IsRefusal) says nothing of the store, nor does a write on a
// closed store.
func (db *DB) noteWrite(err error) {
	if errors.Is(err, ErrClosed) {
		return
	}
	db.health.Note(err, reasonOf)
}

// reasonOf puts a failed write in a few words for an operator.
func reasonOf(err error) string {
	switch sqliteCode(err) & 0xff {
	case sqlite3lib.SQLITE_FULL:
		return "disk full"
	case sqlite3lib.SQLITE_READONLY:
		return "read-only"
	case sqlite3lib.SQLITE_IOERR:
		return "I/O error"
	case sqlite3lib.SQLITE_BUSY, sqlite3lib.SQLITE_LOCKED:
		return "locked"
	case sqlite3lib.SQLITE_CORRUPT, sqlite3lib.SQLITE_NOTADB:
		return "damaged file"
	case sqlite3lib.SQLITE_CANTOPEN:
		return "cannot open the file"
	case sqlite3lib.SQLITE_NOMEM:
		return "out of memory"
	}
	return "write failed"
}

// SetReadOnly stops every write of the store (on), or lets them go on
// again (off). While stopped, each write fails as it would on a read-only
// file (SQLite's SQLITE_READONLY, through its query_only setting on the
// writing connection), with nothing written and reads going on. It is for
// an operator who must hold the file still for a while, and for tests of a
// server whose store cannot write.
func (db *DB) SetReadOnly(ctx context.Context, on bool) error {
	v := 0
	if on {
		v = 1
	}
	if _, err := db.w.ExecContext(ctx, fmt.Sprintf("PRAGMA query_only = %d", v)); err != nil {
		return fmt.Errorf("store/sqlite: set read-only %v: %w", on, err)
	}
	return nil
}
