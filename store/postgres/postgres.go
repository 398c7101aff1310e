// Package postgres implements store.Store on PostgreSQL, through pgx (a
// pool of connections, pgxpool). The schema lives in migrations/, embedded
// in the binary and applied by goose at Open, like store/sqlite's.
//
// It owns the database's rows: tables, seats, clocks, the heartbeat, the
// chat, and each game's event log, one row per event in the JSON of package
// wire so that the log can be read with psql. Several stores may share one
// database (a cluster of nodes, opened Shared): nothing it keeps in memory
// decides what a write may do. Each append checks the log's length in its
// own transaction, and the key (table, seq) makes two appends at the same
// place conflict; the tables' leases (leases.go, store.Leases) say which
// node owns each table, and a write fenced with a lease's token
// (store.Fenced) is refused once the lease carries another
// (docs/cluster.md). Opened without Shared, a store is its database's one
// server (lock.go).
//
// It must not decide rules, read game state, or filter secrets: it stores
// what it is given and gives it back unchanged.
package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"mafia/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is a store on one PostgreSQL database. It is safe for concurrent use.
type DB struct {
	pool *pgxpool.Pool

	// players is each game's player count (from its GameStarted event),
	// which package wire needs to encode per-seat lists. It is the one
	// thing kept across calls, and it never decides what a write may do:
	// a game's first event does not change while it is played (a rewrite
	// from 0 forgets it here).
	players sync.Map // table ID → int

	commits    atomic.Int64 // write transactions committed
	writes     atomic.Int64 // the requests they carried
	commitNano atomic.Int64 // the time spent on them
	retried    atomic.Int64 // transactions run again after a deadlock (retry.go)
	awayTries  atomic.Int64 // tries again of writes while the database was away (retry.go)
	log        *slog.Logger // nil: nothing logged (Log)

	health store.WriteTracker // whether writes commit (see WriteHealth)

	w     *store.Committer[*appendReq] // the group commit of appends (writer.go)
	alone bool                         // each append committed alone, on its caller's goroutine (benchmarks set it)

	// leasing is set when leases are in use on this store (opened as a
	// cluster's node, or a lease acquired through it): a leased table's
	// state is then written fenced only (checkFence).
	leasing atomic.Bool

	chatCap int // the most chat lines kept per table (0: store.MaxChatLines; tests lower it)

	lock *pgx.Conn // the connection that holds the one-server lock (nil when Shared)
}

var (
	_ store.Store         = (*DB)(nil)
	_ store.WriteCounter  = (*DB)(nil)
	_ store.WriteMonitor  = (*DB)(nil)
	_ store.Chats         = (*DB)(nil)
	_ store.ChatPages     = (*DB)(nil)
	_ store.UnratedTables = (*DB)(nil)
	_ store.All           = (*DB)(nil) // every capability (cmd/mafia opens it as one)
)

// poolSize is the connections a store opens when the URL does not say
// (pool_max_conns): appends from many rooms run at once, each in a
// transaction of its own, and PostgreSQL flushes the commits that wait
// together in one write of its log.
const poolSize = 16

// Open connects to the PostgreSQL database at url (postgres://user@host/db),
// brings its schema up to date, and returns the store. Close it when done.
//
// Unless opened Shared, the store is the database's one server: it holds a
// lock in the database (see ErrInUse) for as long as it is open, and a
// second store opened on the same database while it does is refused with
// an *InUseError.
func Open(ctx context.Context, url string, opts ...Option) (*DB, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: %w", err)
	}
	if _, ok := cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"]; !ok {
		cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = idleTxTimeout
	}
	var held *pgx.Conn
	if !o.shared {
		if held, err = lockServer(ctx, cfg.ConnConfig.Copy(), o.node); err != nil {
			return nil, err
		}
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = poolSize
	}
	fail := func(err error) (*DB, error) {
		if held != nil {
			held.Close(context.Background())
		}
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fail(fmt.Errorf("store/postgres: connect: %w", err))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return fail(fmt.Errorf("store/postgres: connect: %w", err))
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return fail(fmt.Errorf("store/postgres: migrate: %w", err))
	}
	db := &DB{pool: pool, lock: held, log: o.log}
	// A cluster's node writes its leased tables fenced only.
	db.leasing.Store(o.node != "")
	db.startWriters()
	return db, nil
}

// migrate applies the embedded migrations that the database does not have
// yet. Goose takes a lock in the database while it does, so that servers
// starting together on one database apply each migration once.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	sqldb := stdlib.OpenDBFromPool(pool)
	defer sqldb.Close()
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, sqldb, fsys,
		goose.WithDisableGlobalRegistry(true), goose.WithSessionLocker(locker))
	if err != nil {
		return err
	}
	_, err = p.Up(ctx)
	return err
}

// lockReleaseWait bounds how long Close waits for the server lock's
// session to let the lock go (a database that does not answer: its
// session's end lets the lock go then).
const lockReleaseWait = 5 * time.Second

// Close stops taking appends, lets the writers commit every append already
// queued, and releases the store's connections.
func (db *DB) Close() error {
	db.stopWriters()
	db.pool.Close()
	if db.lock != nil {
		// The session lets its locks go before it is closed: closing it
		// alone leaves them to PostgreSQL's backend, which lets them go
		// when it gets to its exit, and a server opened again at once (a
		// restart) could be refused as if another held the database.
		ctx, cancel := context.WithTimeout(context.Background(), lockReleaseWait)
		_, _ = db.lock.Exec(ctx, `SELECT pg_advisory_unlock_all()`)
		cancel()
		db.lock.Close(context.Background())
	}
	return nil
}
