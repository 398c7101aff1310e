package sqlite

// This file remembers the addresses accounts took seats from
// (store.SeenAddrs).

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mafia/store"
)

var _ store.SeenAddrs = (*DB)(nil)

// forgetBatch bounds the stale rows one SeeAddr deletes: each write clears
// a few, so the table stays bounded without a sweep of its own.
const forgetBatch = 64

// SeeAddr records an address an account was seen at (store.SeenAddrs), in
// one transaction: the row, the account's addresses past keep, and up to
// forgetBatch rows of any account older than forget.
func (db *DB) SeeAddr(ctx context.Context, account int64, addr string, at time.Time, keep int, forget time.Duration) error {
	err := db.inTx(ctx, func(tx *wtx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO seen_addrs (account_id, addr, at_ns) VALUES (?, ?, ?)
			ON CONFLICT (account_id, addr) DO UPDATE SET at_ns = max(at_ns, excluded.at_ns)`, account, addr, at.UnixNano()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM seen_addrs WHERE account_id = ? AND addr NOT IN
			(SELECT addr FROM seen_addrs WHERE account_id = ? ORDER BY at_ns DESC LIMIT ?)`, account, account, max(keep, 1)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM seen_addrs WHERE (account_id, addr) IN
			(SELECT account_id, addr FROM seen_addrs WHERE at_ns < ? LIMIT ?)`, at.Add(-forget).UnixNano(), forgetBatch)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: see address: %w", err)
	}
	return nil
}

// AddrsSeen is an account's addresses seen since a time (store.SeenAddrs).
func (db *DB) AddrsSeen(ctx context.Context, account int64, since time.Time) ([]store.SeenAddr, error) {
	rows, err := db.rd.QueryContext(ctx, `SELECT addr, at_ns FROM seen_addrs WHERE account_id = ? AND at_ns >= ?
		ORDER BY at_ns DESC, addr`, account, since.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: addresses seen: %w", err)
	}
	var out []store.SeenAddr
	for rows.Next() {
		var a store.SeenAddr
		var ns int64
		if err := rows.Scan(&a.Addr, &ns); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store/sqlite: addresses seen: %w", err)
		}
		a.At = time.Unix(0, ns).UTC()
		out = append(out, a)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, fmt.Errorf("store/sqlite: addresses seen: %w", err)
	}
	return out, nil
}
