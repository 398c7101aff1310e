package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"mafia/store"
)

// UnratedEnded lists the ended rated online tables not rated yet (see
// store.UnratedTables), oldest first. The query chooses the ended online
// tables not set aside, not in rated_games, whose data names "rated"; each
// one's data is then read here, as JSON, for "rated": true (data is the
// room's bytes, which need not be JSON that PostgreSQL would parse).
//
// The games rated are in rated_games, from the migration of ratings
// (00002); until it is applied no game is rated.
func (db *DB) UnratedEnded(ctx context.Context) ([]string, error) {
	var hasRatings bool
	if err := db.pool.QueryRow(ctx, `SELECT to_regclass('rated_games') IS NOT NULL`).Scan(&hasRatings); err != nil {
		return nil, fmt.Errorf("store/postgres: unrated tables: %w", err)
	}
	notRated := ""
	if hasRatings {
		notRated = `AND id NOT IN (SELECT game FROM rated_games)`
	}
	rows, err := db.pool.Query(ctx, `SELECT id, data FROM tables
		WHERE status = $1 AND kind = $2 AND position('"rated"'::bytea IN data) > 0
			AND id NOT IN (SELECT table_id FROM damaged) `+notRated+`
		ORDER BY created_ns, n`, string(store.StatusEnded), string(store.KindOnline))
	if err != nil {
		return nil, fmt.Errorf("store/postgres: unrated tables: %w", err)
	}
	type row struct {
		id   string
		data []byte
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		err := r.Scan(&x.id, &x.data)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("store/postgres: unrated tables: %w", err)
	}
	var ids []string
	for _, x := range all {
		var d map[string]json.RawMessage // its top level, names exactly
		if json.Unmarshal(x.data, &d) == nil && (bytes.Equal(d["rated"], []byte("true")) || bytes.Equal(d["rated"], []byte("1"))) {
			ids = append(ids, x.id)
		}
	}
	return ids, nil
}
