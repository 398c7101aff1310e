package server

// This file bounds one client address's GET requests of the public API
// (Limits.GetRate): a flood of lobby and record reads from one address must
// not slow everyone's games. The server's own GET routes are paced here;
// Paced lends the same rate to the other parts of the public face (the
// accounts, the players' pages, the catalogs, the host's assistant), which
// internal/site wraps with it.

import (
	"context"
	"math"
	"net/http"
	"time"

	"mafia/engine"
	"mafia/internal/httpguard"
)

// pacedKey marks a request already counted against its address's rate, so
// that a route of the server behind Paced is not counted twice.
type pacedKey struct{}

// paced serves h within the request's address's rate of GET requests;
// past it the request is refused with 429 rate_limited and Retry-After
// (whole seconds). Limits.Unlimited addresses are not counted. The rate
// runs on the wall clock, whatever the rooms' clock.
func (s *Server) paced(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Context().Value(pacedKey{}) == nil && !s.allowGet(w, r) {
			return
		}
		h(w, r)
	}
}

// allowGet takes one request from the address's rate, or refuses it
// (rate_limited, Retry-After) and reports false.
func (s *Server) allowGet(w http.ResponseWriter, r *http.Request) bool {
	a := s.guard.ClientAddr(r)
	if a.IsValid() && !httpguard.In(a, s.cfg.Limits.Unlimited) {
		if ok, wait := s.guards.gets.Allow(a, time.Now()); !ok {
			s.fail(w, r, &engine.Error{Code: CodeRateLimited, N: int(math.Ceil(wait.Seconds()))})
			return false
		}
	}
	return true
}

// Paced serves h with every GET and HEAD request counted against its
// client address's rate (Limits.GetRate and GetBurst), the same rate the
// server's own GET routes take from: past it the request is refused with
// 429 rate_limited and Retry-After before h sees it. Other methods pass
// as they are (they have limits of their own). A request of one of the
// server's routes that comes through Paced is counted once.
func (s *Server) Paced(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.ServeHTTP(w, r)
			return
		}
		if !s.allowGet(w, r) {
			return
		}
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), pacedKey{}, true)))
	})
}
