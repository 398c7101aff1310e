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
	"net/netip"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"mafia/account"
	"mafia/assist"
	"mafia/clubhttp"
	"mafia/internal/httpguard"
	"mafia/internal/site"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/store"
	"mafia/store/postgres"
	"mafia/store/sqlite"
	"mafia/voice"
)

// runServe is `mafia serve`: its flags parsed, then a serve opened, run
// until a signal, and closed.
func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	f, code, ok := parseServeFlags(args, stderr)
	if !ok {
		return code
	}
	sv := &serve{f: f, stdout: stdout, stderr: stderr}
	defer sv.close()
	if code := sv.open(); code != 0 {
		return code
	}
	return sv.run()
}

// serveFlags are `mafia serve`'s flags, parsed and checked.
type serveFlags struct {
	addr, db, origins, opsAddr, opsToken, publicURL string
	level                                           slog.Level
	trusted, free                                   []netip.Prefix
	maxConns, connsPerAddr, spectators              int
	tablesPerAddr, lobbyTables, seatsPerAddr        int
	drainTimeout                                    time.Duration
	// wsPoller reads idle WebSockets with one poller (Linux), not a
	// goroutine each (server.Config.GoroutinePerConnection's opposite).
	wsPoller bool
	cluster  clusterFlags
	// voice: the voice tables' UDP port, public addresses and STUN/TURN
	// servers (serve_voice.go).
	voice voiceFlags
}

// parseServeFlags parses and checks serve's flags. ok false: the command
// ends with code (0 for --help, 2 for a bad flag), having said why.
func parseServeFlags(args []string, stderr io.Writer) (f serveFlags, code int, ok bool) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	db := fs.String("db", "mafia.db", "SQLite database file (created if missing), or a PostgreSQL database's URL: postgres://user:password@host:5432/dbname (docs/postgres.md)")
	origins := fs.String("origins", "", "extra trusted origins of browser pages, comma-separated host patterns (e.g. *.example.ge); the server's own is always trusted")
	logLevel := fs.String("log", "info", "log level: debug, info, warn, error")
	opsAddr := fs.String("ops", "", "serve the operator's /metrics and Go's profiler (/debug/pprof/) on this address only, e.g. 127.0.0.1:9090 (off by default; the public address serves neither)")
	opsToken := fs.String("ops-token", "", "if set, --ops wants it as a bearer token (Authorization: Bearer TOKEN)")
	publicURL := fs.String("public-url", "", "where players reach the server, e.g. https://mafia.example.ge behind a proxy: cookies are Secure exactly when it is https, and its origin is trusted (default: each request's own scheme)")
	proxies := fs.String("trusted-proxy", "", "comma-separated addresses or CIDRs of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed; the per-address limits then count the real client")
	unlimited := fs.String("unlimited", "", "comma-separated addresses or CIDRs the per-address limits do not apply to: connections, frames, tables, the assistant's new games, GET requests, the flood penalty, and the seats of a table (counted by their accounts only); e.g. 127.0.0.1 for mafia bench on this machine")
	maxConns := fs.Int("max-conns", 0, "WebSockets open at once in total (0: from the open-file limit, see the log line \"limits\")")
	connsPerAddr := fs.Int("conns-per-addr", 64, "WebSockets open at once from one client address")
	spectators := fs.Int("spectators-per-table", 200, "spectators of one table at once (seats have their own share)")
	tablesPerAddr := fs.Int("tables-per-addr", 5, "tables one client address may have waiting in the lobby")
	lobbyTables := fs.Int("max-lobby-tables", 1000, "tables waiting in the lobby in total")
	drainTimeout := fs.Duration("drain-timeout", 5*time.Second, "on SIGTERM or SIGINT, drain first: refuse new tables (and answer /readyz 503) while the games play on, until none is playing or this long has passed, then shut down (0: no drain; a second signal cuts it short); a cluster's node (--node) hands its tables over meanwhile, and its default is 30s")
	wsPoller := fs.Bool("ws-poller", true, "on Linux, read idle WebSockets with one epoll poller, a goroutine only while a connection has bytes to read (about 5 KiB less memory a player); false: a goroutine per connection, as on other systems")
	cf := addClusterFlags(fs)
	vf := addVoiceFlags(fs)
	seatsPerAddr := fs.Int("seats-per-address", 3, "seats of one table one person may take: from one address, or by one account and the bot accounts it owns (1 at a rated table; 0: no limit at all; for `mafia bench` name its address with --unlimited instead)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mafia serve [--addr HOST:PORT] [--db FILE|postgres://...] [--ops HOST:PORT] [--public-url URL] [--trusted-proxy CIDR,...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return f, 0, false
		}
		return f, 2, false
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return f, 2, false
	}
	if err := cf.check(*db); err != nil {
		fmt.Fprintf(stderr, "mafia serve: %v\n", err)
		return f, 2, false
	}
	f = serveFlags{addr: *addr, db: *db, origins: *origins, opsAddr: *opsAddr, opsToken: *opsToken, publicURL: *publicURL,
		maxConns: *maxConns, connsPerAddr: *connsPerAddr, spectators: *spectators, tablesPerAddr: *tablesPerAddr,
		lobbyTables: *lobbyTables, seatsPerAddr: *seatsPerAddr, cluster: cf,
		drainTimeout: drainTimeoutOf(fs, cf.on(), *drainTimeout), voice: vf, wsPoller: *wsPoller}
	if err := f.level.UnmarshalText([]byte(*logLevel)); err != nil {
		fs.Usage()
		return f, 2, false
	}
	var err error
	if f.trusted, err = httpguard.ParsePrefixes(*proxies); err != nil {
		fmt.Fprintf(stderr, "mafia serve: --trusted-proxy: %v\n", err)
		return f, 2, false
	}
	if f.free, err = httpguard.ParsePrefixes(*unlimited); err != nil {
		fmt.Fprintf(stderr, "mafia serve: --unlimited: %v\n", err)
		return f, 2, false
	}
	return f, 0, true
}

// serve is one `mafia serve`: open makes its parts from the flags (the
// log, the guard, the store, the wiring of the server, the accounts, the
// assistant and the site, the cluster's node, the listeners), run serves
// until a signal and drains, and close gives back what open took.
type serve struct {
	f              serveFlags
	stdout, stderr io.Writer
	log            *slog.Logger
	start          time.Time

	guard *httpguard.Guard
	st    store.All
	srv   *server.Server
	// handler is the whole public site (the server's API, the browser
	// client, the host's assistant, the accounts).
	handler http.Handler
	cn      clusterNode
	ln      net.Listener
	// closers run in close, last first.
	closers []func()
}

// open makes the serve's parts: 0, or the exit code of the failure,
// logged and said on stderr where the operator can act on it.
func (sv *serve) open() int {
	f := sv.f
	sv.log = slog.New(slog.NewJSONHandler(sv.stderr, &slog.HandlerOptions{Level: f.level}))
	log := sv.log
	// From here on a SIGHUP is logged, never the end of the server.
	sv.closers = append(sv.closers, ignoreHangup(log))
	gcfg := httpguard.Config{PublicURL: f.publicURL, TrustedProxies: f.trusted}
	if f.origins != "" {
		gcfg.Origins = strings.Split(f.origins, ",")
	}
	guard, err := httpguard.New(gcfg)
	if err != nil {
		fmt.Fprintf(sv.stderr, "mafia serve: %v\n", err)
		return 2
	}
	sv.guard = guard
	// Before the server derives its connection caps from it.
	soft, hard, ferr := server.RaiseFileLimit()
	sv.start = time.Now()
	st, err := openStore(f.db, *f.cluster.node, sv.stderr, log)
	if err != nil {
		return 1
	}
	sv.st = st
	sv.closers = append(sv.closers, func() { st.Close() })
	hub, err := sv.openVoice()
	if err != nil {
		log.Error("voice", "err", err)
		return 1
	}
	sv.wire(hub)
	tcpCap, wsCap := sv.srv.Caps()
	if ferr != nil {
		log.Warn("open-file limit", "err", ferr)
	}
	log.Info("limits", "open_files_soft", soft, "open_files_hard", hard, "max_tcp_connections", tcpCap,
		"max_websockets", wsCap, "websockets_per_addr", f.connsPerAddr, "spectators_per_table", f.spectators,
		"lobby_tables_per_addr", f.tablesPerAddr, "max_lobby_tables", f.lobbyTables)
	if f.cluster.on() {
		// A node listens, and joins the cluster, before it resumes: the
		// tables it takes are reached through the others at once.
		if sv.ln, err = net.Listen("tcp", f.addr); err != nil {
			log.Error("listen", "addr", f.addr, "err", err)
			return 1
		}
		if err := sv.cn.start(f.cluster, sv.srv, sv.handler, sv.ln, f.publicURL, log); err != nil {
			log.Error("join the cluster", "err", err)
			fmt.Fprintf(sv.stderr, "mafia serve: cannot join the cluster: %v\n", err)
			return 1
		}
		sv.closers = append(sv.closers, func() { sv.cn.node.Close() })
	}
	resumed, err := sv.srv.Resume(context.Background())
	if err != nil {
		log.Error("resume games", "err", err)
		return 1
	}
	if f.opsAddr != "" {
		if err := serveOps(f.opsAddr, sv.srv.OpsHandler(f.opsToken), f.opsToken != "", log); err != nil {
			log.Error("listen for the operator", "addr", f.opsAddr, "err", err)
			return 1
		}
	}
	if sv.ln == nil {
		if sv.ln, err = net.Listen("tcp", f.addr); err != nil {
			log.Error("listen", "addr", f.addr, "err", err)
			return 1
		}
	}
	log.Info("serving", "addr", sv.ln.Addr().String(), "db", redactURL(f.db), "resumed_tables", resumed,
		"startup_ms", time.Since(sv.start).Milliseconds())
	return 0
}

// wire makes the server and the site from the store, in one place: st is
// a store.All (every capability, as both stores offer), and each
// consumer's Config names the ones it takes, typed (account.Store, the
// server's store.All, assist.Store), so a store missing one fails to
// compile. A new domain's service and handler are wired here, and its
// handler mounted by internal/site beside the others; moderation's
// admission.Policy (who may sit) goes to server.Config.Policy and
// account.Config.Policy here (none yet: the seat rules alone).
func (sv *serve) wire(hub *voice.Hub) {
	f, st, log, guard := sv.f, sv.st, sv.log, sv.guard
	accounts := account.New(account.Config{Store: st, SeatName: func(n string) error { _, err := room.CheckName(n); return err }})
	cfg := server.Config{Store: st, Log: log, Render: renderIn, Vocabulary: vocabulary, Guard: guard, SeatsPerAddress: f.seatsPerAddr, Accounts: accounts,
		Limits: server.Limits{MaxConns: f.maxConns, ConnsPerAddr: f.connsPerAddr, SpectatorsPerTable: f.spectators,
			LobbyTablesPerAddr: f.tablesPerAddr, LobbyTables: f.lobbyTables, Unlimited: f.free},
		GoroutinePerConnection: !f.wsPoller}
	if f.seatsPerAddr <= 0 {
		cfg.SeatsPerAddress = -1
	}
	if hub != nil {
		cfg.Voice = hub
	}
	if f.cluster.on() {
		cfg.Cluster = sv.cn.serverPart(f.cluster)
	}
	sv.srv = server.New(cfg)
	// The server's API, the browser client and the host's assistant for
	// in-person games (under /host/) side by side.
	// The clubs count the assistant's games and the assistant's games
	// reach their clubs, each through the other's small interface.
	clubs := clubhttp.New(clubhttp.Config{Store: st, Games: assist.ClubGames(st, log), Accounts: accounts, Guard: guard,
		Files: assist.Version(), Log: log, Vocabulary: vocabulary})
	clubs.ServeOnline(sv.srv) // a club's online tournament opens its tables on the server
	host := assist.New(assist.Config{Store: st, Log: log, Guard: guard, Accounts: accounts, Shared: f.cluster.on(), Clubs: clubs,
		Vocabulary: vocabulary, NewGames: assist.NewGameRates(), Seatings: assist.SeatingRates(), Unlimited: f.free})
	clubs.InviteWith(host) // a tournament's new referee is invited to the games made at its tables
	acct := account.NewHandler(account.HandlerConfig{Service: accounts, Guard: guard, Render: renderIn, Log: log, Vocabulary: vocabulary,
		Ratings: sv.srv.PlayerRatings, Clubs: clubs.PlayerClubs, Tables: clubs.PlayerTables,
		Running: clubs.PlayerTournaments})
	sv.handler = site.Handler(sv.srv, host, site.WithAccounts(acct), site.WithClubs(clubs))
}

// run serves until SIGTERM or SIGINT (or the listener fails: 1), then
// drains (a cluster's node hands its tables over) and shuts the server
// down: 0.
func (sv *serve) run() int {
	f, log, srv := sv.f, sv.log, sv.srv
	hs := srv.HTTPServer(sv.handler)
	fmt.Fprintf(sv.stdout, "mafia: serving on http://%s\n", sv.ln.Addr())
	ctx, stop := signal.NotifyContext(serveContext(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(srv.Listener(sv.ln)) }()
	select {
	case err := <-errc:
		log.Error("serve", "err", err)
		return 1
	case <-ctx.Done():
	}
	if f.drainTimeout > 0 {
		// The second signal is caught before the first's catcher stops:
		// in between, SIGTERM's default would kill the process.
		again := make(chan os.Signal, 1)
		signal.Notify(again, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(again)
		stop() // from here a signal is the second one, caught by again alone
		sv.drain(again)
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	srv.Close()
	return 0
}

// drain refuses new tables (/readyz 503) while the games play on, until
// none is playing or --drain-timeout has passed; a second signal (again)
// cuts it short. A cluster's node hands its tables to the others
// meanwhile.
func (sv *serve) drain(again <-chan os.Signal) {
	f, log, srv := sv.f, sv.log, sv.srv
	srv.Drain()
	dctx, cancelDrain := context.WithTimeout(context.Background(), f.drainTimeout)
	defer cancelDrain()
	go func() {
		select {
		case <-again:
			log.Info("drain cut short by a second signal")
		case <-dctx.Done():
		}
		cancelDrain()
	}()
	switch {
	case f.cluster.on():
		// A node hands its tables to the others: their games go on
		// there, and their clients reconnect through any node.
		if err := srv.Handover(dctx); err != nil {
			log.Info("drain over before every table was taken by another node: the others take the rest when their leases run out", "drain_timeout", f.drainTimeout.String())
		} else {
			log.Info("drained: every table handed over")
		}
	case srv.Quiet(dctx) != nil:
		log.Info("drain over with games still playing: they resume when a server starts on the store again", "drain_timeout", f.drainTimeout.String())
	default:
		log.Info("drained: no game is playing")
	}
}

// close gives back what open took, last first: the cluster's node, the
// store, the SIGHUP handler.
func (sv *serve) close() {
	for i := len(sv.closers) - 1; i >= 0; i-- {
		sv.closers[i]()
	}
	sv.closers = nil
}

// serveContext is what serve runs under until a signal stops it: tests
// replace it with one they cancel.
var serveContext = context.Background

// isPostgresURL reports whether --db names a PostgreSQL database rather
// than a SQLite file.
func isPostgresURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// redactURL is --db as the log may show it: a URL's password hidden.
func redactURL(db string) string {
	if !isPostgresURL(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return "postgres://(unreadable URL)"
	}
	return u.Redacted()
}

// openStore opens the store --db names: PostgreSQL for a postgres:// or
// postgresql:// URL, else the SQLite file. A failure is logged, and said
// plainly on stderr where the operator can act on it.
func openStore(db string, node string, stderr io.Writer, log *slog.Logger) (store.All, error) {
	if isPostgresURL(db) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		opts := []postgres.Option{postgres.Log(log)}
		if node != "" {
			// The nodes of a cluster share the database (their writes are
			// fenced by the tables' leases), each under its own id.
			opts = append(opts, postgres.Node(node))
		}
		st, err := postgres.Open(ctx, db, opts...)
		if err != nil {
			log.Error("open database", "db", redactURL(db), "err", err)
			if iu := (*postgres.InUseError)(nil); errors.As(err, &iu) {
				sayInUse(stderr, db, node, iu)
				return nil, err
			}
			fmt.Fprintf(stderr, "mafia: cannot open the PostgreSQL database %s: %v\n", redactURL(db), err)
			return nil, err
		}
		return st, nil
	}
	st, err := sqlite.Open(db)
	if err != nil {
		log.Error("open database", "db", db, "err", err)
		if le := (*sqlite.LockedError)(nil); errors.As(err, &le) {
			// Said plainly too: whoever starts a second server reads this.
			fmt.Fprintf(stderr, "mafia: %s is in use by another server%s; stop it first, or give this one another --db\n",
				db, pidOf(le))
		}
		if errors.Is(err, store.ErrDamaged) {
			fmt.Fprintf(stderr, "mafia: %s is damaged where SQLite keeps its list of tables (or, in an older file, "+
				"in rows that bringing it up to date must read), so nothing in it can be read; "+
				"restore it from a copy, or save what can be read with: sqlite3 %s .recover | sqlite3 recovered.db\n", db, db)
		}
		return nil, err
	}
	return st, nil
}

// sayInUse says plainly, where the operator can act on it, why the
// PostgreSQL database refused this server: as for SQLite's file, whoever
// starts a second server reads this.
func sayInUse(stderr io.Writer, db, node string, iu *postgres.InUseError) {
	switch {
	case iu.Node != "":
		fmt.Fprintf(stderr, "mafia: another process runs as the cluster's node %q on the PostgreSQL database %s; give this one another --node\n",
			iu.Node, redactURL(db))
	case iu.Cluster && node != "":
		fmt.Fprintf(stderr, "mafia: the PostgreSQL database %s is in use by a single server (not a cluster's node)%s; stop it first, or run it with --node too\n",
			redactURL(db), holderOf(iu))
	case iu.Cluster:
		fmt.Fprintf(stderr, "mafia: the PostgreSQL database %s is in use by the nodes of a cluster; run this server with --node ID (docs/cluster.md), or give it another --db\n",
			redactURL(db))
	default:
		fmt.Fprintf(stderr, "mafia: the PostgreSQL database %s is in use by another server%s; stop it first, or give this one another --db\n",
			redactURL(db), holderOf(iu))
	}
}

// holderOf is " (PostgreSQL's backend pid N, from ADDR)" for a database
// whose holder is known, else "".
func holderOf(iu *postgres.InUseError) string {
	switch {
	case iu.PID <= 0:
		return ""
	case iu.Client != "":
		return fmt.Sprintf(" (PostgreSQL's backend pid %d, connected from %s)", iu.PID, iu.Client)
	}
	return fmt.Sprintf(" (PostgreSQL's backend pid %d)", iu.PID)
}

// pidOf is " (pid N)" for a lock whose holder is known, else "".
func pidOf(le *sqlite.LockedError) string {
	if le.PID <= 0 {
		return ""
	}
	return fmt.Sprintf(" (pid %d)", le.PID)
}

// serveOps serves the operator's handler (metrics, profiler) on its own
// listener, apart from the public one.
func serveOps(addr string, h http.Handler, tokened bool, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	log.Info("operator's address", "addr", ln.Addr().String(), "serves", "/metrics /debug/pprof/")
	if ta, ok := ln.Addr().(*net.TCPAddr); ok && !ta.IP.IsLoopback() && !tokened {
		log.Warn("the operator's address is reachable from other machines and wants no token: give --ops-token")
	}
	go func() {
		hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
		if err := hs.Serve(ln); err != nil {
			log.Error("operator's address", "err", err)
		}
	}()
	return nil
}

// renderIn renders a refusal in a language for the server's replies.
func renderIn(lang string, err error) string {
	l, ok := locale.Parse(lang)
	if !ok {
		l = locale.En
	}
	return locale.New(l).Refusal(err)
}
