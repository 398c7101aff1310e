package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"mafia/store"
)

var _ store.Leases = (*DB)(nil)

// The database's clock, for leases: SQLite is opened by one machine, so it
// is that machine's. Tests may not change it; they wait for a short ttl.
func leaseNow() int64 { return time.Now().UnixNano() }

// Acquire takes the lease of a table for node, for ttl from the database's
// clock (see store.Leases), in one write transaction: SQLite writes one at
// a time, so two callers racing for a table are ordered.
func (db *DB) Acquire(ctx context.Context, table, node string, ttl time.Duration) (store.Lease, error) {
	if node == "" || ttl <= 0 {
		return store.Lease{}, fmt.Errorf("store/sqlite: acquire the lease of %q: a node and a positive ttl are needed", table)
	}
	// From now on a leased table's state is written fenced only
	// (checkFence).
	db.leasing.Store(true)
	var (
		out  store.Lease
		held *store.HeldError
	)
	err := db.inTx(ctx, func(tx *wtx) error {
		now := leaseNow()
		cur, err := leaseIn(ctx, tx, table)
		switch {
		case errors.Is(err, store.ErrNotFound):
			if err := tableExists(ctx, tx, table); err != nil {
				return err
			}
		case err != nil:
			return err
		case cur.Node != node && cur.Expires.UnixNano() > now:
			held = &store.HeldError{Lease: cur}
			return nil // nothing written: a refusal, not a failed write
		}
		out = store.Lease{Table: table, Node: node, Expires: time.Unix(0, now+int64(ttl)).UTC()}
		if err == nil && cur.Node == node && cur.Expires.UnixNano() > now {
			out.Token = cur.Token // its own live lease: renewed
		} else if err := tx.QueryRowContext(ctx, `UPDATE lease_tokens SET last = last + 1 WHERE id = 1 RETURNING last`).Scan(&out.Token); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO leases (table_id, node, token, expires_ns) VALUES (?, ?, ?, ?)
			ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, token = excluded.token, expires_ns = excluded.expires_ns`,
			table, node, out.Token, out.Expires.UnixNano())
		return err
	})
	switch {
	case err != nil:
		return store.Lease{}, fmt.Errorf("store/sqlite: acquire the lease of %q: %w", table, asDamaged(err))
	case held != nil:
		return store.Lease{}, held
	}
	return out, nil
}

// Renew extends l for ttl from now while l's node still holds the lease
// with l's token; otherwise store.ErrLeaseLost.
func (db *DB) Renew(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	if ttl <= 0 {
		return store.Lease{}, fmt.Errorf("store/sqlite: renew the lease of %q: a positive ttl is needed", l.Table)
	}
	out, lost := l, false
	err := db.inTx(ctx, func(tx *wtx) error {
		exp := leaseNow() + int64(ttl)
		res, err := tx.ExecContext(ctx, `UPDATE leases SET expires_ns = ? WHERE table_id = ? AND node = ? AND token = ?`,
			exp, l.Table, l.Node, l.Token)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		lost, out.Expires = n == 0, time.Unix(0, exp).UTC()
		return err
	})
	switch {
	case err != nil:
		return store.Lease{}, fmt.Errorf("store/sqlite: renew the lease of %q: %w", l.Table, asDamaged(err))
	case lost:
		return store.Lease{}, fmt.Errorf("store/sqlite: renew the lease of %q (token %d): %w", l.Table, l.Token, store.ErrLeaseLost)
	}
	return out, nil
}

// RenewAll renews the leases still held with their tokens in one write
// transaction.
func (db *DB) RenewAll(ctx context.Context, ls []store.Lease, ttl time.Duration) ([]store.Lease, error) {
	if ttl <= 0 {
		return nil, fmt.Errorf("store/sqlite: renew %d leases: a positive ttl is needed", len(ls))
	}
	if len(ls) == 0 {
		return nil, nil
	}
	var out []store.Lease
	err := db.inTx(ctx, func(tx *wtx) error {
		out = out[:0]
		exp := leaseNow() + int64(ttl)
		for _, l := range ls {
			res, err := tx.ExecContext(ctx, `UPDATE leases SET expires_ns = ? WHERE table_id = ? AND node = ? AND token = ?`,
				exp, l.Table, l.Node, l.Token)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 1 {
				l.Expires = time.Unix(0, exp).UTC()
				out = append(out, l)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: renew %d leases: %w", len(ls), asDamaged(err))
	}
	return out, nil
}

// Release gives l up if its node still holds it with its token.
func (db *DB) Release(ctx context.Context, l store.Lease) error {
	err := db.inTx(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM leases WHERE table_id = ? AND node = ? AND token = ?`, l.Table, l.Node, l.Token)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: release the lease of %q: %w", l.Table, asDamaged(err))
	}
	return nil
}

// Lease returns the table's lease as it is, or store.ErrNotFound when
// nobody holds it.
func (db *DB) Lease(ctx context.Context, table string) (store.Lease, error) {
	l, err := leaseIn(ctx, db.rd, table)
	if err != nil {
		return store.Lease{}, fmt.Errorf("store/sqlite: the lease of %q: %w", table, asDamaged(err))
	}
	return l, nil
}

func leaseIn(ctx context.Context, q queryer, table string) (store.Lease, error) {
	l := store.Lease{Table: table}
	var exp int64
	err := q.QueryRowContext(ctx, `SELECT node, token, expires_ns FROM leases WHERE table_id = ?`, table).Scan(&l.Node, &l.Token, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return l, store.ErrNotFound
	}
	l.Expires = time.Unix(0, exp).UTC()
	return l, err
}

// Expired lists up to limit leases that have run out, the longest run out
// first.
func (db *DB) Expired(ctx context.Context, limit int) ([]store.Lease, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := db.rd.QueryContext(ctx, `SELECT table_id, node, token, expires_ns FROM leases
		WHERE expires_ns <= ? ORDER BY expires_ns, table_id LIMIT ?`, leaseNow(), limit)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: expired leases: %w", asDamaged(err))
	}
	defer rows.Close()
	var out []store.Lease
	for rows.Next() {
		var (
			l   store.Lease
			exp int64
		)
		if err := rows.Scan(&l.Table, &l.Node, &l.Token, &exp); err != nil {
			return nil, fmt.Errorf("store/sqlite: expired leases: %w", asDamaged(err))
		}
		l.Expires = time.Unix(0, exp).UTC()
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/sqlite: expired leases: %w", asDamaged(err))
	}
	return out, nil
}

// checkFence refuses, within a write transaction, a write of table fenced
// with token (fenced: it came through a store.Fenced handle) that the
// table's lease no longer carries, and, once leases are in use on this
// store (leasing), a write without a fence of a table that has a lease
// (store.ErrUnfenced). SQLite writes one transaction at a time, so no
// takeover commits between the check and the write.
func (db *DB) checkFence(ctx context.Context, tx appendConn, table string, token int64, fenced bool) error {
	if !fenced && !db.leasing.Load() {
		return nil
	}
	var cur int64
	leased, err := tx.queryInts(ctx, `SELECT token FROM leases WHERE table_id = ?`, []any{table}, &cur)
	if err != nil {
		return err
	}
	if !fenced {
		if leased {
			return fmt.Errorf("table %q: %w", table, store.ErrUnfenced)
		}
		return nil
	}
	if !leased || cur != token {
		return fmt.Errorf("table %q, token %d: %w", table, token, store.ErrFenced)
	}
	return nil
}
