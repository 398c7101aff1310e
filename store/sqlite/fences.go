package sqlite

import (
	"context"
	"fmt"

	"mafia/store"
)

var _ store.EventFences = (*DB)(nil)

// EventFences returns the fencing token each event of a table's log was
// written under, in log order (see store.EventFences): 0 for an event
// written without a fence. A table with no events gives an empty slice, a
// missing one store.ErrNotFound, a log with a gap store.ErrDamaged.
func (db *DB) EventFences(ctx context.Context, tableID string) ([]int64, error) {
	rows, err := db.rd.QueryContext(ctx, `SELECT seq, fence FROM events WHERE table_id = ? ORDER BY seq`, tableID)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: fences of %q: %w", tableID, asDamaged(err))
	}
	defer rows.Close()
	out := []int64{}
	for rows.Next() {
		var (
			seq   int
			token int64
		)
		if err := rows.Scan(&seq, &token); err != nil {
			return nil, fmt.Errorf("store/sqlite: fences of %q: %w", tableID, asDamaged(err))
		}
		if seq != len(out) {
			return nil, fmt.Errorf("store/sqlite: fences of %q: event %d missing: %w", tableID, len(out), store.ErrDamaged)
		}
		out = append(out, token)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store/sqlite: fences of %q: %w", tableID, asDamaged(err))
	}
	if len(out) == 0 {
		if err := tableExists(ctx, db.rd, tableID); err != nil {
			return nil, fmt.Errorf("store/sqlite: fences of %q: %w", tableID, asDamaged(err))
		}
	}
	return out, nil
}
