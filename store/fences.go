package store

import "context"

// EventFences is a Store that remembers, for every event of a table's log,
// the fencing token it was written under (the token of the Fenced handle
// that wrote it, 0 without one, at the AppendEvents, AppendEventsClock,
// AppendEventsTable or RewriteEvents): evidence, after the
// fact, of which owner wrote which part of a log.
//
// What it proves: in a log whose writes were all fenced, the tokens never
// decrease, and a takeover (the lease passed to another owner, or to the
// same node again after it ran out) shows as one step up to the new
// owner's token, after which the old one never comes back. So "no table's
// log has an event from two owners at once" is a check that the slice is
// sorted, and the number of distinct tokens is the number of owners the
// table had.
type EventFences interface {
	// EventFences returns the fencing token each event of the table's log
	// was written under, in log order (index = event number): 0 for an
	// event written without a fence (one node alone, or before the store
	// kept them). A table with no events gives an empty slice; a table
	// that does not exist is ErrNotFound; a log with a gap is ErrDamaged.
	EventFences(ctx context.Context, table string) ([]int64, error)
}
