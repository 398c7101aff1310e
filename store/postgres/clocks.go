package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mafia/store"
)

const saveClockSQL = `INSERT INTO clocks (table_id, step, deadline_ns, left_ns, paused)
	VALUES ($1, $2, $3, $4, $5)
	ON CONFLICT (table_id) DO UPDATE SET
	step = excluded.step, deadline_ns = excluded.deadline_ns,
	left_ns = excluded.left_ns, paused = excluded.paused`

func saveClockArgs(tableID string, c store.Clock) []any {
	var deadline any // NULL while there is none
	if !c.Deadline.IsZero() {
		deadline = nanos(c.Deadline)
	}
	return []any{tableID, c.Step, deadline, int64(c.Left), c.Paused}
}

// SaveClock records a game's clock, replacing the last one. A missing table
// is store.ErrNotFound.
func (db *DB) SaveClock(ctx context.Context, tableID string, c store.Clock) error {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := db.checkFence(ctx, tx, tableID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, saveClockSQL, saveClockArgs(tableID, c)...)
		return asStoreError(err) // a foreign key: no such table
	})
	if err != nil {
		return fmt.Errorf("store/postgres: save clock of %q: %w", tableID, err)
	}
	return nil
}

// Clock returns a game's last saved clock (the zero Clock if none), or
// store.ErrNotFound if the table does not exist.
func (db *DB) Clock(ctx context.Context, tableID string) (store.Clock, error) {
	var (
		c              store.Clock
		step           *int
		deadline, left *int64
		paused         *bool
	)
	err := db.pool.QueryRow(ctx, `SELECT c.step, c.deadline_ns, c.left_ns, c.paused
		FROM tables t LEFT JOIN clocks c ON c.table_id = t.id WHERE t.id = $1`, tableID).
		Scan(&step, &deadline, &left, &paused)
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("store/postgres: clock of %q: %w", tableID, asStoreError(err))
	}
	if step != nil {
		c.Step = *step
	}
	if left != nil {
		c.Left = time.Duration(*left)
	}
	if paused != nil {
		c.Paused = *paused
	}
	if deadline != nil {
		c.Deadline = fromNanos(*deadline)
	}
	return c, nil
}

// Heartbeat records that the server was alive at t.
func (db *DB) Heartbeat(ctx context.Context, t time.Time) error {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO heartbeat (id, at_ns) VALUES (1, $1)
			ON CONFLICT (id) DO UPDATE SET at_ns = excluded.at_ns`, nanos(t))
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: heartbeat: %w", err)
	}
	return nil
}

// LastHeartbeat returns the time of the last Heartbeat, or the zero time if
// there was none.
func (db *DB) LastHeartbeat(ctx context.Context) (time.Time, error) {
	var at int64
	err := db.pool.QueryRow(ctx, `SELECT at_ns FROM heartbeat WHERE id = 1`).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("store/postgres: last heartbeat: %w", err)
	}
	return fromNanos(at), nil
}
