package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"mafia/engine"
	"mafia/store"
	"mafia/store/internal/fence"
	"mafia/wire"
)

// maxBatch bounds how many appends one group commit takes.
const maxBatch = 2048

// gather is how long the writer may hold a small batch for more
// (store.Gather). At a server's load the writer is idle when most appends
// arrive, so each commit carried 1.0 to 1.5 of them, and the transaction
// (BEGIN IMMEDIATE, COMMIT with its page cache's sweep and the WAL's
// frames) was more than a third of an append's CPU. It holds a batch only
// while appends arrive fast enough to bring another within Wait (about
// 500 a second); a room's command then waits up to Wait more (its goal
// is a p99 of 20 ms). In BenchmarkCommands (1,100 appends a second) a
// commit carries 3.4 to 4.0 and an append takes a third less CPU
// (docs/performance.md).
var gather = store.Gather{Wait: 2 * time.Millisecond, Until: 16}

// appendReq is one AppendEvents call, or another write (exec), on its way
// through the writer.
type appendReq struct {
	// exec, if set, is a write other than an append, run within the batch's
	// transaction; an error that is store.ErrNotFound or store.ErrConflict
	// (or store.ErrChatFull) is its own answer, any other fails the batch.
	exec func(ctx context.Context, tx *wtx) error

	table   string
	first   int
	kinds   []string
	jsons   []string     // as TEXT, for the sqlite3 CLI
	clock   *store.Clock // if set, the game's clock, saved with the events
	update  *store.Table // if set, the table's row, saved with the events
	players int          // the game's player count, to remember once committed (0: unknown)
	ended   bool         // the batch ends the game: forget its length once committed
	fenced  bool         // made only while the table's lease carries token (store.Fenced)
	token   int64        // the fence's token

	store.Request // its place in the group commit, and its answer (Err)
}

// AppendEvents appends events to a game's log; first is the index of evs[0]
// and must equal the log's current length, or store.ErrConflict. A table
// that does not exist is store.ErrNotFound. It returns once the events are
// committed, together with whatever other appends were pending. It takes at
// most 8000 events at once.
//
// If ctx ends before the writer has taken the append, it returns ctx.Err()
// and nothing was written; once taken, the append is committed (or fails)
// and its own answer is returned. Appending no events does nothing.
func (db *DB) AppendEvents(ctx context.Context, tableID string, first int, evs []engine.Event) error {
	return db.appendEvents(ctx, tableID, first, evs, nil, nil)
}

// AppendEventsClock appends events as AppendEvents does and records the
// game's clock c (as SaveClock does) in the same transaction: both are
// committed, or neither. Appending no events does nothing, not even the
// clock.
func (db *DB) AppendEventsClock(ctx context.Context, tableID string, first int, evs []engine.Event, c store.Clock) error {
	return db.appendEvents(ctx, tableID, first, evs, &c, nil)
}

// AppendEventsTable appends events as AppendEvents does and saves the table
// t as UpdateTable does (its UpdatedAt now if zero), and the clock c if it
// is not nil, in the same transaction: all are committed, or none.
// Appending no events does nothing, not even the table.
func (db *DB) AppendEventsTable(ctx context.Context, t store.Table, first int, evs []engine.Event, c *store.Clock) error {
	if t.UpdatedAt.IsZero() {
		t.UpdatedAt = time.Now()
	}
	return db.appendEvents(ctx, t.ID, first, evs, c, &t)
}

func (db *DB) appendEvents(ctx context.Context, tableID string, first int, evs []engine.Event, c *store.Clock, t *store.Table) error {
	if len(evs) == 0 {
		return nil
	}
	if err := store.CheckAppend(tableID, first, len(evs)); err != nil {
		return fmt.Errorf("store/sqlite: %w", err)
	}
	if db.wr.Closed() {
		return ErrClosed
	}
	r := &appendReq{table: tableID, first: first, clock: c, update: t}
	r.token, r.fenced = fence.Of(ctx, tableID)
	// Encode here, in the caller's goroutine, so that the writer only writes.
	if err := db.encode(ctx, r, evs, "append to"); err != nil {
		return err
	}
	return db.submit(ctx, r)
}

// encode fills r's kinds and JSON from evs, the log's events from r.first
// on, and notes whether they start or end the game. what names the
// operation in errors.
func (db *DB) encode(ctx context.Context, r *appendReq, evs []engine.Event, what string) error {
	r.kinds, r.jsons = make([]string, len(evs)), make([]string, len(evs))
	if len(evs) == 0 {
		return nil
	}
	players, err := db.playersOf(ctx, r.table, r.first, evs)
	if err != nil {
		return err
	}
	for i, e := range evs {
		if e.Kind == engine.EvGameStarted {
			players = int(e.Count)
			r.players = players
		}
		if e.Kind == engine.EvGameEnded {
			r.ended = true
		}
		data, err := wire.MarshalEvent(e, players)
		if err != nil {
			return fmt.Errorf("store/sqlite: %s %q: event %d: %w", what, r.table, r.first+i, err)
		}
		r.jsons[i] = string(data)
		r.kinds[i] = e.Kind.String()
	}
	return nil
}

// inWriter runs f in the writer goroutine, within the transaction of the
// next group commit, and returns once that has committed (see exec). Like
// an append, it does nothing if ctx ends before the writer takes it.
func (db *DB) inWriter(ctx context.Context, f func(ctx context.Context, tx *wtx) error) error {
	return db.submit(ctx, &appendReq{exec: f})
}

// submit hands a request to the writer and waits for its answer
// (store.Committer.Submit).
func (db *DB) submit(ctx context.Context, r *appendReq) error { return db.wr.Submit(ctx, r) }

// playersOf returns the player count that package wire needs to encode a
// game's events: from the batch itself if it starts the game, else as
// remembered, else from the log's first event. For a log that does not
// begin with GameStarted it is engine.MaxSeats, which encodes exactly too.
func (db *DB) playersOf(ctx context.Context, tableID string, first int, evs []engine.Event) (int, error) {
	if first == 0 && evs[0].Kind == engine.EvGameStarted {
		return int(evs[0].Count), nil
	}
	if n, ok := db.players.Load(tableID); ok {
		return n.(int), nil
	}
	var data []byte
	err := db.rd.QueryRowContext(ctx, `SELECT json FROM events WHERE table_id = ? AND seq = 0`, tableID).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return engine.MaxSeats, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store/sqlite: append to %q: %w", tableID, err)
	}
	n := engine.MaxSeats
	if e, err := wire.UnmarshalEvent(data); err == nil && e.Kind == engine.EvGameStarted {
		n = int(e.Count)
	}
	db.players.Store(tableID, n)
	return n, nil
}

// commit writes one batch of appends in one transaction, and answers each.
// Each append is checked against its log's length and written by one INSERT
// statement: a constraint that fails aborts that statement alone (SQLite's
// ABORT undoes the statement and keeps the transaction), so one refused
// append leaves the others in the batch alone. Any other failure, and a
// failed commit, fail the whole batch; but when what failed it was a
// damaged page of the file (SQLITE_CORRUPT), which one member's rows
// touch, each member is tried again in a transaction of its own, so that
// the damage fails that member alone.
//
// live are the requests the writer took (store.Committer lets their
// callers go once commit has answered each).
func (db *DB) commit(live []*appendReq) {
	err := db.commitLive(live)
	if err == nil || len(live) == 1 || !errors.Is(asDamaged(err), store.ErrDamaged) {
		db.noteWrite(err)
		return
	}
	committed := false
	for _, r := range live {
		r.Err = nil
		committed = db.commitLive([]*appendReq{r}) == nil || committed
	}
	if committed {
		// The store writes: one member's damage is its own (refused as
		// damaged), not a store that cannot write.
		db.noteWrite(nil)
	} else {
		db.noteWrite(err)
	}
}

// commitLive writes appends the writer has taken in one transaction and
// sets each one's answer; it returns what failed the transaction, if
// anything did. A batch of appends alone runs on the driver's connection
// directly (raw.go), one with other writes in a database/sql transaction.
func (db *DB) commitLive(live []*appendReq) error {
	fail := func(err error) {
		err = fmt.Errorf("store/sqlite: append: %w", asDamaged(err))
		for _, r := range live {
			if r.Err == nil {
				r.Err = err
			}
			delete(db.seq, r.table) // unsure now: read it again next time
		}
	}
	ctx := context.Background()
	began := time.Now()
	var err error
	if slices.ContainsFunc(live, func(r *appendReq) bool { return r.exec != nil }) {
		err = db.commitTx(ctx, live, fail)
	} else {
		err = db.commitRaw(ctx, live, fail)
	}
	if err != nil {
		return err
	}
	db.batches.Add(1)
	db.writes.Add(int64(len(live)))
	db.commitNano.Add(int64(time.Since(began)))
	for _, r := range live {
		if r.Err != nil {
			continue
		}
		if r.ended {
			// A game that has ended is not appended to again: forget it, so
			// memory stays bounded by the games in play.
			delete(db.seq, r.table)
			db.players.Delete(r.table)
		} else if r.players > 0 {
			db.players.Store(r.table, r.players)
		}
	}
	return nil
}

// commitTx writes live in a database/sql transaction on the writing
// connection (see commitLive).
func (db *DB) commitTx(ctx context.Context, live []*appendReq, fail func(error)) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		fail(err)
		return err
	}
	defer db.endWrite(tx)
	return db.writeBatch(ctx, tx, tx, live, fail)
}

// commitRaw writes live, appends alone, in a transaction on the writing
// connection's driver connection (see raw.go).
func (db *DB) commitRaw(ctx context.Context, live []*appendReq, fail func(error)) error {
	c, err := db.w.Conn(ctx)
	if err != nil {
		fail(err)
		return err
	}
	defer c.Close()
	var werr error
	err = c.Raw(func(dc any) error {
		conn, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("store/sqlite: the driver's connection is a %T", dc)
		}
		tx, err := db.beginRaw(ctx, conn)
		if err != nil {
			return err
		}
		werr = db.writeBatch(ctx, tx, nil, live, fail)
		return nil
	})
	if err != nil {
		fail(err)
		return err
	}
	return werr
}

// writeBatch writes live within tx, a transaction just begun (w is the
// same transaction as a wtx, for the writes other than appends; nil when
// there are none), commits it and sets each one's answer; it returns what
// failed the transaction, if anything did, having rolled it back and
// failed (fail) every member not already refused.
func (db *DB) writeBatch(ctx context.Context, tx batchTx, w *wtx, live []*appendReq, fail func(error)) error {
	abort := func(err error) error {
		tx.Rollback()
		fail(err)
		return err
	}
	ins := inserter{tx: tx}
	next := make(map[string]int, len(live)) // each log's length within this transaction
	for _, r := range live {
		if r.exec != nil {
			err := r.exec(ctx, w)
			if err != nil && !errors.Is(err, store.ErrNotFound) && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrChatFull) {
				return abort(err)
			}
			r.Err = err
			continue
		}
		if r.Err = db.checkFence(ctx, tx, r.table, r.token, r.fenced); r.Err != nil {
			continue // refused alone: the others of the batch go on
		}
		n, ok := next[r.table]
		if !ok {
			if n, ok = db.seq[r.table]; !ok {
				if n, r.Err = logLength(ctx, tx, r.table); r.Err != nil {
					continue
				}
			}
			next[r.table] = n
		}
		if r.first != n {
			r.Err = fmt.Errorf("store/sqlite: append to %q at %d, but the log has %d events: %w",
				r.table, r.first, n, store.ErrConflict)
			continue
		}
		err := ins.insert(ctx, r)
		if err == nil && r.clock != nil {
			// The events are in the transaction: a clock that cannot follow
			// them fails the batch, so that both or neither are committed.
			if err := saveClock(ctx, tx, r.table, *r.clock); err != nil {
				return abort(err)
			}
		}
		if err == nil && r.update != nil {
			// The same for the table's row (its status).
			if err := updateTable(ctx, tx, *r.update); err != nil {
				return abort(err)
			}
		}
		switch {
		case err == nil:
			next[r.table] = n + len(r.jsons)
		case isPrimaryKeyViolation(err) || isForeignKeyViolation(err):
			// The file does not hold what we remembered: someone else wrote
			// it. Refuse this append and read the length again next time.
			r.Err = fmt.Errorf("store/sqlite: append to %q at %d: %w (%w)", r.table, r.first, store.ErrConflict, err)
			delete(next, r.table)
			delete(db.seq, r.table)
		default:
			return abort(err)
		}
	}
	if err := tx.Commit(); err != nil {
		fail(err)
		return err
	}
	for table, n := range next {
		db.seq[table] = n
	}
	return nil
}

// logLength reads a log's length, or store.ErrNotFound for a missing table.
func logLength(ctx context.Context, tx appendConn, table string) (int, error) {
	var exists, n int64
	_, err := tx.queryInts(ctx, `SELECT EXISTS (SELECT 1 FROM tables WHERE id = ?1),
		COALESCE((SELECT MAX(seq) + 1 FROM events WHERE table_id = ?1), 0)`, []any{table}, &exists, &n)
	if err != nil {
		return 0, fmt.Errorf("store/sqlite: append to %q: %w", table, asDamaged(err))
	}
	if exists == 0 {
		return 0, fmt.Errorf("store/sqlite: append to %q: %w", table, store.ErrNotFound)
	}
	return int(n), nil
}

// maxAppend is the most events one append may hold: one INSERT binds four
// parameters per event and one for all (the fence's token), and SQLite
// allows 32766 parameters (store.MaxAppend, which CheckAppend enforces).
const maxAppend = store.MaxAppend

// insertQueries are the INSERTs of 1 to maxCachedRows events, made once.
var insertQueries [maxCachedRows + 1]string

func init() {
	for n := 1; n <= maxCachedRows; n++ {
		insertQueries[n] = insertQuery(n)
	}
}

// insertQuery is the INSERT of n events. ?1 is the token, in every row;
// each bare ? is the next number after the largest so far, so each row's
// table, seq, kind and JSON follow it in order. (The driver reads a
// numbered parameter's name to bind it, so only the token has one.)
func insertQuery(n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO events (fence, table_id, seq, kind, json) VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?1,?,?,?,?)")
	}
	return b.String()
}

// inserter writes appends within one transaction, each by one INSERT of as
// many rows as it has events. The INSERTs of up to maxCachedRows rows are
// kept prepared by the transaction's connection (stmtCache, rawStmts).
// Each row carries the fencing token the append was made under (r.token,
// 0 without a fence: store.EventFences).
type inserter struct {
	tx   appendConn
	args []any
}

func (ins *inserter) insert(ctx context.Context, r *appendReq) error {
	n := len(r.jsons)
	token := int64(0)
	if r.fenced {
		token = r.token
	}
	ins.args = append(ins.args[:0], token)
	for i := range n {
		ins.args = append(ins.args, r.table, r.first+i, r.kinds[i], r.jsons[i])
	}
	var err error
	if n <= maxCachedRows {
		_, err = ins.tx.exec(ctx, insertQueries[n], ins.args...)
	} else {
		_, err = ins.tx.execOnce(ctx, insertQuery(n), ins.args...)
	}
	return err
}

// Events returns a game's whole log in order, or store.ErrNotFound if the
// table does not exist. A log that cannot be read whole (an event that does
// not decode, a gap, a damaged page) is an error that is store.ErrDamaged.
func (db *DB) Events(ctx context.Context, tableID string) ([]engine.Event, error) {
	rows, err := db.rd.QueryContext(ctx, `SELECT seq, json FROM events WHERE table_id = ? ORDER BY seq`, tableID)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: events of %q: %w", tableID, asDamaged(err))
	}
	defer rows.Close()
	var (
		out  []engine.Event
		seq  int
		data []byte
	)
	for rows.Next() {
		if err := rows.Scan(&seq, &data); err != nil {
			return nil, fmt.Errorf("store/sqlite: events of %q: %w", tableID, asDamaged(err))
		}
		if seq != len(out) {
			return nil, fmt.Errorf("store/sqlite: events of %q: event %d missing: %w", tableID, len(out), store.ErrDamaged)
		}
		e, err := wire.UnmarshalEvent(data)
		if err != nil {
			return nil, fmt.Errorf("store/sqlite: events of %q: event %d: %w: %w", tableID, seq, store.ErrDamaged, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/sqlite: events of %q: %w", tableID, asDamaged(err))
	}
	if len(out) == 0 {
		if err := tableExists(ctx, db.rd, tableID); err != nil {
			return nil, fmt.Errorf("store/sqlite: events of %q: %w", tableID, asDamaged(err))
		}
	}
	return out, nil
}
