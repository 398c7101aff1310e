package sqlite

import (
	"context"
	"errors"
	"fmt"

	"mafia/store"
)

var _ store.UnratedTables = (*DB)(nil)

// UnratedEnded lists the ended rated online tables not rated yet (see
// store.UnratedTables): one query, the rated ones found by their settings'
// "rated" in the table's data.
func (db *DB) UnratedEnded(ctx context.Context) ([]string, error) {
	rows, err := db.rd.QueryContext(ctx, `SELECT id FROM tables
		WHERE status = ? AND kind = ? AND json_valid(CAST(data AS TEXT))
			AND json_extract(CAST(data AS TEXT), '$.rated') = 1
			AND id NOT IN (SELECT game FROM rated_games)
			AND id NOT IN (SELECT table_id FROM damaged)
		ORDER BY created_at`, string(store.StatusEnded), string(store.KindOnline))
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: unrated tables: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store/sqlite: unrated tables: %w", err)
		}
		ids = append(ids, id)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, fmt.Errorf("store/sqlite: unrated tables: %w", err)
	}
	return ids, nil
}
