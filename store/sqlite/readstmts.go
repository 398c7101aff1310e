package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// maxReadStmts bounds the readers' prepared statements: the queries are
// the package's own constants (a few dozen); a query built at run time
// beyond the bound runs unprepared, as before.
const maxReadStmts = 128

// reader runs the read pool's queries from statements prepared once:
// SQLite takes about as long to parse a small query as to run it, and a
// restart reads four or five of them for every table it resumes
// (docs/performance.md). It is a queryer, like the pool it wraps; in a
// read transaction, in(tx) is one. A statement that cannot be prepared
// leaves its query unprepared, as before.
type reader struct {
	db      *sql.DB
	mu      sync.Mutex
	m       map[string]*sql.Stmt
	pending map[string]bool // met in a read transaction, to prepare on the pool
	closed  bool
}

func newReader(db *sql.DB) *reader { return &reader{db: db, m: make(map[string]*sql.Stmt)} }

// stmt returns the prepared form of query, preparing it on first use (and
// the queries read transactions met, see inTx), or nil when it is not to be
// had (closed, the bound reached, a failure). It takes a connection of the
// pool to prepare: a caller must hold none (never from a transaction: with
// every connection held by a transaction waiting for another, none would
// ever come).
func (r *reader) stmt(ctx context.Context, query string) *sql.Stmt {
	r.mu.Lock()
	st, full := r.m[query], r.closed || len(r.m) >= maxReadStmts
	var todo []string
	for q := range r.pending {
		todo = append(todo, q)
	}
	clear(r.pending)
	r.mu.Unlock()
	for _, q := range todo {
		r.prepare(ctx, q)
	}
	if st != nil || full {
		return st
	}
	return r.prepare(ctx, query)
}

// prepare prepares query on the pool and keeps it (see stmt).
func (r *reader) prepare(ctx context.Context, query string) *sql.Stmt {
	r.mu.Lock()
	st, full := r.m[query], r.closed || len(r.m) >= maxReadStmts
	r.mu.Unlock()
	if st != nil || full {
		return st
	}
	st, err := r.db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch old := r.m[query]; {
	case r.closed:
		st.Close()
		return nil
	case old != nil: // prepared beside this one
		st.Close()
		return old
	}
	r.m[query] = st
	return st
}

// inTx returns query's prepared form for a transaction, or nil: a query
// not prepared yet runs unprepared in the transaction and is left for the
// pool's next read to prepare (a transaction holds a connection: it must
// not wait for another, see stmt).
func (r *reader) inTx(query string) *sql.Stmt {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.m[query]
	if st == nil && !r.closed && len(r.m)+len(r.pending) < maxReadStmts {
		if r.pending == nil {
			r.pending = make(map[string]bool)
		}
		r.pending[query] = true
	}
	return st
}

// QueryContext runs a read query on the pool.
func (r *reader) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := r.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return r.db.QueryContext(ctx, query, args...)
}

// QueryRowContext runs a read query of one row on the pool.
func (r *reader) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := r.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return r.db.QueryRowContext(ctx, query, args...)
}

// in returns a queryer for a read transaction of the pool's, running the
// same prepared statements on the transaction's connection.
func (r *reader) in(tx *sql.Tx) queryer { return readTx{tx, r} }

// close closes the prepared statements; later queries run unprepared
// (and fail on the closed pool).
func (r *reader) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, st := range r.m {
		st.Close()
	}
	r.m, r.pending, r.closed = nil, nil, true
}

type readTx struct {
	tx *sql.Tx
	r  *reader
}

func (t readTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.r.inTx(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

func (t readTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.r.inTx(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}
