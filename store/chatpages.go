package store

import "context"

// ChatPages is a Chats that reads a window of a table's chat, for the
// history pages a connection asks for (room/history.go): a page far back in
// a long chat then reads its own lines, not every line after it.
type ChatPages interface {
	Chats
	// ChatRange returns the lines of a table's chat numbered from..to-1
	// (Seq), in order: fewer where the chat is shorter. A table that does
	// not exist is ErrNotFound; a line that cannot be read is ErrDamaged.
	ChatRange(ctx context.Context, tableID string, from, to int) ([]ChatLine, error)
}
