package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// maxCachedRows bounds the multi-row INSERTs of events whose prepared form
// is kept: one statement per row count, and appends are small.
const maxCachedRows = 32

// stmtCache keeps the writing connection's statements prepared: SQLite takes
// about as long to parse a small statement as to run it. A statement a
// transaction had to parse is prepared on the writing connection just
// before the next write transaction begins (when the connection is free),
// and from then on each transaction runs the prepared form.
type stmtCache struct {
	mu      sync.Mutex
	m       map[string]*sql.Stmt
	pending map[string]bool // parsed by a transaction, to prepare
}

func (c *stmtCache) get(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[query]
}

// missed records queries a transaction had to parse.
func (c *stmtCache) missed(queries []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, q := range queries {
		if c.m[q] == nil {
			if c.pending == nil {
				c.pending = make(map[string]bool)
			}
			c.pending[q] = true
		}
	}
}

// preparePending prepares the pending queries on db (the writing pool,
// outside any transaction). A failure only leaves a query unprepared.
func (c *stmtCache) preparePending(ctx context.Context, db *sql.DB) {
	c.mu.Lock()
	var todo []string
	for q := range c.pending {
		todo = append(todo, q)
	}
	clear(c.pending)
	c.mu.Unlock()
	for _, q := range todo {
		st, err := db.PrepareContext(ctx, q)
		if err != nil {
			continue
		}
		c.mu.Lock()
		if c.m == nil {
			c.m = make(map[string]*sql.Stmt)
		}
		if c.m[q] == nil {
			c.m[q], st = st, nil
		}
		c.mu.Unlock()
		if st != nil {
			st.Close()
		}
	}
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m, c.pending = nil, nil
}

// wtx is a write transaction that runs cached statements in their prepared
// form, and remembers the ones it had to parse (missed).
type wtx struct {
	*sql.Tx
	cache  *stmtCache
	missed []string
}

func (tx *wtx) stmt(ctx context.Context, query string) *sql.Stmt {
	if st := tx.cache.get(query); st != nil {
		return tx.Tx.StmtContext(ctx, st)
	}
	tx.missed = append(tx.missed, query)
	return nil
}

// ExecContext is sql.Tx.ExecContext.
func (tx *wtx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := tx.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return tx.Tx.ExecContext(ctx, query, args...)
}

// QueryContext is sql.Tx.QueryContext.
func (tx *wtx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := tx.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return tx.Tx.QueryContext(ctx, query, args...)
}

// QueryRowContext is sql.Tx.QueryRowContext.
func (tx *wtx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := tx.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return tx.Tx.QueryRowContext(ctx, query, args...)
}

// PrepareContext is sql.Tx.PrepareContext: the statement is valid until the
// transaction ends.
func (tx *wtx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	if st := tx.stmt(ctx, query); st != nil {
		return st, nil
	}
	return tx.Tx.PrepareContext(ctx, query)
}

// beginWrite begins a write transaction on the writing connection, first
// preparing what earlier transactions had to parse.
func (db *DB) beginWrite(ctx context.Context) (*wtx, error) {
	db.stmts.preparePending(ctx, db.w)
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &wtx{Tx: tx, cache: &db.stmts}, nil
}

// endWrite records what a finished transaction had to parse.
func (db *DB) endWrite(tx *wtx) {
	if len(tx.missed) > 0 {
		db.stmts.missed(tx.missed)
	}
}
