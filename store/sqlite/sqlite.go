// Package sqlite implements store.Store on one SQLite file, through the pure
// Go driver modernc.org/sqlite (no cgo). The schema lives in migrations/,
// embedded in the binary and applied by goose at Open.
//
// It owns the file and everything in it: tables, seats, clocks, the
// heartbeat, and each game's event log, one row per event in the JSON of
// package wire so that the log can be read with the sqlite3 CLI. Appends from
// all rooms go through one writer goroutine that commits them together
// (group commit) and answers each caller only after the commit.
//
// It must not decide rules, read game state, or filter secrets: it stores
// what it is given and gives it back unchanged. It must be the only store
// writing the file, because it keeps each log's length in memory: Open
// takes an exclusive lock beside the file (see fileLock) and refuses a file
// another store holds (ErrLocked).
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	sqlite3 "modernc.org/sqlite"
	sqlite3lib "modernc.org/sqlite/lib"

	"mafia/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrClosed is returned by AppendEvents once Close has begun.
var ErrClosed = errors.New("store/sqlite: closed")

// DB is a store.Store on one SQLite file. It is safe for concurrent use.
type DB struct {
	w *sql.DB // the one writing connection
	r *sql.DB // read-only connections, for queries that run beside the writer
	// rd runs r's queries from statements prepared once (readstmts.go):
	// every read of the package goes through it.
	rd *reader

	// wr is the group commit: one writer goroutine, the only one that
	// writes (events.go).
	wr *store.Committer[*appendReq]

	// seq is each log's length, owned by the writer goroutine: a table is
	// present once its length has been read, and dropped when its game ends.
	seq map[string]int
	// players is each game's player count (from its GameStarted event),
	// which package wire needs to encode per-seat lists; it is read by the
	// appending goroutines, which encode their own events.
	players sync.Map // table ID → int

	batches atomic.Int64 // group commits so far
	// leasing is set once a lease was acquired through this store: a
	// leased table's state is then written fenced only (checkFence).
	leasing    atomic.Bool
	writes     atomic.Int64 // the requests they carried
	commitNano atomic.Int64 // the time spent on them

	stmts stmtCache // the writer's statements, prepared
	raw   rawStmts  // the same on the driver's connection, for appends (raw.go)

	health store.WriteTracker // whether writes commit (see WriteHealth)

	ck     *sql.DB       // the background checkpointer's connection
	ckStop chan struct{} // closed to stop the checkpointer
	ckDone chan struct{} // closed when it has stopped

	lock *fileLock // held from Open to Close

	chatCap int // the most chat lines kept per table (0: store.MaxChatLines; tests lower it)

	closeOnce sync.Once
	closeErr  error
}

var (
	_ store.Store        = (*DB)(nil)
	_ store.WriteCounter = (*DB)(nil)
	_ store.WriteMonitor = (*DB)(nil)
	_ store.Chats        = (*DB)(nil)
	_ store.All          = (*DB)(nil) // every capability (cmd/mafia opens it as one)
)

// WriteStats returns the writer's counts so far.
func (db *DB) WriteStats() store.WriteStats {
	g, held := db.wr.Gathered()
	return store.WriteStats{Commits: db.batches.Load(), Writes: db.writes.Load(),
		CommitTime: time.Duration(db.commitNano.Load()), Gathered: g, GatherTime: held}
}

// pragmas are set on every connection.
//
// journal_mode=WAL lets readers run beside the writer, and a commit is one
// append to the WAL file.
//
// synchronous=NORMAL does not fsync at every commit, only when the WAL is
// checkpointed. That is durable enough in WAL mode for what we need: a
// commit has been written to the WAL (handed to the operating system) before
// COMMIT returns, so it survives the process dying in any way, kill -9
// included, and the database can never be corrupted. What it does not
// survive is the machine losing power or crashing before the OS has flushed
// the file: then the last transactions may be lost (rolled back, never torn).
// synchronous=FULL would close that window at the price of one fsync per
// group commit.
//
// busy_timeout makes a connection wait for a lock (the writer's, or a
// checkpoint's) instead of failing at once; foreign_keys makes SQLite check
// that seats, events and clocks belong to a table.
const pragmas = "_pragma=busy_timeout(5000)" +
	"&_pragma=journal_mode(WAL)" +
	"&_pragma=synchronous(NORMAL)" +
	"&_pragma=foreign_keys(1)"

// writerPragmas are set on the writing connection only.
//
// The page cache is 8 MiB (SQLite's default is 2 MiB), about 7,000 pages of
// 1 KiB with their headers: what appends touch, one events leaf and its
// parent per game in play and the clocks' few pages, is about 2,000 pages
// at 900 games (10,000 players), so the writer reads none of them from the
// file again. It is no larger because every commit that splits a B-tree
// page sweeps the whole cache's hash table: SQLite renumbers a page for a
// moment to the number of the file's lock page while it orders the new
// pages, and at the commit's end drops every cached page past the file's
// end, which is then a walk over every bucket and every page cached. Under
// appends nearly every commit splits a leaf, so the sweep's cost is the
// cache's size: at 64 MiB (the size before, about 55,000 pages) it was half
// of the store's CPU once a server had run long enough to fill it
// (BenchmarkCommands, docs/performance.md).
//
// The writer's own automatic checkpoint runs only at 50,000 WAL pages
// (about 50 MiB) instead of SQLite's 1,000. It is what starts the WAL over:
// the background checkpointer copies the frames long before, but under
// steady appends a commit always lands while it syncs, so the WAL never
// finds itself all copied when the writer begins, and only the writer's
// own checkpoint lets it start over. That checkpoint syncs both files
// inside a commit while every room waits for it. The benchmark writes
// about 2,000 pages a second: at 10,000 pages this came every 5 s or so
// (and with SQLite's default the slowest commits took 190 ms); at 50,000
// it comes every 25 s or so, and the benchmark's p99 fell from 37-62 ms to
// 28-39 ms in three interleaved pairs of runs (docs/performance.md).
const writerPragmas = "&_pragma=cache_size(-8192)&_pragma=wal_autocheckpoint(50000)"

// Open opens the SQLite file at path, creating it if needed, brings its
// schema up to date, and starts the writer goroutine. Close it when done.
// A file that another store holds, in this process or another, is refused
// with a *LockedError (ErrLocked), which names the holder's pid.
func Open(path string) (db *DB, err error) {
	if path == "" || strings.ContainsAny(path, "?#") || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("store/sqlite: unusable path %q", path)
	}
	lockAt := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		lockAt = real // one lock per file, whatever link names it
	}
	lk, err := lock(lockAt)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			lk.unlock()
		}
	}()
	if err := newFilePages(path); err != nil {
		return nil, err
	}
	// The writer begins its transactions IMMEDIATE: it takes the write lock
	// at BEGIN, so it never has to upgrade a read lock (which can fail with
	// SQLITE_BUSY whatever the busy timeout).
	w, err := sql.Open("sqlite", path+"?"+pragmas+writerPragmas+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: open %s: %w", path, err)
	}
	// One connection: SQLite has one writer at a time anyway, and a single
	// connection queues writers in database/sql instead of in busy waits.
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)

	if err := migrate(w); err != nil {
		w.Close()
		if c := sqliteCode(err) & 0xff; c == sqlite3lib.SQLITE_CORRUPT || c == sqlite3lib.SQLITE_NOTADB {
			// The pages SQLite reads before any table (the file's header,
			// the schema) are damaged, or rows that a migration must read
			// (one that adds a column reads every row of its table): the
			// file cannot be brought up to date, and no table can be read.
			return nil, fmt.Errorf("store/sqlite: %s is damaged where SQLite keeps its schema, "+
				"or in rows that bringing it up to date must read: %w: %w",
				path, store.ErrDamaged, err)
		}
		return nil, fmt.Errorf("store/sqlite: migrate %s: %w", path, err)
	}

	r, err := sql.Open("sqlite", path+"?"+pragmas+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store/sqlite: open %s: %w", path, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)

	db = &DB{
		lock: lk,
		w:    w,
		r:    r,
		rd:   newReader(r),
		seq:  make(map[string]int),
	}
	ck, err := sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("store/sqlite: open %s: %w", path, err)
	}
	ck.SetMaxOpenConns(1)
	db.ck, db.ckStop, db.ckDone = ck, make(chan struct{}), make(chan struct{})
	go db.checkpointLoop()
	db.wr = store.NewCommitter(1, 4096, maxBatch, gather, ErrClosed, db.commit)
	return db, nil
}

// migrate applies the embedded migrations that the file does not have yet.
func migrate(db *sql.DB) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return err
	}
	_, err = p.Up(context.Background())
	return err
}

// Close stops accepting appends, lets the writer commit every append already
// queued, stops it, and closes the file.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		db.wr.Close() // the writer has committed everything queued, and stopped
		close(db.ckStop)
		<-db.ckDone
		db.stmts.close()
		db.rd.close()
		db.closeRaw()
		db.closeErr = errors.Join(db.r.Close(), db.ck.Close(), db.w.Close())
		// Only once every connection is closed may another server begin.
		db.closeErr = errors.Join(db.closeErr, db.lock.unlock())
	})
	return db.closeErr
}

// timeLayout stores times as fixed-width UTC text, which sorts as it reads.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("store/sqlite: bad time %q: %w: %w", s, store.ErrDamaged, err)
	}
	if t.IsZero() {
		return time.Time{}, nil
	}
	return t, nil
}

// sqliteCode returns the extended SQLite result code of err, or 0.
func sqliteCode(err error) int {
	var e *sqlite3.Error
	if errors.As(err, &e) {
		return e.Code()
	}
	return 0
}

func isPrimaryKeyViolation(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3lib.SQLITE_CONSTRAINT_PRIMARYKEY || c == sqlite3lib.SQLITE_CONSTRAINT_UNIQUE
}

func isForeignKeyViolation(err error) bool {
	return sqliteCode(err) == sqlite3lib.SQLITE_CONSTRAINT_FOREIGNKEY
}

// checkpointEvery is how often the background checkpointer runs. Each run
// copies the last version of every page changed since the one before, and
// syncs both files: the pages that appends change (a game's newest events
// leaf, the clocks' pages) change many times a second, so a run a second
// copies each of them once where twenty runs copied it up to twenty times,
// and syncs twice where twenty runs synced forty times. It bounds what the
// writer's own checkpoint (every 50,000 pages, see writerPragmas) finds
// left to copy inside its commit to about a second of commits.
const checkpointEvery = time.Second

// checkpointLoop copies committed WAL frames into the database file in the
// background (a PASSIVE checkpoint: it never waits for, nor blocks, the
// writer or a reader). The writer still checkpoints automatically every
// 50,000 WAL pages, which is what lets SQLite start the WAL over and keeps
// it bounded (see writerPragmas); by then the frames are mostly copied, so
// the commit that runs it no longer copies the whole WAL while every room
// waits for it. What is durable when is unchanged: a commit is in the WAL
// before AppendEvents returns.
func (db *DB) checkpointLoop() {
	defer close(db.ckDone)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-db.ckStop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, _ = db.ck.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
		cancel()
	}
}

// pageSize is the page size of a new file (SQLite's default is 4096). A
// commit writes every page it changed to the WAL, whole and checksummed,
// and the checkpoint later copies it again; an append changes a few pages
// (the events' and the clock's) by a row of a few hundred bytes. Quarter
// pages write about a quarter of the bytes per commit. Since the writer
// holds small batches for more (gather), a commit carries several appends
// and the ratio is smaller: 4 KiB pages then wrote 1.8 times the bytes
// per append, for 0.83 of the CPU (BenchmarkCommands,
// docs/performance.md); not taken.
const pageSize = 1024

// newFilePages gives a file that does not exist yet, or is empty, its page
// size, which must be set before anything else (WAL mode included, which
// the connections' pragmas set first) and then stays. A file that has
// pages keeps them.
func newFilePages(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		return nil
	}
	c, err := sql.Open("sqlite", path)
	if err != nil {
		return fmt.Errorf("store/sqlite: open %s: %w", path, err)
	}
	defer c.Close()
	if _, err := c.Exec(fmt.Sprintf("PRAGMA page_size = %d; PRAGMA journal_mode = WAL", pageSize)); err != nil {
		return fmt.Errorf("store/sqlite: create %s: %w", path, err)
	}
	return nil
}
