package store

import (
	"context"
	"fmt"

	"mafia/engine"
	"mafia/store/internal/fence"
)

// ErrUnfenced is returned by a clustered store (one on which leases are in
// use: a PostgreSQL store opened as a cluster's node, or any store once a
// lease was acquired through it) for a write of the state of a table
// under a lease that carries no fencing token: a write made past the
// table's owner, which would otherwise land unchecked. Nothing of it is
// written. Writes of the tables no lease was ever taken of (an in-person
// game's, a single node's) need no fence. It is ErrConflict too
// (errors.Is), as ErrFenced is: a refusal of the write, not a failing store.
var ErrUnfenced = fmt.Errorf("store: unfenced: a write of a leased table's state carries no fencing token: %w", ErrConflict)

// TableStore is what one table is kept in: its table, seats, log and clock
// (Store), and its chat, read a window at a time (ChatPages). A room
// writes through one; in a cluster, through Fenced's.
type TableStore interface {
	Store
	ChatPages
}

// Fenced returns st as a handle whose every write of table's state carries
// the fencing token of the lease this node holds on it (Leases): each is
// made only if, in its own transaction, the table's lease still carries
// token, and refused with ErrFenced otherwise (nothing of it is written).
// The writes fenced are every one of a table's state: AppendEvents,
// AppendEventsClock, AppendEventsTable, RewriteEvents, UpdateTable,
// SaveSeats, SaveClock and AppendChat. Reads, and writes of other tables,
// pass through unchanged. The fence travels with the handle, never with a
// caller's context: a write cannot lose it on the way.
func Fenced(st TableStore, table string, token int64) TableStore {
	return &fenced{TableStore: st, table: table, token: token}
}

// fenced is Fenced's handle.
type fenced struct {
	TableStore
	table string
	token int64
}

// on is ctx carrying the handle's fence to the store (package fence, which
// only the stores read).
func (f *fenced) on(ctx context.Context) context.Context {
	return fence.With(ctx, f.table, f.token)
}

func (f *fenced) UpdateTable(ctx context.Context, t Table) error {
	return f.TableStore.UpdateTable(f.on(ctx), t)
}

func (f *fenced) SaveSeats(ctx context.Context, tableID string, seats []Seat) error {
	return f.TableStore.SaveSeats(f.on(ctx), tableID, seats)
}

func (f *fenced) AppendEvents(ctx context.Context, tableID string, first int, evs []engine.Event) error {
	return f.TableStore.AppendEvents(f.on(ctx), tableID, first, evs)
}

func (f *fenced) AppendEventsClock(ctx context.Context, tableID string, first int, evs []engine.Event, c Clock) error {
	return f.TableStore.AppendEventsClock(f.on(ctx), tableID, first, evs, c)
}

func (f *fenced) AppendEventsTable(ctx context.Context, t Table, first int, evs []engine.Event, c *Clock) error {
	return f.TableStore.AppendEventsTable(f.on(ctx), t, first, evs, c)
}

func (f *fenced) RewriteEvents(ctx context.Context, tableID string, from int, evs []engine.Event) error {
	return f.TableStore.RewriteEvents(f.on(ctx), tableID, from, evs)
}

func (f *fenced) SaveClock(ctx context.Context, tableID string, c Clock) error {
	return f.TableStore.SaveClock(f.on(ctx), tableID, c)
}

func (f *fenced) AppendChat(ctx context.Context, tableID string, line ChatLine) error {
	return f.TableStore.AppendChat(f.on(ctx), tableID, line)
}
