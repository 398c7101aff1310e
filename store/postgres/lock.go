package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// ErrInUse is returned by Open when another server holds the database: one
// `mafia serve` per database, as SQLite has one per file, until the cluster
// (docs/cluster.md) lets several share it through table leases. The error
// is an *InUseError.
var ErrInUse = errors.New("store/postgres: the database is in use by another server")

// InUseError says which database is held, and by which PostgreSQL session
// (its backend's pid, and the address the other server connects from)
// when that is known. It is ErrInUse (errors.Is).
type InUseError struct {
	Database string // the database's name
	PID      int    // the backend that holds the lock (0: unknown)
	Client   string // the other server's address as PostgreSQL sees it ("": unknown, or a local socket)
}

// Error says which database is held, and by whom if known.
func (e *InUseError) Error() string {
	s := fmt.Sprintf("%v: database %q", ErrInUse, e.Database)
	if e.PID > 0 {
		s += fmt.Sprintf(" (held by the session of backend pid %d", e.PID)
		if e.Client != "" {
			s += " from " + e.Client
		}
		s += ")"
	}
	return s
}

// Is makes an InUseError match ErrInUse.
func (e *InUseError) Is(target error) bool { return target == ErrInUse }

// serverLockKey is the key of the session-level advisory lock that one
// server holds on its database: "mafiserv" in ASCII, so that it is easy to
// tell in pg_locks (locktype advisory, classid 0x6d616669 "mafi", objid
// 0x73657276 "serv", objsubid 1).
const serverLockKey int64 = 0x6d616669_73657276

// idleTxTimeout is the store's connections' idle_in_transaction_session_timeout
// (unless the URL sets it): a server paused in the middle of a transaction
// (SIGSTOP, a long GC pause) holds that transaction's locks, the lease's row
// of a fenced write among them, until PostgreSQL ends its session.
const idleTxTimeout = "10s"

// lockServer opens a connection of its own and takes the server lock on it,
// for as long as that connection lives; another server's lock is an
// *InUseError.
func lockServer(ctx context.Context, cfg *pgx.ConnConfig) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: connect: %w", err)
	}
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, serverLockKey).Scan(&ok); err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("store/postgres: lock the database: %w", err)
	}
	if ok {
		return conn, nil
	}
	e := &InUseError{Database: cfg.Database}
	// Who holds it, if this role may see it (pg_stat_activity hides other
	// roles' addresses from a role that is not privileged).
	var client *string
	key := serverLockKey
	err = conn.QueryRow(ctx, `SELECT l.pid, host(a.client_addr) FROM pg_locks l
		LEFT JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid AND l.objsubid = 1 LIMIT 1`,
		key>>32, key&0xffffffff).Scan(&e.PID, &client)
	if err == nil && client != nil {
		e.Client = *client
	}
	conn.Close(ctx)
	return nil, e
}

// options are what Open's Options set.
type options struct {
	shared bool
}

// Option changes how Open opens the store.
type Option func(*options)

// Shared opens the store without the one-server lock, beside a server that
// holds it or other Shared stores: for the cluster's nodes, whose writes of
// each table are fenced by its lease (store.Leases), and for tools and
// tests that read a database a server is using. Without fencing, two
// servers writing the same tables would conflict at every step.
func Shared() Option { return func(o *options) { o.shared = true } }
