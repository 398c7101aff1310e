package sqlite

import (
	"context"
	"fmt"

	"mafia/engine"
	"mafia/store"
	"mafia/store/internal/fence"
)

// RewriteEvents replaces a game's log from index from on with evs, in one
// transaction of the writer: the events from from on are deleted and evs
// inserted in their place (no evs: the log is cut at from). from beyond the
// log's length is store.ErrConflict; a missing table store.ErrNotFound. It
// takes at most 8000 events at once and returns once committed. It must not
// run beside appends to the same table (the writer's remembered length of
// the log is set by the rewrite).
func (db *DB) RewriteEvents(ctx context.Context, tableID string, from int, evs []engine.Event) error {
	if from < 0 {
		return fmt.Errorf("store/sqlite: rewrite %q from %d: %w", tableID, from, store.ErrConflict)
	}
	if len(evs) > maxAppend {
		return fmt.Errorf("store/sqlite: rewrite %q: %d events at once, more than %d", tableID, len(evs), maxAppend)
	}
	r := &appendReq{table: tableID, first: from}
	// The rewritten events carry the fence's token, as appended ones do.
	r.token, r.fenced = fence.Of(ctx, tableID)
	if err := db.encode(ctx, r, evs, "rewrite"); err != nil {
		return err
	}
	// A rewrite from the start may begin another game, of another player
	// count: forget the one remembered, once the rewrite is done (appends
	// after such a rewrite were encoded with the old count, which cut
	// their per-seat lists short: the contract suite's
	// RewriteEventsCorrectsALog found it).
	if from == 0 {
		defer db.players.Delete(tableID)
	}
	return db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := db.checkFence(ctx, tx, tableID, r.token, r.fenced); err != nil {
			return err
		}
		n, err := logLength(ctx, tx, tableID)
		if err != nil {
			return err
		}
		if from > n {
			return fmt.Errorf("store/sqlite: rewrite %q from %d, but the log has %d events: %w", tableID, from, n, store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM events WHERE table_id = ? AND seq >= ?`, tableID, from); err != nil {
			return err
		}
		if len(r.jsons) > 0 {
			ins := inserter{tx: tx}
			if err := ins.insert(ctx, r); err != nil {
				return err
			}
		}
		// The writer's length of this log is unknown until the commit: read
		// it again at the next append (a rewrite that ended the game or
		// reopened it changes what an append may expect).
		delete(db.seq, tableID)
		return nil
	})
}
