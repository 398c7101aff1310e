package main

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// servePprof serves Go's profiler on its own listener, apart from the game's
// handlers, so that an operator can profile a loaded server without exposing
// the profiler on the public address.
func servePprof(addr string, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	log.Info("profiler", "addr", ln.Addr().String())
	go func() {
		hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		if err := hs.Serve(ln); err != nil {
			log.Error("pprof", "err", err)
		}
	}()
	return nil
}
