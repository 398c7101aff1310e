package server

// This file bounds one client address's GET requests of the public API
// (Limits.GetRate): a flood of lobby and record reads from one address must
// not slow everyone's games.

import (
	"math"
	"net/http"
	"time"

	"mafia/engine"
	"mafia/internal/httpguard"
)

// paced serves h within the request's address's rate of GET requests;
// past it the request is refused with 429 rate_limited and Retry-After
// (whole seconds). Limits.Unlimited addresses are not counted. The rate
// runs on the wall clock, whatever the rooms' clock.
func (s *Server) paced(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a := s.guard.ClientAddr(r)
		if a.IsValid() && !httpguard.In(a, s.cfg.Limits.Unlimited) {
			if ok, wait := s.guards.gets.Allow(a, time.Now()); !ok {
				s.fail(w, r, &engine.Error{Code: CodeRateLimited, N: int(math.Ceil(wait.Seconds()))})
				return
			}
		}
		h(w, r)
	}
}
