package store

// SeatChanges is what writing a table's seats changes in the rows a store
// keeps (DiffSeats): a join changes one seat, and rewriting them all would
// rewrite every row at every join.
type SeatChanges struct {
	Changed []Seat // seats kept, with other values
	Added   []Seat // seats that were not there
	Removed []int  // the numbers of seats no longer there
}

// DiffSeats compares a table's stored seats (old) with the ones to write,
// for a store's SaveSeats: only the rows that change are written.
func DiffSeats(old, seats []Seat) SeatChanges {
	had := make(map[int]Seat, len(old))
	for _, s := range old {
		had[s.Seat] = s
	}
	var d SeatChanges
	for _, s := range seats {
		o, ok := had[s.Seat]
		delete(had, s.Seat)
		switch {
		case ok && o == s:
		case ok:
			d.Changed = append(d.Changed, s)
		default:
			d.Added = append(d.Added, s)
		}
	}
	for _, s := range old {
		if _, gone := had[s.Seat]; gone {
			d.Removed = append(d.Removed, s.Seat)
		}
	}
	return d
}
