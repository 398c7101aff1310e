package voice

import (
	"time"

	"mafia/engine"
)

// Stats is what a table's unit has carried: the packets read from each
// seat's microphone, and what each connection was sent.
type Stats struct {
	In        [engine.MaxSeats + 1]int64
	Listeners []ListenerStats
	// Heard is the seats forwarded now, since Changed (zero before the
	// first change), when the unit had read InAtChange of each seat's
	// packets.
	Heard      engine.SeatSet
	Changed    time.Time
	InAtChange [engine.MaxSeats + 1]int64
}

// ListenerStats is what one connection was sent, by the seat it was of.
type ListenerStats struct {
	Seat    engine.Seat // the connection's seat (0: spectator, or host)
	Packets [engine.MaxSeats + 1]int64
	Bytes   [engine.MaxSeats + 1]int64 // payload bytes
	Silence [engine.MaxSeats + 1]int64 // silence frames that ended runs
	// Opened is when the newest run of the seat's packets began (its
	// first packet forwarded), Closed when the newest run ended (its
	// silence sent); zero if none has: a latency's server hop. OpenedIn is
	// which of the seat's packets read (In) the run's first was.
	Opened, Closed [engine.MaxSeats + 1]time.Time
	OpenedIn       [engine.MaxSeats + 1]int64
}

// Stats returns the counts of a table's unit (zero if it has no audio).
func (h *Hub) Stats(id string) Stats {
	var t *table
	h.mu.Lock()
	for rm, tt := range h.tables {
		if rm.ID() == id {
			t = tt
		}
	}
	h.mu.Unlock()
	if t == nil {
		return Stats{}
	}
	var st Stats
	for s := range st.In {
		st.In[s] = t.in[s].Load()
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	st.Heard, st.Changed, st.InAtChange = t.heard, t.changed, t.changedIn
	for _, p := range t.parts {
		l := ListenerStats{Seat: p.seat}
		for s, o := range p.outs {
			if o != nil {
				l.Packets[s], l.Bytes[s], l.Silence[s], l.Opened[s], l.Closed[s], l.OpenedIn[s] = o.counts()
			}
		}
		st.Listeners = append(st.Listeners, l)
	}
	return st
}
