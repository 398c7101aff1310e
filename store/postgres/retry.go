package postgres

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

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
func (db *DB) retryTx(ctx context.Context, what string, f func(tx pgx.Tx) error) (err error) {
	began := time.Now()
	defer func() { db.noteWrite(began, err) }()
	for attempt := 1; ; attempt++ {
		err = pgx.BeginFunc(ctx, db.pool, f)
		if err == nil || !retryable(err) || attempt == maxAttempts {
			return err
		}
		db.noteRetry(what, attempt+1, err)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt) * 5 * time.Millisecond):
		}
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
