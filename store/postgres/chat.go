package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"mafia/store"
)

// AppendChat appends a line to a table's chat (see store.Chats) and returns
// once it is committed. The line's Seq is the chat's length, read in the
// same transaction (append_chat, which takes one line at a time per
// table); past the table's cap (store.MaxChatLines) the line is refused
// with store.ErrChatFull and nothing is written.
func (db *DB) AppendChat(ctx context.Context, tableID string, line store.ChatLine) error {
	limit := db.chatCap
	if limit <= 0 {
		limit = store.MaxChatLines
	}
	var seq int
	const q = `SELECT append_chat($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`
	args := []any{tableID, limit, line.Channel, line.Seat, line.Name, line.Text, line.At.UnixMilli(),
		line.Log, line.Round, line.Phase, store.EncodeBotLine(line.Bot)}
	// Fenced: the check and the line in one transaction. retryTx runs it
	// again should the database be briefly away, and notes the write.
	err := db.retryTx(ctx, "chat", func(tx pgx.Tx) error {
		if err := db.checkFence(ctx, tx, tableID); err != nil {
			return err
		}
		return tx.QueryRow(ctx, q, args...).Scan(&seq)
	})
	err = asStoreError(err)
	if err != nil {
		return fmt.Errorf("store/postgres: append chat to %q: %w", tableID, err)
	}
	return nil
}

// Chat returns a table's chat in order (see store.Chats): its last lines
// only when last > 0.
func (db *DB) Chat(ctx context.Context, tableID string, last int) ([]store.ChatLine, error) {
	q := `SELECT seq, channel, seat, name, text, at, log, round, phase, bot_line FROM chat WHERE table_id = $1 ORDER BY seq`
	args := []any{tableID}
	if last > 0 {
		q = `SELECT * FROM (SELECT seq, channel, seat, name, text, at, log, round, phase, bot_line FROM chat
			WHERE table_id = $1 ORDER BY seq DESC LIMIT $2) c ORDER BY seq`
		args = append(args, last)
	}
	return db.chat(ctx, tableID, q, args...)
}

// ChatRange returns the lines of a table's chat numbered from..to-1, in
// order (see store.ChatPages).
func (db *DB) ChatRange(ctx context.Context, tableID string, from, to int) ([]store.ChatLine, error) {
	return db.chat(ctx, tableID, `SELECT seq, channel, seat, name, text, at, log, round, phase, bot_line FROM chat
		WHERE table_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq`, tableID, from, to)
}

// chat reads the lines that q chooses; none is store.ErrNotFound when the
// table does not exist.
func (db *DB) chat(ctx context.Context, tableID, q string, args ...any) ([]store.ChatLine, error) {
	rows, err := db.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store/postgres: chat of %q: %w", tableID, asStoreError(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.ChatLine, error) {
		var l store.ChatLine
		var at int64
		var said string
		err := r.Scan(&l.Seq, &l.Channel, &l.Seat, &l.Name, &l.Text, &at, &l.Log, &l.Round, &l.Phase, &said)
		l.At = time.UnixMilli(at).UTC()
		if err == nil {
			l.Bot, err = store.DecodeBotLine(said)
		}
		return l, err
	})
	if err == nil && len(out) == 0 {
		err = tableExists(ctx, db.pool, tableID)
	}
	if err != nil {
		return nil, fmt.Errorf("store/postgres: chat of %q: %w", tableID, asStoreError(err))
	}
	return out, nil
}
