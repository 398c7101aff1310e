package server

import (
	"crypto/subtle"
	"github.com/prometheus/client_golang/prometheus"
	"net/http"
	"net/http/pprof"
	"strings"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// OpsHandler serves the operator's endpoints: /metrics (Prometheus) and
// Go's profiler under /debug/pprof/. Serve it on an address only the
// operator reaches (`mafia serve --ops`), never on the public one: its
// counters move with every accepted command, the night's included, so an
// anonymous reader would learn who acts at night. A non-empty token must
// come as "Authorization: Bearer <token>"; anything else is answered 401.
func (s *Server) OpsHandler(token string) http.Handler {
	if s.cfg.Accounts != nil {
		s.metrics.watchAccounts(s.cfg.Accounts)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	if token == "" {
		return mux
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(strings.TrimSpace(r.Header.Get("Authorization")))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mafia ops"`)
			http.Error(w, "401 unauthorized: this address wants the operator's token", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// Register adds series of another part of the process (a cluster node's
// relay) to the operator's /metrics.
func (s *Server) Register(c prometheus.Collector) error { return s.metrics.reg.Register(c) }
