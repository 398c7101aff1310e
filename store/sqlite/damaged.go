package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	sqlite3lib "modernc.org/sqlite/lib"

	"mafia/store"
)

// asDamaged makes err store.ErrDamaged when SQLite says that the pages it
// read are damaged (SQLITE_CORRUPT and its extended codes): the rows on
// them are lost to whoever reads them, and nothing else is.
func asDamaged(err error) error {
	if err == nil || errors.Is(err, store.ErrDamaged) {
		return err
	}
	if sqliteCode(err)&0xff == sqlite3lib.SQLITE_CORRUPT {
		return fmt.Errorf("%w: %w", store.ErrDamaged, err)
	}
	return err
}

// setAsideReason returns why a table was set aside, or "" if it was not.
func setAsideReason(ctx context.Context, q queryer, id string) (string, error) {
	var reason string
	err := q.QueryRowContext(ctx, `SELECT reason FROM damaged WHERE table_id = ?`, id).Scan(&reason)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return reason, err
}

// SetAside records that a table is damaged (see store.Store.SetAside). The
// mark is a row of its own, in a table of its own: it can be written while
// the table's rows cannot be read, and it keeps the first reason.
func (db *DB) SetAside(ctx context.Context, tableID, reason string) error {
	if tableID == "" {
		return fmt.Errorf("store/sqlite: set aside a table without an ID")
	}
	err := db.inTx(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO damaged (table_id, reason, at) VALUES (?, ?, ?)
			ON CONFLICT (table_id) DO NOTHING`, tableID, reason, formatTime(time.Now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: set aside %q: %w", tableID, err)
	}
	return nil
}

// TableIDs lists the IDs of the tables of the given kind with the given
// status, oldest recorded first, except those set aside (see
// store.Store.TableIDs). It reads the tables' row numbers from the index by
// status alone, then each row's ID and kind by itself: a damaged page of
// the tables' rows loses the tables on it, not the listing.
func (db *DB) TableIDs(ctx context.Context, kind store.Kind, status store.Status) ([]string, error) {
	if err := store.CheckKind(kind); err != nil {
		return nil, fmt.Errorf("store/sqlite: table IDs: %w", err)
	}
	rtx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: table IDs: %w", err)
	}
	defer rtx.Rollback()
	tx := db.rd.in(rtx) // its statements prepared once
	aside := map[string]bool{}
	rows, err := tx.QueryContext(ctx, `SELECT table_id FROM damaged`)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: table IDs: %w", err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store/sqlite: table IDs: %w", err)
		}
		aside[id] = true
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("store/sqlite: table IDs: %w", err)
	}
	rowids, err := rowidsWith(ctx, tx, status, "INDEXED BY tables_by_status")
	if errors.Is(err, store.ErrDamaged) {
		// The index is what is damaged, perhaps: read the rows themselves.
		rowids, err = rowidsWith(ctx, tx, status, "NOT INDEXED")
	}
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: table IDs: %w", err)
	}
	ids := make([]string, 0, len(rowids))
	var lost []string
	var lostErr error
	for _, n := range rowids {
		var id, k string
		err := tx.QueryRowContext(ctx, `SELECT id, kind FROM tables WHERE rowid = ?`, n).Scan(&id, &k)
		switch {
		case err == nil:
			if store.Kind(k) == kind && !aside[id] {
				ids = append(ids, id)
			}
		case errors.Is(asDamaged(err), store.ErrDamaged):
			lost = append(lost, fmt.Sprint(n))
			lostErr = err
		case errors.Is(err, sql.ErrNoRows): // gone since the index was read
		default:
			return nil, fmt.Errorf("store/sqlite: table IDs: %w", err)
		}
	}
	if lost != nil {
		return ids, fmt.Errorf("store/sqlite: table IDs: the rows %s of tables cannot be read: %w",
			strings.Join(lost, ", "), asDamaged(lostErr))
	}
	return ids, nil
}

// rowidsWith lists the row numbers of the tables with a status, reading
// them as how says (from the index alone, or from the rows).
func rowidsWith(ctx context.Context, tx queryer, status store.Status, how string) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT rowid FROM tables `+how+` WHERE status = ? ORDER BY rowid`, string(status))
	if err != nil {
		return nil, asDamaged(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			return nil, asDamaged(err)
		}
		out = append(out, n)
	}
	return out, asDamaged(rows.Err())
}
