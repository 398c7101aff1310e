package postgres

// This file remembers the addresses accounts took seats from
// (store.SeenAddrs).

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mafia/store"
)

var _ store.SeenAddrs = (*DB)(nil)

// forgetBatch bounds the stale rows one SeeAddr deletes: each write clears
// a few, so the table stays bounded without a sweep of its own.
const forgetBatch = 64

// SeeAddr records an address an account was seen at (store.SeenAddrs), in
// one transaction: the row, the account's addresses past keep, and up to
// forgetBatch rows of any account older than forget (those another
// transaction holds are left for the next).
func (db *DB) SeeAddr(ctx context.Context, account int64, addr string, at time.Time, keep int, forget time.Duration) error {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO seen_addrs (account_id, addr, at_ns) VALUES ($1, $2, $3)
			ON CONFLICT (account_id, addr) DO UPDATE SET at_ns = greatest(seen_addrs.at_ns, excluded.at_ns)`, account, addr, at.UnixNano()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM seen_addrs WHERE account_id = $1 AND addr NOT IN
			(SELECT addr FROM seen_addrs WHERE account_id = $1 ORDER BY at_ns DESC LIMIT $2)`, account, max(keep, 1)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM seen_addrs WHERE (account_id, addr) IN
			(SELECT account_id, addr FROM seen_addrs WHERE at_ns < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`, at.Add(-forget).UnixNano(), forgetBatch)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: see address: %w", err)
	}
	return nil
}

// AddrsSeen is an account's addresses seen since a time (store.SeenAddrs).
func (db *DB) AddrsSeen(ctx context.Context, account int64, since time.Time) ([]store.SeenAddr, error) {
	rows, err := db.pool.Query(ctx, `SELECT addr, at_ns FROM seen_addrs WHERE account_id = $1 AND at_ns >= $2
		ORDER BY at_ns DESC, addr`, account, since.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("store/postgres: addresses seen: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.SeenAddr, error) {
		var a store.SeenAddr
		var ns int64
		err := r.Scan(&a.Addr, &ns)
		a.At = time.Unix(0, ns).UTC()
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: addresses seen: %w", err)
	}
	return out, nil
}
