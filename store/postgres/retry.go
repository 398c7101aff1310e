package postgres

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// blipHold is how long a write waits for a database that has gone away
// (a restart, a managed failover: its sessions ended, new ones refused)
// to come back, trying again every few hundred milliseconds, before its
// failure is returned: a blip of a few seconds holds the commands that
// write, which are answered once their writes commit, instead of
// refusing them.
const blipHold = 8 * time.Second

// away reports whether err says the database could not be reached or
// ended the session (rather than refusing what was asked): a connection
// refused or lost, PostgreSQL shutting down or starting up (57P01-57P03),
// a connection exception (class 08).
func away(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	c := sqlState(err)
	switch {
	case c == "57P01" || c == "57P02" || c == "57P03" || strings.HasPrefix(c, "08"):
		return true
	case c != "":
		return false
	}
	var ne net.Error
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || errors.As(err, &ne) || pgconn.SafeToRetry(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		strings.Contains(err.Error(), "conn closed")
}

// awayWait is the pause before the attempt-th try of a write whose
// database was away: 100 ms, growing to 500 ms.
func awayWait(attempt int) time.Duration {
	return min(time.Duration(attempt)*100*time.Millisecond, 500*time.Millisecond)
}

// maxAttempts is how many times a transaction PostgreSQL aborted for a
// deadlock or a serialization failure is run in all before its error is
// returned: such an abort writes nothing, and running it again is what
// PostgreSQL's documentation asks of the client.
const maxAttempts = 4

// retryable reports whether err is PostgreSQL aborting a transaction for a
// deadlock (40P01) or a serialization failure (40001).
func retryable(err error) bool {
	c := sqlState(err)
	return c == "40P01" || c == "40001"
}

// retryTx runs f in a transaction, and again (up to maxAttempts in all,
// after a short wait that grows) while PostgreSQL aborts it for a deadlock
// or a serialization failure; each retry is logged and counted
// (WriteStats().Retried). The write's health is noted once, with how the
// last attempt ended. what names the transaction in the log.
//
// A database that has gone away (away) is waited for, for up to blipHold,
// the transaction tried again every few hundred milliseconds (each failed
// try noted in the store's health): unless the failure came from the
// COMMIT itself after it was sent, when the transaction may have committed
// and its error is returned as it is.
func (db *DB) retryTx(ctx context.Context, what string, f func(tx pgx.Tx) error) (err error) {
	began := time.Now()
	defer func() { db.noteWrite(began, asStoreError(err)) }()
	deadlocks, tries := 1, 1
	for {
		committing := false
		err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			if err := f(tx); err != nil {
				return err
			}
			committing = true
			return nil
		})
		var wait time.Duration
		switch {
		case err == nil:
			return nil
		case retryable(err) && deadlocks < maxAttempts:
			deadlocks++
			db.noteRetry(what, deadlocks, err)
			wait = time.Duration(deadlocks) * 5 * time.Millisecond
		case away(err) && (!committing || pgconn.SafeToRetry(err)) && time.Since(began) < blipHold:
			tries++
			db.noteHealth(err)
			db.noteAway(what, tries, err)
			wait = awayWait(tries)
		default:
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// noteAway logs, once per write, that it waits for the database to come
// back (its second try); later tries are counted, not logged.
func (db *DB) noteAway(what string, try int, err error) {
	db.awayTries.Add(1)
	if try == 2 {
		db.logger().Warn("store: the database is away; the write waits for it", "tx", what, "hold", blipHold.String(), "err", err)
	}
}

// noteRetry counts and logs a transaction run again (its attempt-th run)
// after err aborted it.
func (db *DB) noteRetry(what string, attempt int, err error) {
	db.retried.Add(1)
	db.logger().Warn("store: PostgreSQL aborted a transaction; running it again",
		"tx", what, "attempt", attempt, "of", maxAttempts, "sqlstate", sqlState(err), "err", err)
}

// logger is the store's log (Log), or one that discards.
func (db *DB) logger() *slog.Logger {
	if db.log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return db.log
}

// Log gives the store a log for what an operator should hear of: a
// transaction PostgreSQL aborted for a deadlock, and run again. Without
// it the store logs nothing.
func Log(l *slog.Logger) Option { return func(o *options) { o.log = l } }
