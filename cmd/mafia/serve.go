package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"mafia/assist"
	"mafia/locale"
	"mafia/server"
	"mafia/store/sqlite"
)

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	db := fs.String("db", "mafia.db", "SQLite database file (created if missing)")
	origins := fs.String("origins", "", "extra allowed WebSocket origins, comma-separated host patterns")
	logLevel := fs.String("log", "info", "log level: debug, info, warn, error")
	pprofAddr := fs.String("pprof", "", "also serve Go's profiler (net/http/pprof) on this address, e.g. 127.0.0.1:6060 (off by default)")
	seatsPerAddr := fs.Int("seats-per-address", 3, "seats of one table that may be joined from one address (0: no limit, e.g. for `mafia bench` from one machine)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mafia serve [--addr HOST:PORT] [--db FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fs.Usage()
		return 2
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	start := time.Now()
	st, err := sqlite.Open(*db)
	if err != nil {
		log.Error("open database", "db", *db, "err", err)
		return 1
	}
	defer st.Close()
	cfg := server.Config{Store: st, Log: log, Render: renderIn, SeatsPerAddress: *seatsPerAddr}
	if *seatsPerAddr <= 0 {
		cfg.SeatsPerAddress = -1
	}
	if *origins != "" {
		cfg.Origins = strings.Split(*origins, ",")
	}
	srv := server.New(cfg)
	resumed, err := srv.Resume(context.Background())
	if err != nil {
		log.Error("resume games", "err", err)
		return 1
	}
	if *pprofAddr != "" {
		if err := servePprof(*pprofAddr, log); err != nil {
			log.Error("listen for pprof", "addr", *pprofAddr, "err", err)
			return 1
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Error("listen", "addr", *addr, "err", err)
		return 1
	}
	// The host's assistant for in-person games lives under /host/; the
	// server has everything else.
	mux := http.NewServeMux()
	host := assist.New(assist.Config{Store: st, Log: log})
	mux.Handle("/host/", host)
	mux.Handle("/host", host)
	mux.Handle("/", srv.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Info("serving", "addr", ln.Addr().String(), "db", *db, "resumed_tables", resumed,
		"startup_ms", time.Since(start).Milliseconds())
	fmt.Fprintf(stdout, "mafia: serving on http://%s\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		log.Error("serve", "err", err)
		return 1
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	srv.Close()
	return 0
}

// renderIn renders a refusal in a language for the server's replies.
func renderIn(lang string, err error) string {
	l, ok := locale.Parse(lang)
	if !ok {
		l = locale.En
	}
	return locale.New(l).Refusal(err)
}
