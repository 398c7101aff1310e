package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"mafia/store"
)

// inTx runs f in one write transaction and commits it if f returns nil;
// PostgreSQL aborting it for a deadlock, or being briefly away, runs it
// again (retryTx).
func (db *DB) inTx(ctx context.Context, f func(tx pgx.Tx) error) (err error) {
	return db.retryTx(ctx, "write", f)
}

// nanos is t as the store keeps it: Unix nanoseconds.
func nanos(t time.Time) int64 { return t.UnixNano() }

// fromNanos is the time of n Unix nanoseconds, in UTC as store/sqlite
// gives it.
func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }

// CreateTable records a new table with its seats. A zero CreatedAt is set to
// now and a zero UpdatedAt to CreatedAt; an ID already taken, by a table of
// either kind, is store.ErrConflict, and so is a seat twice.
func (db *DB) CreateTable(ctx context.Context, t store.Table, seats []store.Seat) error {
	if t.ID == "" {
		return fmt.Errorf("store/postgres: table without an ID")
	}
	if err := store.CheckKind(t.Kind); err != nil {
		return fmt.Errorf("store/postgres: create table %q: %w", t.ID, err)
	}
	if t.CreatedAt.IsZero() {
		t.CreatedAt = time.Now()
	}
	if t.UpdatedAt.IsZero() {
		t.UpdatedAt = t.CreatedAt
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO tables
			(id, kind, name, public, invite, status, data, host_token, seed, winner, created_ns, updated_ns)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			t.ID, string(t.Kind), t.Name, t.Public, t.Invite, string(t.Status), t.Data, t.HostToken,
			strconv.FormatUint(t.Seed, 10), t.Winner, nanos(t.CreatedAt), nanos(t.UpdatedAt))
		if sqlState(err) == codeUnique {
			return fmt.Errorf("%w: table %q exists", store.ErrConflict, t.ID)
		}
		if err != nil {
			return err
		}
		return insertSeats(ctx, tx, t.ID, seats)
	})
	if err != nil {
		return fmt.Errorf("store/postgres: create table %q: %w", t.ID, err)
	}
	return nil
}

func insertSeats(ctx context.Context, tx pgx.Tx, tableID string, seats []store.Seat) error {
	if err := store.CheckSeats(seats); err != nil {
		return err
	}
	for _, s := range seats {
		_, err := tx.Exec(ctx, `INSERT INTO seats (table_id, seat, name, token_hash, bot, account_id, bot_account)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, tableID, s.Seat, s.Name, s.TokenHash, s.Bot, s.Account, s.BotAccount)
		if err != nil {
			return err
		}
	}
	return nil
}

// UpdateTable saves a table's status, seed, winner and data, and its
// UpdatedAt (now if zero); its other fields never change. A missing table is
// store.ErrNotFound.
func (db *DB) UpdateTable(ctx context.Context, t store.Table) error {
	if t.UpdatedAt.IsZero() {
		t.UpdatedAt = time.Now()
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := db.checkFence(ctx, tx, t.ID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, updateTableSQL, updateTableArgs(t)...)
		if err == nil && tag.RowsAffected() == 0 {
			err = store.ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: update table %q: %w", t.ID, err)
	}
	return nil
}

const updateTableSQL = `UPDATE tables SET status = $1, seed = $2, winner = $3, data = $4, updated_ns = $5 WHERE id = $6`

func updateTableArgs(t store.Table) []any {
	return []any{string(t.Status), strconv.FormatUint(t.Seed, 10), t.Winner, t.Data, nanos(t.UpdatedAt), t.ID}
}

// SaveSeats replaces a table's seats, writing only the rows that change. A
// missing table is store.ErrNotFound; a seat twice store.ErrConflict, and
// nothing is written.
func (db *DB) SaveSeats(ctx context.Context, tableID string, seats []store.Seat) error {
	err := store.CheckSeats(seats)
	if err == nil {
		err = db.inTx(ctx, func(tx pgx.Tx) error {
			if err := tableExists(ctx, tx, tableID); err != nil {
				return err
			}
			if err := db.checkFence(ctx, tx, tableID); err != nil {
				return err
			}
			return replaceSeats(ctx, tx, tableID, seats)
		})
	}
	if err != nil {
		return fmt.Errorf("store/postgres: save seats of %q: %w", tableID, err)
	}
	return nil
}

// replaceSeats makes a table's seats the given ones, writing only the rows
// that change (a join changes one seat).
func replaceSeats(ctx context.Context, tx pgx.Tx, tableID string, seats []store.Seat) error {
	old, err := seatsOf(ctx, tx, tableID)
	if err != nil {
		return err
	}
	d := store.DiffSeats(old, seats)
	for _, s := range d.Changed {
		if _, err := tx.Exec(ctx, `UPDATE seats SET name = $1, token_hash = $2, bot = $3, account_id = $4, bot_account = $5
			WHERE table_id = $6 AND seat = $7`, s.Name, s.TokenHash, s.Bot, s.Account, s.BotAccount, tableID, s.Seat); err != nil {
			return err
		}
	}
	if err := insertSeats(ctx, tx, tableID, d.Added); err != nil {
		return err
	}
	for _, n := range d.Removed {
		if _, err := tx.Exec(ctx, `DELETE FROM seats WHERE table_id = $1 AND seat = $2`, tableID, n); err != nil {
			return err
		}
	}
	return nil
}

// querier is what reads need: the pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// seatsOf reads a table's seats in seat order.
func seatsOf(ctx context.Context, q querier, id string) ([]store.Seat, error) {
	rows, err := q.Query(ctx, `SELECT seat, name, token_hash, bot, account_id, bot_account FROM seats
		WHERE table_id = $1 ORDER BY seat`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var seats []store.Seat
	for rows.Next() {
		var s store.Seat
		if err := rows.Scan(&s.Seat, &s.Name, &s.TokenHash, &s.Bot, &s.Account, &s.BotAccount); err != nil {
			return nil, err
		}
		seats = append(seats, s)
	}
	return seats, rows.Err()
}

func tableExists(ctx context.Context, q querier, id string) error {
	var one int
	err := q.QueryRow(ctx, `SELECT 1 FROM tables WHERE id = $1`, id).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}

const tableColumns = `id, kind, name, public, invite, status, data, host_token, seed, winner, created_ns, updated_ns`

func scanTable(s pgx.Row) (store.Table, error) {
	var (
		t                  store.Table
		kind, status, seed string
		created, updated   int64
	)
	err := s.Scan(&t.ID, &kind, &t.Name, &t.Public, &t.Invite, &status, &t.Data, &t.HostToken,
		&seed, &t.Winner, &created, &updated)
	if err != nil {
		return t, err
	}
	t.Kind, t.Status = store.Kind(kind), store.Status(status)
	if t.Seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
		return t, fmt.Errorf("bad seed %q: %w", seed, store.ErrDamaged)
	}
	t.CreatedAt, t.UpdatedAt = fromNanos(created), fromNanos(updated)
	return t, nil
}

// Table returns the table of the given kind with that ID and its seats in
// seat order, or store.ErrNotFound (also for a table of another kind). A
// table set aside, and one whose row cannot be read (a bad seed), is an
// error that is store.ErrDamaged.
func (db *DB) Table(ctx context.Context, kind store.Kind, id string) (store.Table, []store.Seat, error) {
	if err := store.CheckKind(kind); err != nil {
		return store.Table{}, nil, fmt.Errorf("store/postgres: table %q: %w", id, err)
	}
	var (
		t     store.Table
		seats []store.Seat
	)
	// One snapshot for the mark, the row and the seats.
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		var reason string
		err := tx.QueryRow(ctx, `SELECT reason FROM damaged WHERE table_id = $1`, id).Scan(&reason)
		switch {
		case err == nil:
			var k string
			err := tx.QueryRow(ctx, `SELECT kind FROM tables WHERE id = $1`, id).Scan(&k)
			if err == nil && store.Kind(k) != kind {
				// Another kind's: not for this caller to find, set aside or not.
				return store.ErrNotFound
			}
			return fmt.Errorf("set aside (%s): %w", reason, store.ErrDamaged)
		case !errors.Is(err, pgx.ErrNoRows):
			return asStoreError(err)
		}
		t, err = scanTable(tx.QueryRow(ctx, `SELECT `+tableColumns+` FROM tables WHERE id = $1 AND kind = $2`, id, string(kind)))
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return asStoreError(err)
		}
		if seats, err = seatsOf(ctx, tx, id); err != nil {
			return fmt.Errorf("seats: %w", asStoreError(err))
		}
		return nil
	})
	if err != nil {
		return store.Table{}, nil, fmt.Errorf("store/postgres: table %q: %w", id, err)
	}
	return t, seats, nil
}

// Tables lists the tables of the given kind that f chooses (see
// store.TableFilter), newest first (the later created first; among equal
// times, the later recorded), never one set aside.
func (db *DB) Tables(ctx context.Context, kind store.Kind, f store.TableFilter) ([]store.Table, error) {
	if err := store.CheckKind(kind); err != nil {
		return nil, fmt.Errorf("store/postgres: tables: %w", err)
	}
	var limit any // NULL: no limit
	if f.Limit > 0 {
		limit = f.Limit
	}
	rows, err := db.pool.Query(ctx, `SELECT `+tableColumns+` FROM tables
		WHERE kind = $1 AND ($2 = '' OR status = $2) AND (NOT $3 OR public)
		AND id NOT IN (SELECT table_id FROM damaged)
		ORDER BY created_ns DESC, n DESC LIMIT $4`, string(kind), string(f.Status), f.PublicOnly, limit)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: tables: %w", err)
	}
	defer rows.Close()
	var out []store.Table
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			return nil, fmt.Errorf("store/postgres: tables: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/postgres: tables: %w", asStoreError(err))
	}
	return out, nil
}

// TableIDs lists the IDs of the tables of the given kind with the given
// status, oldest recorded first, except those set aside (see
// store.Store.TableIDs). It reads the IDs alone, so that a table whose
// record does not decode is still listed.
func (db *DB) TableIDs(ctx context.Context, kind store.Kind, status store.Status) ([]string, error) {
	if err := store.CheckKind(kind); err != nil {
		return nil, fmt.Errorf("store/postgres: table IDs: %w", err)
	}
	rows, err := db.pool.Query(ctx, `SELECT id FROM tables
		WHERE kind = $1 AND status = $2 AND id NOT IN (SELECT table_id FROM damaged)
		ORDER BY n`, string(kind), string(status))
	if err != nil {
		return nil, fmt.Errorf("store/postgres: table IDs: %w", asStoreError(err))
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store/postgres: table IDs: %w", asStoreError(err))
	}
	return ids, nil
}

// SetAside records that a table is damaged (see store.Store.SetAside): a
// row of its own, in a table of its own, which keeps the first reason.
func (db *DB) SetAside(ctx context.Context, tableID, reason string) error {
	if tableID == "" {
		return fmt.Errorf("store/postgres: set aside a table without an ID")
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO damaged (table_id, reason, at_ns) VALUES ($1, $2, $3)
			ON CONFLICT (table_id) DO NOTHING`, tableID, reason, nanos(time.Now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: set aside %q: %w", tableID, err)
	}
	return nil
}
