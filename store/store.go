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

// ErrDamaged is returned for a table whose stored record cannot be read or
// replayed: a row that does not decode, a gap in its log, an impossible
// time, a damaged page of the file. Such a table is set aside (SetAside)
// and served to nobody; the others go on.
var ErrDamaged = errors.New("store: damaged")

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

// Kind is what serves a table: the online server's rooms, or the host's
// assistant at a real table. A table keeps its kind for its whole life, and
// every load and listing names the kind it serves: neither ever reads the
// other's tables.
type Kind string

// The kinds.
const (
	// KindOnline: a table of the online server (`mafia serve`), whose
	// seats play over the network; package room runs it.
	KindOnline Kind = "online"
	// KindInPerson: a game played in person, which its host records on a
	// phone with the assistant (package assist).
	KindInPerson Kind = "in_person"
)

// Valid reports whether k is one of the kinds.
func (k Kind) Valid() bool { return k == KindOnline || k == KindInPerson }

// Table is one table and its game (one game per table).
type Table struct {
	ID     string
	Kind   Kind // who serves it; it never changes
	Name   string
	Public bool
	Invite string // the secret part of a private table's invite link
	Status Status
	// Data is what the table's owner keeps of it besides its seats and
	// its log, as JSON that the store neither reads nor changes. The owner
	// is the package that serves the table's Kind: package room for an
	// online table (the room's settings: setup, rules, timings), package
	// assist for an in-person one (the game's settings, every entry its
	// host made, the cards opened and the names corrected).
	Data      []byte
	HostToken string // a hash of the host's token, never the token itself
	Seed      uint64
	Winner    string // once ended
	CreatedAt time.Time
	UpdatedAt time.Time
}

// TableFilter chooses, among the tables of one kind, those that Tables
// lists.
type TableFilter struct {
	Status     Status // only the tables with this status ("": any)
	PublicOnly bool   // only the public ones
	Limit      int    // at most this many (<= 0: no limit)
}

// Seat is one seat at a table.
type Seat struct {
	Seat      int
	Name      string
	TokenHash string // a hash of the seat's secret token; empty for a bot
	Bot       bool
	// Account is the account that took the seat (store.Accounts); 0 for a
	// guest or a server's bot. BotAccount: that account is a bot an
	// account owns.
	Account    int64
	BotAccount bool
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
	Retried    int64         // transactions the database aborted for a deadlock or a serialization failure, and the store ran again
	Waited     int64         // tries of a write again while the database was away (a restart, a failover)
	Gathered   int64         // transactions held a moment to gather more requests (Gather)
	GatherTime time.Duration // the time they were held
}

// WriteCounter is a Store that counts its writes.
type WriteCounter interface {
	// WriteStats returns the counts so far.
	WriteStats() WriteStats
}

// WriteHealth is what a store knows of whether its writes commit: for an
// operator's health check, which must say when every write fails (a full
// disk, a read-only file) while reads still work.
type WriteHealth struct {
	LastOK   time.Time // when a write last committed (zero: none since it was opened)
	LastFail time.Time // when a write last failed (zero: none since it was opened)
	Since    time.Time // when the writes began to fail, if the last one failed
	Err      error     // the last failure (nil if none)
	Reason   string    // the last failure in a few words: "disk full", "read-only", ...
}

// Failing reports whether the store's writes are failing at now: the last
// write failed, or one failed less than hold ago (so that a store where
// some writes fit and most do not, as on a nearly full disk, does not seem
// well between two failures).
func (h WriteHealth) Failing(now time.Time, hold time.Duration) bool {
	if h.LastFail.IsZero() {
		return false
	}
	return !h.LastOK.After(h.LastFail) || now.Sub(h.LastFail) < hold
}

// WriteMonitor is a Store that knows whether its writes commit.
type WriteMonitor interface {
	// WriteHealth returns what the store knows now.
	WriteHealth() WriteHealth
}

// Store is everything the server remembers. Implementations are safe for
// concurrent use; AppendEvents from many rooms may be committed together.
type Store interface {
	// CreateTable records a new table with its seats; its Kind must be
	// one of the kinds.
	CreateTable(ctx context.Context, t Table, seats []Seat) error
	// UpdateTable saves a table's status, seed, winner and data.
	UpdateTable(ctx context.Context, t Table) error
	// SaveSeats replaces a table's seats.
	SaveSeats(ctx context.Context, tableID string, seats []Seat) error
	// Table returns the table of the given kind with that ID and its
	// seats, or ErrNotFound (also when the table of that ID is of another
	// kind), or an error that is ErrDamaged for a table set aside or one
	// that cannot be read.
	Table(ctx context.Context, kind Kind, id string) (Table, []Seat, error)
	// Tables lists the tables of the given kind that f chooses, newest
	// first; never one set aside.
	Tables(ctx context.Context, kind Kind, f TableFilter) ([]Table, error)
	// TableIDs lists the IDs of the tables of the given kind with the
	// given status, oldest first, except those set aside. It reads as
	// little of each table as it can, so that a table whose record is
	// damaged is still listed (reading it then fails with ErrDamaged);
	// rows it cannot read at all are left out, and then it returns the
	// others with an error that is ErrDamaged.
	TableIDs(ctx context.Context, kind Kind, status Status) ([]string, error)
	// SetAside records that a table is damaged, and why: from then on
	// Table refuses it with ErrDamaged and Tables and TableIDs leave it
	// out, also after a restart. Its rows stay as they are, for an
	// operator to read (and to put back, by removing the mark). Setting a
	// table aside again keeps the first reason.
	SetAside(ctx context.Context, tableID, reason string) error
	// AppendEvents appends events to a game's log; first is the index of
	// evs[0] and must equal the log's current length, or ErrConflict. It
	// returns once the events are durable.
	AppendEvents(ctx context.Context, tableID string, first int, evs []engine.Event) error
	// AppendEventsClock is AppendEvents for events that begin a new step:
	// the game's clock for that step (as SaveClock records it) is saved in
	// the same transaction, so the step and its deadline are durable
	// together, in one write.
	AppendEventsClock(ctx context.Context, tableID string, first int, evs []engine.Event, c Clock) error
	// AppendEventsTable is AppendEvents for the events that start or end
	// a game: the table t (its status, seed, winner and data, as
	// UpdateTable saves them) and, if c is not nil, the game's clock are
	// saved in the same transaction, so that a crash never leaves a game
	// that has ended "playing", nor one that has started "lobby".
	AppendEventsTable(ctx context.Context, t Table, first int, evs []engine.Event, c *Clock) error
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
