package store

import (
	"context"
	"errors"
	"time"
)

// MaxChatLines is the most chat lines a store keeps for one table: a line
// past it is refused with ErrChatFull, so that what is kept is the whole
// conversation from its start (a game's record shows every line) and one
// table's talk cannot fill the disk. The table's chat is rate-limited too;
// a game of eleven talks a few hundred lines.
const MaxChatLines = 5000

// ErrChatFull is returned for a chat line past a table's MaxChatLines.
var ErrChatFull = errors.New("store: chat full")

// ChatLine is one line of a table's chat, as it was said, and where in the
// game.
type ChatLine struct {
	Seq     int    // its place in the table's chat, from 0 (set by the store)
	Channel string // town, mafia or dead
	Seat    int    // the sender's seat (0: nobody's, as for a spectator)
	Name    string // the sender's name then
	Text    string
	At      time.Time // when it was said (kept to the millisecond)
	// Log is the length of the game's log when it was said: the line
	// comes after the log's events 0..Log-1 (0 before the start).
	Log   int
	Round int    // the game's round then (0 before the start)
	Phase string // the game's phase then (the room says "lobby" before the start)
}

// Chats is a Store that keeps each table's chat with its game.
type Chats interface {
	// AppendChat appends a line to a table's chat and returns once it is
	// durable (like AppendEvents, with the same group commit). It sets
	// line.Seq itself. A table that does not exist is ErrNotFound; a line
	// past MaxChatLines is ErrChatFull and is not kept.
	AppendChat(ctx context.Context, tableID string, line ChatLine) error
	// Chat returns a table's chat in the order it was appended: the last
	// lines only when last > 0, else all of them. A table that does not
	// exist is ErrNotFound; a line that cannot be read is ErrDamaged.
	Chat(ctx context.Context, tableID string, last int) ([]ChatLine, error)
}
