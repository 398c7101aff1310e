package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

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
	// Node is set when the store was opened as a cluster's node (Node)
	// and another process holds that node's id; Cluster when a node was
	// refused because a single server holds the database, or a single
	// server because the nodes of a cluster do.
	Node    string
	Cluster bool
	PID     int    // the backend that holds the lock (0: unknown)
	Client  string // the other server's address as PostgreSQL sees it ("": unknown, or a local socket)
}

// Error says which database is held, and by whom if known.
func (e *InUseError) Error() string {
	s := fmt.Sprintf("%v: database %q", ErrInUse, e.Database)
	switch {
	case e.Node != "":
		s += fmt.Sprintf(": another process runs as the cluster's node %q", e.Node)
	case e.Cluster:
		s += ": a single server and the nodes of a cluster cannot share a database"
	}
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

// nodeLockClass is the first key of a cluster node's own advisory lock
// ("mafn"; the second is the hash of its id).
const nodeLockClass int32 = 0x6d61666e

// lockServer opens a connection of its own and takes the server lock on it,
// for as long as that connection lives; another server's lock is an
// *InUseError. A cluster's node (node not empty) takes the server lock
// shared, beside the other nodes, and an exclusive lock of its own id: a
// single server and a cluster exclude each other, and so do two processes
// with one node id.
func lockServer(ctx context.Context, cfg *pgx.ConnConfig, node string) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: connect: %w", err)
	}
	var ok bool
	q := `SELECT pg_try_advisory_lock($1)`
	if node != "" {
		q = `SELECT pg_try_advisory_lock_shared($1)`
	}
	if err := conn.QueryRow(ctx, q, serverLockKey).Scan(&ok); err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("store/postgres: lock the database: %w", err)
	}
	if ok && node != "" {
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1::int4, hashtext($2))`, nodeLockClass, node).Scan(&ok); err != nil {
			conn.Close(ctx)
			return nil, fmt.Errorf("store/postgres: lock the node's id: %w", err)
		}
		if !ok {
			conn.Close(ctx)
			return nil, &InUseError{Database: cfg.Database, Node: node}
		}
	}
	if ok {
		return conn, nil
	}
	e := &InUseError{Database: cfg.Database}
	if node != "" {
		e.Cluster = true // a single server holds it
	} else {
		var nodes bool
		_ = conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
			AND mode = 'ShareLock' AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 1)`,
			serverLockKey>>32, serverLockKey&0xffffffff).Scan(&nodes)
		e.Cluster = nodes
	}
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
	node   string
	log    *slog.Logger
}

// Option changes how Open opens the store.
type Option func(*options)

// Shared opens the store without the one-server lock, beside a server that
// holds it or other Shared stores: for the cluster's nodes, whose writes of
// each table are fenced by its lease (store.Leases), and for tools and
// tests that read a database a server is using. Without fencing, two
// servers writing the same tables would conflict at every step.
func Shared() Option { return func(o *options) { o.shared = true } }

// Node opens the store as the cluster node id: beside the other nodes of
// the cluster (whose writes of each table are fenced by its lease), but
// refused with an *InUseError while another process runs as the same node
// (its leases and tokens would be this one's too, and fencing could not
// tell the two apart), and while a single server (opened without Shared or
// Node) holds the database; a single server is refused while nodes run.
func Node(id string) Option { return func(o *options) { o.node = id } }
