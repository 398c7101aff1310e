package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"mafia/store"
	"mafia/store/internal/fence"
)

// inTx runs f in one write transaction and commits it if f returns nil.
func (db *DB) inTx(ctx context.Context, f func(tx *wtx) error) (err error) {
	defer func() { db.noteWrite(err) }()
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer db.endWrite(tx)
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// CreateTable records a new table with its seats. A zero CreatedAt is set to
// now and a zero UpdatedAt to CreatedAt; an ID already taken, by a table of
// either kind, is store.ErrConflict.
func (db *DB) CreateTable(ctx context.Context, t store.Table, seats []store.Seat) error {
	if t.ID == "" {
		return fmt.Errorf("store/sqlite: table without an ID")
	}
	if err := store.CheckKind(t.Kind); err != nil {
		return fmt.Errorf("store/sqlite: create table %q: %w", t.ID, err)
	}
	if t.CreatedAt.IsZero() {
		t.CreatedAt = time.Now()
	}
	if t.UpdatedAt.IsZero() {
		t.UpdatedAt = t.CreatedAt
	}
	err := db.inTx(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO tables
			(id, kind, name, public, invite, status, data, host_token, seed, winner, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, string(t.Kind), t.Name, t.Public, t.Invite, string(t.Status), t.Data, t.HostToken,
			strconv.FormatUint(t.Seed, 10), t.Winner, formatTime(t.CreatedAt), formatTime(t.UpdatedAt))
		if isPrimaryKeyViolation(err) {
			return fmt.Errorf("%w: table %q exists", store.ErrConflict, t.ID)
		}
		if err != nil {
			return err
		}
		return insertSeats(ctx, tx, t.ID, seats)
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: create table %q: %w", t.ID, err)
	}
	return nil
}

func insertSeats(ctx context.Context, tx *wtx, tableID string, seats []store.Seat) error {
	for _, s := range seats {
		_, err := tx.ExecContext(ctx, `INSERT INTO seats (table_id, seat, name, token_hash, bot, account_id, bot_account)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, tableID, s.Seat, s.Name, s.TokenHash, s.Bot, s.Account, s.BotAccount)
		if isPrimaryKeyViolation(err) {
			return fmt.Errorf("%w: seat %d twice", store.ErrConflict, s.Seat)
		}
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
	token, fenced := fence.Of(ctx, t.ID)
	err := db.inTx(ctx, func(tx *wtx) error {
		if err := db.checkFence(ctx, tx, t.ID, token, fenced); err != nil {
			return err
		}
		return updateTable(ctx, tx, t)
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: update table %q: %w", t.ID, err)
	}
	return nil
}

// updateTable saves a table's status, seed, winner, data and UpdatedAt
// within a write transaction; a missing table is store.ErrNotFound.
func updateTable(ctx context.Context, tx appendConn, t store.Table) error {
	n, err := tx.exec(ctx, `UPDATE tables
		SET status = ?, seed = ?, winner = ?, data = ?, updated_at = ?
		WHERE id = ?`,
		string(t.Status), strconv.FormatUint(t.Seed, 10), t.Winner, t.Data, formatTime(t.UpdatedAt), t.ID)
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// SaveSeats replaces a table's seats. A missing table is store.ErrNotFound.
func (db *DB) SaveSeats(ctx context.Context, tableID string, seats []store.Seat) error {
	err := store.CheckSeats(seats)
	if err == nil {
		token, fenced := fence.Of(ctx, tableID)
		err = db.inTx(ctx, func(tx *wtx) error {
			if err := tableExists(ctx, tx, tableID); err != nil {
				return err
			}
			if err := db.checkFence(ctx, tx, tableID, token, fenced); err != nil {
				return err
			}
			return replaceSeats(ctx, tx, tableID, seats)
		})
	}
	if err != nil {
		return fmt.Errorf("store/sqlite: save seats of %q: %w", tableID, err)
	}
	return nil
}

// replaceSeats makes a table's seats the given ones, writing only the rows
// that change. A join changes one seat: deleting and inserting all eleven
// rewrote and rebalanced the seats' pages at every join, on the connection
// that every room's appends wait for.
func replaceSeats(ctx context.Context, tx *wtx, tableID string, seats []store.Seat) error {
	old, err := seatsOf(ctx, tx, tableID)
	if err != nil {
		return err
	}
	d := store.DiffSeats(old, seats)
	for _, s := range d.Changed {
		if _, err := tx.ExecContext(ctx, `UPDATE seats SET name = ?, token_hash = ?, bot = ?, account_id = ?, bot_account = ?
			WHERE table_id = ? AND seat = ?`, s.Name, s.TokenHash, s.Bot, s.Account, s.BotAccount, tableID, s.Seat); err != nil {
			return err
		}
	}
	if err := insertSeats(ctx, tx, tableID, d.Added); err != nil {
		return err
	}
	for _, n := range d.Removed {
		if _, err := tx.ExecContext(ctx, `DELETE FROM seats WHERE table_id = ? AND seat = ?`, tableID, n); err != nil {
			return err
		}
	}
	return nil
}

// seatsOf reads a table's seats in seat order.
func seatsOf(ctx context.Context, q queryer, id string) ([]store.Seat, error) {
	rows, err := q.QueryContext(ctx, `SELECT seat, name, token_hash, bot, account_id, bot_account FROM seats
		WHERE table_id = ? ORDER BY seat`, id)
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

// queryer is what reads need: a *sql.DB or a *sql.Tx.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func tableExists(ctx context.Context, q queryer, id string) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM tables WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}

const tableColumns = `id, kind, name, public, invite, status, data, host_token, seed, winner, created_at, updated_at`

type scanner interface{ Scan(dest ...any) error }

func scanTable(s scanner) (store.Table, error) {
	var (
		t                  store.Table
		kind, status, seed string
		created, updated   string
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
	if t.CreatedAt, err = parseTime(created); err != nil {
		return t, err
	}
	if t.UpdatedAt, err = parseTime(updated); err != nil {
		return t, err
	}
	return t, nil
}

// Table returns the table of the given kind with that ID and its seats in
// seat order, or store.ErrNotFound (also for a table of another kind). A
// table set aside, and one whose row or seats cannot be read (a bad seed or
// time, a damaged page), is an error that is store.ErrDamaged.
func (db *DB) Table(ctx context.Context, kind store.Kind, id string) (store.Table, []store.Seat, error) {
	if err := store.CheckKind(kind); err != nil {
		return store.Table{}, nil, fmt.Errorf("store/sqlite: table %q: %w", id, err)
	}
	rtx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return store.Table{}, nil, fmt.Errorf("store/sqlite: table %q: %w", id, err)
	}
	defer rtx.Rollback()
	tx := db.rd.in(rtx) // its statements prepared once
	if reason, err := setAsideReason(ctx, tx, id); err != nil {
		return store.Table{}, nil, fmt.Errorf("store/sqlite: table %q: %w", id, asDamaged(err))
	} else if reason != "" {
		var k string
		err := tx.QueryRowContext(ctx, `SELECT kind FROM tables WHERE id = ?`, id).Scan(&k)
		if err == nil && store.Kind(k) != kind {
			// Another kind's: not for this caller to find, set aside or not.
			return store.Table{}, nil, fmt.Errorf("store/sqlite: table %q: %w", id, store.ErrNotFound)
		}
		return store.Table{}, nil, fmt.Errorf("store/sqlite: table %q is set aside (%s): %w", id, reason, store.ErrDamaged)
	}
	t, err := scanTable(tx.QueryRowContext(ctx, `SELECT `+tableColumns+` FROM tables WHERE id = ? AND kind = ?`, id, string(kind)))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Table{}, nil, fmt.Errorf("store/sqlite: table %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Table{}, nil, fmt.Errorf("store/sqlite: table %q: %w", id, asDamaged(err))
	}
	seats, err := seatsOf(ctx, tx, id)
	if err != nil {
		return store.Table{}, nil, fmt.Errorf("store/sqlite: seats of %q: %w", id, asDamaged(err))
	}
	return t, seats, nil
}

// Tables lists the tables of the given kind that f chooses (see
// store.TableFilter), newest first (the later created first; among equal
// times, the later recorded), never one set aside.
func (db *DB) Tables(ctx context.Context, kind store.Kind, f store.TableFilter) ([]store.Table, error) {
	if err := store.CheckKind(kind); err != nil {
		return nil, fmt.Errorf("store/sqlite: tables: %w", err)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT `+tableColumns+` FROM tables
		WHERE kind = ?1 AND (?2 = '' OR status = ?2) AND (NOT ?3 OR public)
		AND id NOT IN (SELECT table_id FROM damaged)
		ORDER BY created_at DESC, rowid DESC LIMIT ?4`, string(kind), string(f.Status), f.PublicOnly, limit)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: tables: %w", err)
	}
	defer rows.Close()
	var out []store.Table
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			return nil, fmt.Errorf("store/sqlite: tables: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/sqlite: tables: %w", err)
	}
	return out, nil
}

// SaveClock records a game's clock, replacing the last one. A missing table
// is store.ErrNotFound. Clocks are saved at every step of every game, so the
// write joins the appends' group commit instead of taking a transaction of
// its own.
func (db *DB) SaveClock(ctx context.Context, tableID string, c store.Clock) error {
	token, fenced := fence.Of(ctx, tableID)
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := db.checkFence(ctx, tx, tableID, token, fenced); err != nil {
			return err
		}
		err := saveClock(ctx, tx, tableID, c)
		if isForeignKeyViolation(err) {
			return store.ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: save clock of %q: %w", tableID, err)
	}
	return nil
}

// saveClock writes a game's clock within a write transaction.
func saveClock(ctx context.Context, tx appendConn, tableID string, c store.Clock) error {
	var deadline any // NULL while there is none
	if !c.Deadline.IsZero() {
		deadline = formatTime(c.Deadline)
	}
	_, err := tx.exec(ctx, `INSERT INTO clocks (table_id, step, deadline, left_ns, paused)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (table_id) DO UPDATE SET
		step = excluded.step, deadline = excluded.deadline,
		left_ns = excluded.left_ns, paused = excluded.paused`,
		tableID, c.Step, deadline, int64(c.Left), c.Paused)
	return err
}

// Clock returns a game's last saved clock (the zero Clock if none), or
// store.ErrNotFound if the table does not exist. A clock that cannot be read
// (an impossible time, a damaged page) is an error that is store.ErrDamaged.
func (db *DB) Clock(ctx context.Context, tableID string) (store.Clock, error) {
	var (
		c        store.Clock
		step     sql.NullInt64
		deadline sql.NullString
		left     sql.NullInt64
		paused   sql.NullBool
	)
	err := db.rd.QueryRowContext(ctx, `SELECT c.step, c.deadline, c.left_ns, c.paused
		FROM tables t LEFT JOIN clocks c ON c.table_id = t.id WHERE t.id = ?`, tableID).
		Scan(&step, &deadline, &left, &paused)
	if errors.Is(err, sql.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("store/sqlite: clock of %q: %w", tableID, asDamaged(err))
	}
	c.Step = int(step.Int64)
	c.Left = time.Duration(left.Int64)
	c.Paused = paused.Bool
	if deadline.Valid {
		if c.Deadline, err = parseTime(deadline.String); err != nil {
			return store.Clock{}, fmt.Errorf("store/sqlite: clock of %q: %w", tableID, err)
		}
	}
	return c, nil
}

// Heartbeat records that the server was alive at t.
func (db *DB) Heartbeat(ctx context.Context, t time.Time) error {
	err := db.inTx(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO heartbeat (id, at) VALUES (1, ?)
			ON CONFLICT (id) DO UPDATE SET at = excluded.at`, formatTime(t))
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: heartbeat: %w", err)
	}
	return nil
}

// LastHeartbeat returns the time of the last Heartbeat, or the zero time if
// there was none.
func (db *DB) LastHeartbeat(ctx context.Context) (time.Time, error) {
	var at string
	err := db.rd.QueryRowContext(ctx, `SELECT at FROM heartbeat WHERE id = 1`).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("store/sqlite: last heartbeat: %w", err)
	}
	return parseTime(at)
}
