// Package store is the project's memory: tables, their seats, and each
// game's append-only event log, behind one interface with implementations in
// subpackages named for what they wrap (store/sqlite).
//
// It owns persistence only. It must not decide rules (the engine does) or
// time steps (the room does); it never filters secrets, so nothing read from
// it goes to a player without passing through the engine's views.
package store

import (
	"context"
	"errors"
	"time"

	"mafia/engine"
)

// ErrNotFound is returned for a table that does not exist.
var ErrNotFound = errors.New("store: not found")

// ErrConflict is returned when an append does not continue the log exactly
// (another writer got there first, or events were lost).
var ErrConflict = errors.New("store: conflict")

// Status is where a table is in its life.
type Status string

// The statuses.
const (
	StatusLobby   Status = "lobby"   // seats are being filled
	StatusPlaying Status = "playing" // the game runs
	StatusEnded   Status = "ended"   // the game is over; its log is kept
	// StatusFrozen: the game stands still because nobody is at the table
	// (its clock, stopped, holds the time left); it goes on when one of
	// its people comes back. A server does not load it until asked.
	StatusFrozen Status = "frozen"
	// StatusExpired: a table left in the lobby by everyone; it is closed
	// and never loaded again.
	StatusExpired Status = "expired"
)

// Table is one table and its game (one game per table).
type Table struct {
	ID        string
	Name      string
	Public    bool
	Invite    string // the secret part of a private table's invite link
	Status    Status
	Config    []byte // the room's settings (setup, rules, timings) as JSON, owned by the room
	HostToken string // a hash of the host's token, never the token itself
	Seed      uint64
	Winner    string // once ended
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Seat is one seat at a table.
type Seat struct {
	Seat      int
	Name      string
	TokenHash string // a hash of the seat's secret token; empty for a bot
	Bot       bool
}

// Clock is a running game's clock, saved at every step so that a restarted
// server resumes it with the time that was left.
type Clock struct {
	Step     int           // the index in the log of the event that began the current step
	Deadline time.Time     // when the step ends (zero while paused)
	Left     time.Duration // the time left when paused
	Paused   bool
}

// WriteStats count a store's writes since it was opened, for an operator's
// metrics: how many requests each transaction carried, and how long
// committing took.
type WriteStats struct {
	Commits    int64         // transactions the writer committed
	Writes     int64         // the requests (appends, clocks) they carried
	CommitTime time.Duration // the time spent writing and committing them
}

// WriteCounter is a Store that counts its writes.
type WriteCounter interface {
	// WriteStats returns the counts so far.
	WriteStats() WriteStats
}

// Store is everything the server remembers. Implementations are safe for
// concurrent use; AppendEvents from many rooms may be committed together.
type Store interface {
	// CreateTable records a new table with its seats.
	CreateTable(ctx context.Context, t Table, seats []Seat) error
	// UpdateTable saves a table's status, seed, winner and config.
	UpdateTable(ctx context.Context, t Table) error
	// SaveSeats replaces a table's seats.
	SaveSeats(ctx context.Context, tableID string, seats []Seat) error
	// Table returns one table and its seats, or ErrNotFound.
	Table(ctx context.Context, id string) (Table, []Seat, error)
	// Tables lists tables with the given status, newest first (public ones
	// only when publicOnly), at most limit.
	Tables(ctx context.Context, status Status, publicOnly bool, limit int) ([]Table, error)
	// AppendEvents appends events to a game's log; first is the index of
	// evs[0] and must equal the log's current length, or ErrConflict. It
	// returns once the events are durable.
	AppendEvents(ctx context.Context, tableID string, first int, evs []engine.Event) error
	// AppendEventsClock is AppendEvents for events that begin a new step:
	// the game's clock for that step (as SaveClock records it) is saved in
	// the same transaction, so the step and its deadline are durable
	// together, in one write.
	AppendEventsClock(ctx context.Context, tableID string, first int, evs []engine.Event, c Clock) error
	// RewriteEvents replaces a game's log from index from on with evs, in
	// one transaction: the events from from on are deleted and evs
	// appended in their place (none: the log is cut at from). It corrects a
	// log (the host's assistant takes back an entry); from must not exceed
	// the log's length, or ErrConflict. It must not run beside appends to
	// the same table.
	RewriteEvents(ctx context.Context, tableID string, from int, evs []engine.Event) error
	// Events returns a game's whole log in order.
	Events(ctx context.Context, tableID string) ([]engine.Event, error)
	// SaveClock records a game's clock.
	SaveClock(ctx context.Context, tableID string, c Clock) error
	// Clock returns a game's last saved clock (the zero Clock if none).
	Clock(ctx context.Context, tableID string) (Clock, error)
	// Heartbeat records that the server was alive at t; LastHeartbeat
	// returns the last one (zero if none), to know when a crash happened.
	Heartbeat(ctx context.Context, t time.Time) error
	LastHeartbeat(ctx context.Context) (time.Time, error)
	// Close releases the store.
	Close() error
}
