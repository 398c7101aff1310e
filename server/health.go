package server

// This file answers /healthz (liveness) and /readyz (readiness), and tells
// the log when the store stops and starts writing again.

import (
	"fmt"
	"net/http"
	"time"

	"mafia/store"
)

// storeFailing reports whether the store's writes are failing now, and how.
func (s *Server) storeFailing() (store.WriteHealth, bool) {
	h := s.cfg.Store.WriteHealth()
	return h, h.Failing(time.Now(), s.cfg.StoreHold)
}

// storeDown reports whether the store's last write failed, and how: what
// readiness asks. It holds nothing after a failure: once a write commits
// again (the heartbeat writes every second) the server is ready again, so
// that a database's blip of a few seconds (a restart, a failover) keeps
// the balancer away no longer than it lasted.
func (s *Server) storeDown() (store.WriteHealth, bool) {
	h := s.cfg.Store.WriteHealth()
	return h, h.Failing(time.Now(), 0)
}

// healthz answers GET /healthz: 200 "ok" while the server can do its work,
// 503 with a short reason while its store cannot write (every command and
// join would be refused). It is checked often and by anyone: it reads the
// store's last outcome and writes nothing.
func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if h, failing := s.storeFailing(); failing {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "store cannot write: %s (failing since %s)\n", h.Reason, h.Since.UTC().Format(time.RFC3339))
		return
	}
	_, _ = w.Write([]byte("ok\n"))
}

// readyz answers GET /readyz: 200 "ready" while the server takes new
// tables and players, 503 with the reason while it does not: starting
// (before Resume has finished), draining (Drain), shutting down (Close),
// or its store failing to write. A load balancer sends new players only to
// a ready server; /healthz stays the liveness check (a draining server is
// alive, and its tables play on). Like /healthz it writes nothing.
func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if why := s.notReady(); why != "" {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "not ready: %s\n", why)
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}

// watchStore logs when the store's writes begin to fail and when they
// commit again (called at each heartbeat): one line each way, whatever the
// rooms log meanwhile.
func (s *Server) watchStore(failing *bool) {
	h, now := s.storeFailing()
	switch {
	case now && !*failing:
		s.log.Error("store cannot write: commands and joins are refused until it can", "reason", h.Reason, "err", h.Err)
	case !now && *failing:
		s.log.Info("store writes again", "failed_from", h.Since, "last_failure", h.LastFail)
	}
	*failing = now
}
