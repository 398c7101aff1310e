package postgres

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"mafia/store"
)

// The SQLSTATEs the store's functions raise (migrations/00001_core.sql), and
// PostgreSQL's own that it tells apart.
const (
	codeNotFound   = "MA404" // append_events, append_chat: no such table
	codeConflict   = "MA409" // append_events: first is not the log's length
	codeChatFull   = "MA413" // append_chat: the chat holds its cap
	codeUnique     = "23505" // unique_violation
	codeForeignKey = "23503" // foreign_key_violation
)

// sqlState returns the SQLSTATE of a PostgreSQL error, or "".
func sqlState(err error) string {
	var e *pgconn.PgError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// asStoreError gives the errors of the store's functions and keys the
// store's meaning: a missing table is store.ErrNotFound, an append that
// does not continue the log (or collides with one that got there first)
// store.ErrConflict, a full chat store.ErrChatFull, and data PostgreSQL
// finds damaged (class XX: data_corrupted, index_corrupted)
// store.ErrDamaged. Any other error is returned as it is.
func asStoreError(err error) error {
	switch c := sqlState(err); {
	case err == nil:
		return nil
	case c == codeNotFound || c == codeForeignKey:
		return fmt.Errorf("%w (%w)", store.ErrNotFound, err)
	case c == codeConflict || c == codeUnique:
		return fmt.Errorf("%w (%w)", store.ErrConflict, err)
	case c == codeChatFull:
		return fmt.Errorf("%w (%w)", store.ErrChatFull, err)
	case c == "XX001" || c == "XX002":
		return fmt.Errorf("%w: %w", store.ErrDamaged, err)
	}
	return err
}
