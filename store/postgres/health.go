package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"mafia/store"
)

// WriteStats returns the store's write counts so far: a group commit of
// appends is one commit of many writes; every other write is a commit of
// its own.
func (db *DB) WriteStats() store.WriteStats {
	g, held := db.w.Gathered()
	return store.WriteStats{Commits: db.commits.Load(), Writes: db.writes.Load(),
		CommitTime: time.Duration(db.commitNano.Load()), Retried: db.retried.Load(), Waited: db.awayTries.Load(),
		Gathered: g, GatherTime: held}
}

// WriteHealth returns whether the store's writes commit, as far as it knows
// (store.WriteTracker: every write transaction reports how it ended).
func (db *DB) WriteHealth() store.WriteHealth { return db.health.WriteHealth() }

// noteWrite records how a write that began at began ended. A refusal of
// what was asked (a conflict, a table not found, a full chat) says nothing
// of the store, nor does a caller that gave up (its context).
func (db *DB) noteWrite(began time.Time, err error) {
	if err == nil {
		db.commits.Add(1)
		db.writes.Add(1)
		db.commitNano.Add(int64(time.Since(began)))
	}
	db.noteHealth(err)
}

// noteHealth records whether a write committed (err nil) or failed; a
// refusal (store.IsRefusal) or a write on a closed store is not noted.
func (db *DB) noteHealth(err error) {
	if errors.Is(err, ErrClosed) {
		return
	}
	db.health.Note(err, reasonOf)
}

// reasonOf puts a failed write in a few words for an operator.
func reasonOf(err error) string {
	c := sqlState(err)
	switch {
	case c == "53100":
		return "disk full"
	case c == "25006":
		return "read-only"
	case strings.HasPrefix(c, "53"):
		return "out of resources"
	case strings.HasPrefix(c, "57P"):
		return "database shutting down"
	case strings.HasPrefix(c, "08"):
		return "cannot connect"
	case strings.HasPrefix(c, "XX"):
		return "damaged data"
	case c == "40001" || c == "40P01":
		return "locked"
	}
	var ne net.Error
	var ce *pgconn.ConnectError
	if errors.As(err, &ne) || errors.As(err, &ce) || pgconn.SafeToRetry(err) {
		return "cannot connect"
	}
	return "write failed"
}

// SetReadOnly stops every write of the store (on), or lets them go on again
// (off): while stopped, each write fails as on a read-only database
// (PostgreSQL's read_only_sql_transaction), with nothing written and reads
// going on. It sets default_transaction_read_only on the database itself,
// so that every connection, and every node on the same database, sees it
// from its next transaction on. It is for an operator who must hold the
// database still for a while, and for tests of a server whose store cannot
// write.
func (db *DB) SetReadOnly(ctx context.Context, on bool) error {
	v := "off"
	if on {
		v = "on"
	}
	var name string
	if err := db.pool.QueryRow(ctx, `SELECT current_database()`).Scan(&name); err != nil {
		return err
	}
	// A transaction READ WRITE of its own, since the database's default
	// may be read-only already.
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{AccessMode: pgx.ReadWrite}, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `ALTER DATABASE `+pgx.Identifier{name}.Sanitize()+` SET default_transaction_read_only = `+v)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: set read-only %v: %w", on, err)
	}
	// The setting reaches a session when it begins: begin them again.
	db.pool.Reset()
	return nil
}
