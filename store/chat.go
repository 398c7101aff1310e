package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	// Bot is what a server's bot's line means (its zero value for any
	// other line): the room renders it for each reader in the reader's
	// language, and Text is its sentence in the table's language, for a
	// reader that renders nothing.
	Bot BotLine
}

// BotLine is a server's bot's spoken line as what it means, not its words
// (bot.Line, by name): the room renders it with the message catalogs in
// each reader's language. Its zero value (Kind "") is no bot line.
type BotLine struct {
	Kind   string `json:"kind"`             // the line's kind ("checked", "suspect"; bot.LineKind's name)
	Seat   int    `json:"seat,omitempty"`   // the seat it names (0: none)
	Role   string `json:"role,omitempty"`   // a claim's card
	Result string `json:"result,omitempty"` // a report's answer
	Count  int    `json:"count,omitempty"`  // a Detective's claim: the nights so far
	Pick   int    `json:"pick,omitempty"`   // the phrasing it chose (modulo their number)
	// More are the further seats the kind names, after Seat (a reason's
	// other seat, a best move's second and third; 0: none).
	More [2]int `json:"-"`
	// Voice: the line says aloud a statement its speaker just made.
	Voice bool `json:"voice,omitempty"`
}

// MarshalJSON writes b with its More as a list of the seats it names
// ("more":[3,5]), left out when it names none.
func (b BotLine) MarshalJSON() ([]byte, error) {
	type plain BotLine // without this method
	out := struct {
		plain
		More []int `json:"more,omitempty"`
	}{plain: plain(b)}
	for i, s := range b.More {
		if s != 0 {
			out.More = b.More[:i+1]
		}
	}
	return json.Marshal(out)
}

// EncodeBotLine is b as a store keeps it: JSON, "" for no bot line.
func EncodeBotLine(b BotLine) string {
	if b.Kind == "" {
		return ""
	}
	out, _ := json.Marshal(b) // strings, ints and a bool: it cannot fail
	return string(out)
}

// DecodeBotLine reads what EncodeBotLine wrote ("" is no bot line).
func DecodeBotLine(s string) (BotLine, error) {
	if s == "" {
		return BotLine{}, nil
	}
	type plain BotLine
	var in struct {
		plain
		More []int `json:"more"`
	}
	if err := json.Unmarshal([]byte(s), &in); err != nil || in.Kind == "" || len(in.More) > 2 {
		return BotLine{}, fmt.Errorf("a bot line %q: %w", s, ErrDamaged)
	}
	b := BotLine(in.plain)
	copy(b.More[:], in.More)
	return b, nil
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
