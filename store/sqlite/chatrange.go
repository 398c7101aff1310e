package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"mafia/store"
)

// ChatRange returns the lines of a table's chat numbered from..to-1, in
// order (see store.ChatPages).
func (db *DB) ChatRange(ctx context.Context, tableID string, from, to int) ([]store.ChatLine, error) {
	rows, err := db.rd.QueryContext(ctx, `SELECT seq, channel, seat, name, text, at, log, round, phase, bot_line FROM chat
		WHERE table_id = ? AND seq >= ? AND seq < ? ORDER BY seq`, tableID, from, to)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: chat of %q: %w", tableID, asDamaged(err))
	}
	out, err := scanChat(rows)
	if err == nil && len(out) == 0 {
		err = tableExists(ctx, db.rd, tableID)
	}
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: chat of %q: %w", tableID, asDamaged(err))
	}
	return out, nil
}

// scanChat reads the chat lines of rows (seq, channel, seat, name, text,
// at, log, round, phase, bot_line) and closes them.
func scanChat(rows *sql.Rows) ([]store.ChatLine, error) {
	defer rows.Close()
	var out []store.ChatLine
	for rows.Next() {
		var l store.ChatLine
		var at int64
		var said string
		if err := rows.Scan(&l.Seq, &l.Channel, &l.Seat, &l.Name, &l.Text, &at, &l.Log, &l.Round, &l.Phase, &said); err != nil {
			return nil, err
		}
		l.At = time.UnixMilli(at).UTC()
		var err error
		if l.Bot, err = store.DecodeBotLine(said); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}
