package sqlite

import (
	"context"
	"fmt"

	"mafia/store"
	"mafia/store/internal/fence"
)

// AppendChat appends a line to a table's chat (see store.Chats), in the
// writer's next group commit, and returns once it is committed. The line's
// Seq is the chat's length; past the table's cap (store.MaxChatLines) the
// line is refused with store.ErrChatFull and nothing is written.
func (db *DB) AppendChat(ctx context.Context, tableID string, line store.ChatLine) error {
	limit := db.chatCap
	if limit <= 0 {
		limit = store.MaxChatLines
	}
	token, fenced := fence.Of(ctx, tableID)
	err := db.inWriter(ctx, func(ctx context.Context, tx *wtx) error {
		if err := db.checkFence(ctx, tx, tableID, token, fenced); err != nil {
			return err
		}
		var exists bool
		var n int
		err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM tables WHERE id = ?1),
			COALESCE((SELECT MAX(seq) + 1 FROM chat WHERE table_id = ?1), 0)`, tableID).Scan(&exists, &n)
		switch {
		case err != nil:
			return asDamaged(err)
		case !exists:
			return store.ErrNotFound
		case n >= limit:
			return store.ErrChatFull
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO chat (table_id, seq, channel, seat, name, text, at, log, round, phase, bot_line)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			tableID, n, line.Channel, line.Seat, line.Name, line.Text, line.At.UnixMilli(), line.Log, line.Round, line.Phase,
			store.EncodeBotLine(line.Bot))
		return err
	})
	if err != nil {
		return fmt.Errorf("store/sqlite: append chat to %q: %w", tableID, err)
	}
	return nil
}

// Chat returns a table's chat in order (see store.Chats): its last lines
// only when last > 0.
func (db *DB) Chat(ctx context.Context, tableID string, last int) ([]store.ChatLine, error) {
	q := `SELECT seq, channel, seat, name, text, at, log, round, phase, bot_line FROM chat WHERE table_id = ? ORDER BY seq`
	args := []any{tableID}
	if last > 0 {
		q = `SELECT * FROM (SELECT seq, channel, seat, name, text, at, log, round, phase, bot_line FROM chat
			WHERE table_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`
		args = append(args, last)
	}
	rows, err := db.rd.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: chat of %q: %w", tableID, asDamaged(err))
	}
	out, err := scanChat(rows)
	if err != nil {
		return nil, fmt.Errorf("store/sqlite: chat of %q: %w", tableID, asDamaged(err))
	}
	if len(out) == 0 {
		if err := tableExists(ctx, db.rd, tableID); err != nil {
			return nil, fmt.Errorf("store/sqlite: chat of %q: %w", tableID, asDamaged(err))
		}
	}
	return out, nil
}
