package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
)

// The writer's batches of appends alone, which is what the rooms' commands
// make, run on the writing connection's driver connection directly
// (database/sql's Conn.Raw): BEGIN IMMEDIATE, COMMIT and each statement
// they run are prepared on that connection once and kept from batch to
// batch. A database/sql transaction costs, per batch, a context and a
// goroutine that watches it, each kept statement bound to the transaction
// anew, and each argument converted and checked through its layers; the
// driver's statements cost none of it. Batches with other writes (exec)
// run in a database/sql transaction (wtx), as every write outside the
// writer does. Both write through appendConn, so an append is checked and
// written by the same code on either.

// appendConn is what a batch's appends are written through: a
// database/sql transaction (wtx) or the driver's connection (rawTx).
type appendConn interface {
	// exec runs a statement that returns no rows and returns how many
	// rows it changed.
	exec(ctx context.Context, query string, args ...any) (int64, error)
	// execOnce is exec for a statement not to keep prepared (a long
	// INSERT, of more rows than appends carry).
	execOnce(ctx context.Context, query string, args ...any) (int64, error)
	// queryInts runs a query that returns at most one row of integers (a
	// NULL reads as 0) into dest; found is false for no row.
	queryInts(ctx context.Context, query string, args []any, dest ...*int64) (found bool, err error)
}

// batchTx is a batch's transaction: its appendConn, and its end.
type batchTx interface {
	appendConn
	Commit() error
	Rollback() error
}

// exec is appendConn's exec on a database/sql transaction.
func (tx *wtx) exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// execOnce is appendConn's execOnce on a database/sql transaction.
func (tx *wtx) execOnce(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := tx.Tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// queryInts is appendConn's queryInts on a database/sql transaction.
func (tx *wtx) queryInts(ctx context.Context, query string, args []any, dest ...*int64) (bool, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return false, errors.Join(rows.Err(), rows.Close())
	}
	vals := make([]any, len(dest))
	for i := range vals {
		vals[i] = new(any)
	}
	if err := rows.Scan(vals...); err != nil {
		return false, err
	}
	for i, v := range vals {
		n, _ := (*v.(*any)).(int64)
		*dest[i] = n
	}
	return true, rows.Close()
}

// maxRawStmts bounds the statements kept on the driver's connection (the
// few the appends run, and one INSERT per row count up to maxCachedRows).
const maxRawStmts = 64

// rawStmts are the statements kept prepared on the writing connection's
// driver connection. Only the writer goroutine uses them.
type rawStmts struct {
	conn  driver.Conn // the connection they were prepared on
	stmts map[string]driver.Stmt
}

// stmt returns query prepared on conn; kept tells whether it stays
// prepared (else the caller closes it after use): it does unless once is
// set, or maxRawStmts are kept already.
func (c *rawStmts) stmt(ctx context.Context, conn driver.Conn, query string, once bool) (st driver.Stmt, kept bool, err error) {
	if c.conn != conn {
		// A new connection (database/sql closed the last one): the old
		// statements ended with it.
		c.conn, c.stmts = conn, make(map[string]driver.Stmt)
	}
	if st := c.stmts[query]; st != nil {
		return st, true, nil
	}
	p, ok := conn.(driver.ConnPrepareContext)
	if !ok {
		return nil, false, errors.New("store/sqlite: the driver cannot prepare with a context")
	}
	if st, err = p.PrepareContext(ctx, query); err != nil {
		return nil, false, err
	}
	if once || len(c.stmts) >= maxRawStmts {
		return st, false, nil
	}
	c.stmts[query] = st
	return st, true, nil
}

// close closes the statements kept on conn.
func (c *rawStmts) close(conn driver.Conn) {
	if c.conn == conn {
		for _, st := range c.stmts {
			st.Close()
		}
	}
	c.conn, c.stmts = nil, nil
}

// rawTx is a batch's transaction on the driver's connection.
type rawTx struct {
	conn  driver.Conn
	stmts *rawStmts
	args  []driver.NamedValue // scratch for each statement's arguments
	vals  []driver.Value      // scratch for a row
}

// beginRaw begins a write transaction (BEGIN IMMEDIATE: the write lock at
// once) on conn.
func (db *DB) beginRaw(ctx context.Context, conn driver.Conn) (*rawTx, error) {
	tx := &rawTx{conn: conn, stmts: &db.raw}
	if _, err := tx.exec(ctx, "BEGIN IMMEDIATE"); err != nil {
		return nil, err
	}
	return tx, nil
}

// Commit commits the transaction; if the commit fails, the transaction is
// rolled back (SQLite may leave it open: a COMMIT that found the file
// busy), so that the connection is left outside any transaction.
func (tx *rawTx) Commit() error {
	_, err := tx.exec(context.Background(), "COMMIT")
	if err != nil {
		tx.Rollback()
	}
	return err
}

// Rollback rolls the transaction back. SQLite may have rolled it back
// already (some errors do): that ROLLBACK's error is no news.
func (tx *rawTx) Rollback() error {
	_, err := tx.exec(context.Background(), "ROLLBACK")
	return err
}

// bind converts args to the driver's values, in tx's scratch.
func (tx *rawTx) bind(args []any) ([]driver.NamedValue, error) {
	tx.args = tx.args[:0]
	for i, a := range args {
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return nil, err
		}
		tx.args = append(tx.args, driver.NamedValue{Ordinal: i + 1, Value: v})
	}
	return tx.args, nil
}

// exec is appendConn's exec on the driver's connection.
func (tx *rawTx) exec(ctx context.Context, query string, args ...any) (int64, error) {
	return tx.run(ctx, query, false, args)
}

// execOnce is appendConn's execOnce on the driver's connection.
func (tx *rawTx) execOnce(ctx context.Context, query string, args ...any) (int64, error) {
	return tx.run(ctx, query, true, args)
}

// run is exec and execOnce.
func (tx *rawTx) run(ctx context.Context, query string, once bool, args []any) (int64, error) {
	st, kept, err := tx.stmts.stmt(ctx, tx.conn, query, once)
	if err != nil {
		return 0, err
	}
	if !kept {
		defer st.Close()
	}
	nv, err := tx.bind(args)
	if err != nil {
		return 0, err
	}
	res, err := st.(driver.StmtExecContext).ExecContext(ctx, nv)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// queryInts is appendConn's queryInts on the driver's connection.
func (tx *rawTx) queryInts(ctx context.Context, query string, args []any, dest ...*int64) (bool, error) {
	st, kept, err := tx.stmts.stmt(ctx, tx.conn, query, false)
	if err != nil {
		return false, err
	}
	if !kept {
		defer st.Close()
	}
	nv, err := tx.bind(args)
	if err != nil {
		return false, err
	}
	rows, err := st.(driver.StmtQueryContext).QueryContext(ctx, nv)
	if err != nil {
		return false, err
	}
	if n := len(rows.Columns()); cap(tx.vals) < n {
		tx.vals = make([]driver.Value, n)
	} else {
		tx.vals = tx.vals[:n]
	}
	err = rows.Next(tx.vals)
	found := err == nil
	if errors.Is(err, io.EOF) {
		err = nil
	}
	if found {
		for i := range dest {
			n, _ := tx.vals[i].(int64)
			*dest[i] = n
		}
	}
	return found, errors.Join(err, rows.Close())
}

// closeRaw closes the statements kept on the driver's connection (at
// Close, once the writer has stopped).
func (db *DB) closeRaw() {
	c, err := db.w.Conn(context.Background())
	if err != nil {
		return
	}
	defer c.Close()
	_ = c.Raw(func(dc any) error {
		if conn, ok := dc.(driver.Conn); ok {
			db.raw.close(conn)
		}
		return nil
	})
}
