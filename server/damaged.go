package server

// This file brings tables back from the store, and sets aside the ones
// whose record is damaged so that they never stop the others.

import (
	"context"
	"fmt"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
)

// CodeTableDamaged refuses a request for a table whose stored record cannot
// be read or replayed: it has been set aside (see Server.setAside).
const CodeTableDamaged engine.Code = "table_damaged"

// stored is what the store holds of one table: enough to resume its room.
type stored struct {
	table store.Table
	seats []store.Seat
	log   []engine.Event
	clock store.Clock
}

// read reads one online table from the store. A record that cannot be read
// is an error that is store.ErrDamaged; a table that is not an online one
// (an in-person game of the host's assistant) is store.ErrNotFound: not
// ours to serve.
func (s *Server) read(ctx context.Context, id string) (stored, error) {
	var st stored
	var err error
	if st.table, st.seats, err = s.cfg.Store.Table(ctx, store.KindOnline, id); err != nil {
		return st, err
	}
	if st.table.Status == store.StatusExpired {
		return st, &engine.Error{Code: room.CodeExpired} // a lobby everyone left
	}
	if st.log, err = s.cfg.Store.Events(ctx, id); err != nil {
		return st, err
	}
	if st.clock, err = s.cfg.Store.Clock(ctx, id); err != nil {
		return st, err
	}
	return st, nil
}

// resume starts the room of a table read from the store: its seats, its
// game replayed from the log, its clock with the time that was left when
// the server was last alive (zero: a full step). Settings or a log that do
// not make a game are an error that is store.ErrDamaged.
func (s *Server) resume(st stored, lastAlive time.Time) (*room.Room, error) {
	return s.resumeFenced(st, lastAlive, 0)
}

// resumeFenced is resume with every write of the room fenced by a lease's
// token (0: none; see roomConfigFenced).
func (s *Server) resumeFenced(st stored, lastAlive time.Time, token int64) (*room.Room, error) {
	r, err := room.Resume(s.roomConfigFenced(token), st.table, st.seats, st.log, st.clock, lastAlive)
	if err != nil {
		return nil, fmt.Errorf("%w: table %q does not resume: %w", store.ErrDamaged, st.table.ID, err)
	}
	s.stops.started() // its goroutine runs: Close waits for its OnStop
	return r, nil
}

// setAside takes a damaged table out of service: it is logged with the
// reason, refused from now on with CodeTableDamaged, and marked in the
// store so that no later start tries it again. If the mark cannot be
// written, this process still refuses the table (and the next start finds
// the damage again).
func (s *Server) setAside(ctx context.Context, id string, cause error) {
	s.mu.Lock()
	_, known := s.damaged[id]
	s.damaged[id] = struct{}{}
	s.mu.Unlock()
	if known {
		return
	}
	s.log.Error("table set aside as damaged: it is refused until an operator repairs it",
		"table", id, "err", cause)
	if err := s.cfg.Store.SetAside(ctx, id, cause.Error()); err != nil {
		s.log.Error("mark table as damaged", "table", id, "err", err)
	}
}

// isDamaged reports whether a table has been set aside by this process.
func (s *Server) isDamaged(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.damaged[id]
	return ok
}
