package store

import "fmt"

// MaxAppend is the most events one append may carry (both stores write
// them in one statement, and bind each event's values).
const MaxAppend = 8000

// CheckAppend is what every store checks of an append of n events to
// table at first before it writes anything: a negative first is
// ErrConflict (no log is that long), more than MaxAppend events at once an
// error. An append of no events is no error (it writes nothing).
func CheckAppend(table string, first, n int) error {
	if n > 0 && first < 0 {
		return fmt.Errorf("append to %q at %d: %w", table, first, ErrConflict)
	}
	if n > MaxAppend {
		return fmt.Errorf("append to %q: %d events at once, more than %d", table, n, MaxAppend)
	}
	return nil
}
