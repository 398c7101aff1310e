package room

// TurnGroup is told, on the room's goroutine, once at the end of each turn
// of the room's in which the TurnEnd of any connection that named it
// (Entry.TurnGroup) was called, after all of those: connections that
// share a way out (a cluster's relayed seats, whose frames go to another
// node in one write) can then send a whole turn's frames together, with
// no goroutine woken for them. Like TurnEnd it must not block. Several
// rooms may tell the same group, each on its own goroutine.
type TurnGroup interface {
	TurnDone()
}

// noteGroup marks g (nil: none) to be told at the end of the turn, once.
func (r *Room) noteGroup(g TurnGroup) {
	if g == nil {
		return
	}
	for _, h := range r.turnGroups {
		if h == g {
			return
		}
	}
	r.turnGroups = append(r.turnGroups, g)
}

// endGroups tells the groups noted this turn, in the order noted.
func (r *Room) endGroups() {
	for i, g := range r.turnGroups {
		r.turnGroups[i] = nil
		g.TurnDone()
	}
	r.turnGroups = r.turnGroups[:0]
}
