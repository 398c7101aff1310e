package server

// This file is the server's readiness to take new tables and players
// (/readyz) and its draining before a shutdown.

import (
	"context"
	"net/http"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
)

// CodeDraining refuses a new table while the server is draining (Drain):
// it is about to stop, and a table made now would be cut off; the tables
// it already has play on.
const CodeDraining engine.Code = "draining"

// Drain stops the server taking new tables: from now on a create is
// refused with CodeDraining and /readyz answers 503, so that a load
// balancer sends new players elsewhere. The tables it has play on, their
// seats connect and reconnect, and a table in the lobby can still be
// joined and started. It does not wait (see Quiet) and cannot be undone;
// calling it again does nothing.
func (s *Server) Drain() {
	if s.draining.CompareAndSwap(false, true) {
		n := s.tablesByStatus()
		s.log.Info("draining: no new tables", "playing", n[string(store.StatusPlaying)], "lobby", n[string(store.StatusLobby)])
	}
}

// Draining reports whether Drain has been called.
func (s *Server) Draining() bool { return s.draining.Load() }

// Quiet waits until no game is being played on the server (each has ended,
// or it had none), checking a few times a second, or until ctx ends (its
// error). It is what a drain waits for before the shutdown: a table still
// playing when the wait is cut short is saved as always and resumed, its
// clock with the time that was left, when a server starts on the store
// again.
func (s *Server) Quiet(ctx context.Context) error {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for s.tablesByStatus()[string(store.StatusPlaying)] > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// refuseDraining answers a create with CodeDraining while the server
// drains; it reports whether it did.
func (s *Server) refuseDraining(w http.ResponseWriter, r *http.Request) bool {
	if !s.draining.Load() {
		return false
	}
	w.Header().Set("Retry-After", "5")
	s.fail(w, r, &engine.Error{Code: CodeDraining})
	return true
}

// tablesByStatus counts the server's running rooms (the tables it owns)
// by their status: lobby, playing, ended (lingering after the end).
func (s *Server) tablesByStatus() map[string]int {
	s.mu.Lock()
	rooms := make([]*room.Room, 0, len(s.rooms))
	for _, rm := range s.rooms {
		rooms = append(rooms, rm)
	}
	s.mu.Unlock()
	n := map[string]int{}
	for _, rm := range rooms {
		n[rm.Lobby().Status]++
	}
	return n
}

// notReady is why the server does not take new tables and players now
// ("" when it does): starting (Resume has not finished), shutting down,
// draining, or its store failing to write.
func (s *Server) notReady() string {
	switch {
	case s.closing.Load():
		return "shutting down"
	case s.draining.Load():
		return "draining: no new tables"
	case !s.ready.Load():
		return "starting: resuming the stored tables"
	}
	if h, failing := s.storeDown(); failing {
		return "store cannot write: " + h.Reason + " (failing since " + h.Since.UTC().Format(time.RFC3339) + ")"
	}
	return ""
}

// Ready reports whether the server takes new tables and players now, as
// /readyz says.
func (s *Server) Ready() bool { return s.notReady() == "" }
