package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mafia/engine"
	"mafia/store"
	"mafia/store/internal/fence"
	"mafia/wire"
)

// maxAppend is the most events one append may hold (store.MaxAppend).
const maxAppend = store.MaxAppend

// AppendEvents appends events to a game's log; first is the index of evs[0]
// and must equal the log's current length, or store.ErrConflict. A table
// that does not exist is store.ErrNotFound. It returns once the events are
// committed. Appending no events does nothing.
//
// The length is read in the append's own transaction (append_events, in
// migrations/00001_core.sql), never remembered: several servers may append
// to one database, and two appends at the same place cannot both commit
// (the key (table_id, seq)); the one that loses is store.ErrConflict.
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

// appendEvents encodes the events here, in the caller's goroutine, and
// hands them, with the clock and the table's row if given, to the group
// commit (writer.go): all of one append are committed in one transaction,
// or none.
func (db *DB) appendEvents(ctx context.Context, tableID string, first int, evs []engine.Event, c *store.Clock, t *store.Table) error {
	if len(evs) == 0 {
		return nil
	}
	if err := store.CheckAppend(tableID, first, len(evs)); err != nil {
		return fmt.Errorf("store/postgres: %w", err)
	}
	kinds, jsons, players, ended, err := db.encode(ctx, tableID, first, evs)
	if err != nil {
		return fmt.Errorf("store/postgres: append to %q: %w", tableID, err)
	}
	r := &appendReq{table: tableID, first: first, kinds: kinds, jsons: jsons, clock: c, update: t}
	r.token, r.fenced = fence.Of(ctx, tableID)
	if !r.fenced && db.leasing.Load() {
		// Without a fence where leases are in use: append_step refuses it,
		// in the append's transaction, if the table has a lease (00009).
		r.token = unfencedLeasing
	}
	if db.alone {
		// Each append a transaction of its own, on the caller's goroutine
		// (the benchmarks compare it with the group commit).
		err = db.send([]*appendReq{r})
		db.noteHealth(err)
		if err == nil {
			err = r.Err
		}
	} else {
		err = db.submit(ctx, r)
	}
	if err != nil {
		return err
	}
	switch {
	case ended:
		// A game that has ended is not appended to again: forget it, so
		// memory stays bounded by the games in play.
		db.players.Delete(tableID)
	case players > 0:
		db.players.Store(tableID, players)
	}
	return nil
}

// encode gives each event's kind and wire's JSON of it (the log's events
// from first on); players is the game's player count when evs start the
// game (else 0), ended whether they end it.
func (db *DB) encode(ctx context.Context, tableID string, first int, evs []engine.Event) (kinds, jsons []string, players int, ended bool, err error) {
	kinds, jsons = make([]string, len(evs)), make([]string, len(evs))
	if len(evs) == 0 {
		return kinds, jsons, 0, false, nil
	}
	n, err := db.playersOf(ctx, tableID, first, evs)
	if err != nil {
		return nil, nil, 0, false, err
	}
	for i, e := range evs {
		if e.Kind == engine.EvGameStarted {
			n = int(e.Count)
			players = n
		}
		if e.Kind == engine.EvGameEnded {
			ended = true
		}
		data, err := wire.MarshalEvent(e, n)
		if err != nil {
			return nil, nil, 0, false, fmt.Errorf("event %d: %w", first+i, err)
		}
		jsons[i], kinds[i] = string(data), e.Kind.String()
	}
	return kinds, jsons, players, ended, nil
}

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
	err := db.pool.QueryRow(ctx, `SELECT json::text FROM events WHERE table_id = $1 AND seq = 0`, tableID).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return engine.MaxSeats, nil
	}
	if err != nil {
		return 0, asStoreError(err)
	}
	n := engine.MaxSeats
	if e, err := wire.UnmarshalEvent(data); err == nil && e.Kind == engine.EvGameStarted {
		n = int(e.Count)
	}
	db.players.Store(tableID, n)
	return n, nil
}

// RewriteEvents replaces a game's log from index from on with evs, in one
// transaction: the events from from on are deleted and evs inserted in
// their place (no evs: the log is cut at from). from beyond the log's
// length is store.ErrConflict; a missing table store.ErrNotFound. It takes
// at most 8000 events at once.
func (db *DB) RewriteEvents(ctx context.Context, tableID string, from int, evs []engine.Event) error {
	if from < 0 {
		return fmt.Errorf("store/postgres: rewrite %q from %d: %w", tableID, from, store.ErrConflict)
	}
	if len(evs) > maxAppend {
		return fmt.Errorf("store/postgres: rewrite %q: %d events at once, more than %d", tableID, len(evs), maxAppend)
	}
	if from == 0 {
		db.players.Delete(tableID) // the game's first event may change
	}
	kinds, jsons, _, _, err := db.encode(ctx, tableID, from, evs)
	if err != nil {
		return fmt.Errorf("store/postgres: rewrite %q: %w", tableID, err)
	}
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		if err := db.checkFence(ctx, tx, tableID); err != nil {
			return err
		}
		// The table's row, locked: two rewrites of one log wait for each
		// other instead of interleaving their deletes and inserts.
		var n int
		err := tx.QueryRow(ctx, `SELECT COALESCE((SELECT MAX(seq) + 1 FROM events WHERE table_id = $1), 0)
			FROM tables WHERE id = $1 FOR NO KEY UPDATE`, tableID).Scan(&n)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return err
		}
		if from > n {
			return fmt.Errorf("from %d, but the log has %d events: %w", from, n, store.ErrConflict)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM events WHERE table_id = $1 AND seq >= $2`, tableID, from); err != nil {
			return err
		}
		if len(evs) == 0 {
			return nil
		}
		// The rewritten events carry the fence's token (0 without one), as
		// appended ones do (store.EventFences).
		token, _ := fence.Of(ctx, tableID)
		var end int
		return tx.QueryRow(ctx, `SELECT append_events($1, $2, $3, $4, $5)`, tableID, from, kinds, jsons, token).Scan(&end)
	})
	if from == 0 {
		db.players.Delete(tableID)
	}
	if err != nil {
		return fmt.Errorf("store/postgres: rewrite %q: %w", tableID, asStoreError(err))
	}
	return nil
}

// Events returns a game's whole log in order, or store.ErrNotFound if the
// table does not exist. A log that cannot be read whole (an event that does
// not decode, a gap) is an error that is store.ErrDamaged.
func (db *DB) Events(ctx context.Context, tableID string) ([]engine.Event, error) {
	rows, err := db.pool.Query(ctx, `SELECT seq, json::text FROM events WHERE table_id = $1 ORDER BY seq`, tableID)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: events of %q: %w", tableID, asStoreError(err))
	}
	defer rows.Close()
	var (
		out  []engine.Event
		seq  int
		data []byte
	)
	for rows.Next() {
		if err := rows.Scan(&seq, &data); err != nil {
			return nil, fmt.Errorf("store/postgres: events of %q: %w", tableID, asStoreError(err))
		}
		if seq != len(out) {
			return nil, fmt.Errorf("store/postgres: events of %q: event %d missing: %w", tableID, len(out), store.ErrDamaged)
		}
		e, err := wire.UnmarshalEvent(data)
		if err != nil {
			return nil, fmt.Errorf("store/postgres: events of %q: event %d: %w: %w", tableID, seq, store.ErrDamaged, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/postgres: events of %q: %w", tableID, asStoreError(err))
	}
	if len(out) == 0 {
		if err := tableExists(ctx, db.pool, tableID); err != nil {
			return nil, fmt.Errorf("store/postgres: events of %q: %w", tableID, asStoreError(err))
		}
	}
	return out, nil
}
