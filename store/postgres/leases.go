package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mafia/store"
	"mafia/store/internal/fence"
)

var _ store.Leases = (*DB)(nil)

// leaseLockTimeout bounds how long Acquire and Renew wait for a lease's
// row: a write fenced with the lease holds it (FOR SHARE) until it commits,
// and one in a transaction whose node was paused in its middle would hold
// it until the database ends that session (idleTxTimeout). The caller
// sees an error and tries again later.
const leaseLockTimeout = "5s"

// micros is d in whole microseconds, at least one: the ttl the database
// adds to its clock.
func micros(d time.Duration) int64 { return max(int64(d/time.Microsecond), 1) }

// Acquire takes the lease of a table for node, for ttl from the database's
// clock (now()): see store.Leases. It is one statement, so that two nodes
// racing for one table are ordered by the lease's row: one takes it, the
// other is refused with the lease the first took. A new owner's token is
// drawn from the sequence lease_tokens.
func (db *DB) Acquire(ctx context.Context, table, node string, ttl time.Duration) (store.Lease, error) {
	if node == "" || ttl <= 0 {
		return store.Lease{}, fmt.Errorf("store/postgres: acquire the lease of %q: a node and a positive ttl are needed", table)
	}
	// From now on a leased table's state is written fenced only
	// (checkFence).
	db.leasing.Store(true)
	for range 3 {
		var l store.Lease
		err := db.leaseTx(ctx, func(tx pgx.Tx) error {
			// The table's advisory lock, alone: a write without a fence
			// that looked for a lease (checkUnfenced, append_step) has
			// committed, or waits for this lease and then sees it.
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, table); err != nil {
				return err
			}
			err := tx.QueryRow(ctx, `INSERT INTO leases AS l (table_id, node, token, expires)
				VALUES ($1, $2, nextval('lease_tokens'), now() + $3 * interval '1 microsecond')
				ON CONFLICT (table_id) DO UPDATE SET
					node = excluded.node,
					token = CASE WHEN l.node = excluded.node AND l.expires > now() THEN l.token ELSE excluded.token END,
					expires = excluded.expires
				WHERE l.node = excluded.node OR l.expires <= now()
				RETURNING table_id, node, token, expires`, table, node, micros(ttl)).
				Scan(&l.Table, &l.Node, &l.Token, &l.Expires)
			if errors.Is(err, pgx.ErrNoRows) {
				return store.ErrLeaseHeld // a refusal, not a failure of the store
			}
			return err
		})
		switch {
		case err == nil:
			return l, nil
		case !errors.Is(err, store.ErrLeaseHeld):
			return store.Lease{}, fmt.Errorf("store/postgres: acquire the lease of %q: %w", table, asStoreError(err))
		}
		// Held by another node: say by whom. Should it have been released or
		// run out since, try again.
		held, err := db.lease(ctx, table, true)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return store.Lease{}, fmt.Errorf("store/postgres: acquire the lease of %q: %w", table, err)
		}
		return store.Lease{}, &store.HeldError{Lease: held}
	}
	return store.Lease{}, fmt.Errorf("store/postgres: acquire the lease of %q: it changed hands three times at once", table)
}

// leaseTx runs f in a transaction that waits at most leaseLockTimeout for
// a lease's row.
// PostgreSQL may abort it for a deadlock or a serialization failure: it is
// then run again, a few times at most (retryTx).
func (db *DB) leaseTx(ctx context.Context, f func(tx pgx.Tx) error) error {
	return db.retryTx(ctx, "lease", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL lock_timeout = '`+leaseLockTimeout+`'`); err != nil {
			return err
		}
		return f(tx)
	})
}

// Renew extends l for ttl from the database's clock while l's node still
// holds the lease with l's token; otherwise store.ErrLeaseLost.
func (db *DB) Renew(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	if ttl <= 0 {
		return store.Lease{}, fmt.Errorf("store/postgres: renew the lease of %q: a positive ttl is needed", l.Table)
	}
	out := l
	err := db.leaseTx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `UPDATE leases SET expires = now() + $4 * interval '1 microsecond'
			WHERE table_id = $1 AND node = $2 AND token = $3 RETURNING expires`,
			l.Table, l.Node, l.Token, micros(ttl)).Scan(&out.Expires)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrLeaseLost
		}
		return err
	})
	if errors.Is(err, store.ErrLeaseLost) {
		return store.Lease{}, fmt.Errorf("store/postgres: renew the lease of %q (token %d): %w", l.Table, l.Token, store.ErrLeaseLost)
	}
	if err != nil {
		return store.Lease{}, fmt.Errorf("store/postgres: renew the lease of %q: %w", l.Table, asStoreError(err))
	}
	return out, nil
}

// RenewAll renews the leases still held with their tokens in one UPDATE.
func (db *DB) RenewAll(ctx context.Context, ls []store.Lease, ttl time.Duration) ([]store.Lease, error) {
	if ttl <= 0 {
		return nil, fmt.Errorf("store/postgres: renew %d leases: a positive ttl is needed", len(ls))
	}
	if len(ls) == 0 {
		return nil, nil
	}
	tables, nodes, tokens := make([]string, len(ls)), make([]string, len(ls)), make([]int64, len(ls))
	for i, l := range ls {
		tables[i], nodes[i], tokens[i] = l.Table, l.Node, l.Token
	}
	var out []store.Lease
	err := db.leaseTx(ctx, func(tx pgx.Tx) error {
		// The rows are locked first, in the order of the tables' names
		// byte by byte (COLLATE "C", whatever the database's collation),
		// which is the order the group commit sorts a batch in (writer.go)
		// and so the order its fenced appends lock them in (fence_ok): a
		// renewal and a batch of appends then never wait for each other
		// in a circle. An UPDATE … FROM alone locks rows in the order its
		// plan meets them (a hash join: the heap's), whatever order the
		// list is given in, and deadlocked with the appends under load.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM leases WHERE table_id = ANY($1::text[])
			ORDER BY table_id COLLATE "C" FOR NO KEY UPDATE`, tables); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `UPDATE leases l SET expires = now() + $4 * interval '1 microsecond'
			FROM unnest($1::text[], $2::text[], $3::bigint[]) AS u(t, n, k)
			WHERE l.table_id = u.t AND l.node = u.n AND l.token = u.k
			RETURNING l.table_id, l.node, l.token, l.expires`, tables, nodes, tokens, micros(ttl))
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Lease, error) {
			var l store.Lease
			err := r.Scan(&l.Table, &l.Node, &l.Token, &l.Expires)
			return l, err
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: renew %d leases: %w", len(ls), asStoreError(err))
	}
	return out, nil
}

// Release gives l up if its node still holds it with its token: the row
// goes (tokens come from a sequence, so no later owner gets l's again).
func (db *DB) Release(ctx context.Context, l store.Lease) error {
	err := db.leaseTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM leases WHERE table_id = $1 AND node = $2 AND token = $3`, l.Table, l.Node, l.Token)
		return err
	})
	if err != nil {
		return fmt.Errorf("store/postgres: release the lease of %q: %w", l.Table, asStoreError(err))
	}
	return nil
}

// Lease returns the table's lease as it is, or store.ErrNotFound when
// nobody holds it.
func (db *DB) Lease(ctx context.Context, table string) (store.Lease, error) {
	l, err := db.lease(ctx, table, false)
	if err != nil {
		return store.Lease{}, fmt.Errorf("store/postgres: the lease of %q: %w", table, err)
	}
	return l, nil
}

// lease reads a table's lease; live: only one that has not run out.
func (db *DB) lease(ctx context.Context, table string, live bool) (store.Lease, error) {
	var l store.Lease
	err := db.pool.QueryRow(ctx, `SELECT table_id, node, token, expires FROM leases
		WHERE table_id = $1 AND (NOT $2 OR expires > now())`, table, live).
		Scan(&l.Table, &l.Node, &l.Token, &l.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, store.ErrNotFound
	}
	return l, asStoreError(err)
}

// Expired lists up to limit leases that have run out by the database's
// clock, the longest run out first.
func (db *DB) Expired(ctx context.Context, limit int) ([]store.Lease, error) {
	var lim any // NULL: no limit
	if limit > 0 {
		lim = limit
	}
	rows, err := db.pool.Query(ctx, `SELECT table_id, node, token, expires FROM leases
		WHERE expires <= now() ORDER BY expires, table_id LIMIT $1`, lim)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: expired leases: %w", asStoreError(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Lease, error) {
		var l store.Lease
		err := r.Scan(&l.Table, &l.Node, &l.Token, &l.Expires)
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: expired leases: %w", asStoreError(err))
	}
	return out, nil
}

// checkFence refuses, within tx, a write of table made under a fence
// (through a store.Fenced handle) whose token the table's lease no longer
// carries; it locks the lease's row until tx ends (fence_ok), so that no
// takeover commits between the check and the write. Without a fence, on a
// store where leases are in use (leasing), it refuses the write of a table
// that has a lease (store.ErrUnfenced).
func (db *DB) checkFence(ctx context.Context, tx pgx.Tx, table string) error {
	token, ok := fence.Of(ctx, table)
	if !ok {
		return db.checkUnfenced(ctx, tx, table)
	}
	var fine bool
	if err := tx.QueryRow(ctx, `SELECT fence_ok($1, $2)`, table, token).Scan(&fine); err != nil {
		return err
	}
	if !fine {
		return fenced(table, token)
	}
	return nil
}

// unfencedLeasing is the token append_step is given for an append without
// a fence on a store where leases are in use (a token is never negative),
// and refusedUnfenced its answer when the table has a lease (00009).
const (
	unfencedLeasing = -1
	refusedUnfenced = -2147483648
)

// checkUnfenced refuses a write without a fence of a table that has a
// lease, once leases are in use on this store (a cluster's node, or a lease
// acquired through it): store.ErrUnfenced. It takes the table's advisory
// lock, shared, for the rest of tx, as append_step does: a lease being
// taken at the same moment (Acquire takes the lock alone) is waited for
// and seen. Without leases in use it reads nothing.
func (db *DB) checkUnfenced(ctx context.Context, tx pgx.Tx, table string) error {
	if !db.leasing.Load() {
		return nil
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))`, table); err != nil {
		return err
	}
	var leased bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM leases WHERE table_id = $1)`, table).Scan(&leased); err != nil {
		return err
	}
	if leased {
		return fmt.Errorf("table %q: %w", table, store.ErrUnfenced)
	}
	return nil
}

// fenced is the error of a write of table refused for its stale token.
func fenced(table string, token int64) error {
	return fmt.Errorf("table %q, token %d: %w", table, token, store.ErrFenced)
}
