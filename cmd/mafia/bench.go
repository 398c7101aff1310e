package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"mafia/bench"
)

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var servers serverList
	fs.Var(&servers, "server", "base URL of a running `mafia serve` (default http://127.0.0.1:8080); several, comma-separated or with the flag repeated, spread the players over them (see --spread)")
	spread := fs.String("spread", bench.SpreadTables, `with several --server: "tables" puts each table's seats on one server, the tables in turn; "seats" puts a table's seats on the servers in turn (for a cluster where any node relays to the table's owner)`)
	followOwner := fs.Bool("follow-owner", true, "connect each seat's WebSocket to its table's owner when the table's row names the owner's URL (a cluster node's --node-url), through the --server it was given only when the owner cannot be reached; false keeps every seat on its --server (with --spread seats: measures the relay)")
	everyPlayer := fs.Bool("every-player", false, "keep measuring, past --duration and --games, until every player has played a game to its end (bounded by --timeout)")
	ops := fs.String("ops", "", "the server's operator address (`mafia serve --ops`), e.g. http://127.0.0.1:9090, to report its memory and CPU from its /metrics (empty: not reported); with several --server, several comma-separated in their order (one left empty: that server's are not read)")
	opsToken := fs.String("ops-token", "", "the operator address's bearer token (`mafia serve --ops-token`)")
	players := fs.Int("players", 110, "bot players (connections): tables of 11, the remainder at one smaller table")
	duration := fs.Duration("duration", 60*time.Second, "how long to measure after the ramp (0 with --games: until --games)")
	games := fs.Int("games", 0, "stop once this many games have finished while measuring (0: no limit)")
	timings := fs.String("timings", "short", `table step lengths: "short", or name=duration,... over short (speech, defence, tie_speech, last_words, night, vote)`)
	ramp := fs.Float64("ramp", 500, "connections opened per second while connecting")
	think := fs.Duration("think", time.Second, "a bot's mean pause before each move (uniform in [think/2, 3*think/2]; 0: at once)")
	gameTimeout := fs.Duration("game-timeout", 10*time.Minute, "bound on one game")
	timeout := fs.Duration("timeout", 0, "bound on the whole run (0: ramp, window and one game timeout, and with --failover another for the games in play as the window ends)")
	seed := fs.Uint64("seed", 1, "root seed of the bots' choices")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	cpuProfile := fs.String("cpuprofile", "", "write the bench's own CPU profile to this file")
	nice := fs.Int("nice", 10, "the bench's own CPU priority (Linux): at 10 it takes a core only when a server on the same machine leaves one, so that its own work disturbs what it measures less; 0 keeps the priority it started with")
	gcPercent := fs.Int("gogc", 400, "the bench's own GOGC: its garbage collector runs rarely, so that its pauses disturb the latency it measures as little as they can (the GOGC environment variable, if set, wins)")
	failover := fs.Duration("failover", 0, "how long a seat whose connection breaks (a node dying or draining, a dial refused, a close to reconnect after) has to take its seat back on the next --server in turn, with its token and since; the run then ends by letting every game in play finish and reports reconnects, the failover gap, unfinished games and events lost (0: off, a broken connection is an error and its game lost)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mafia bench --server URL[,URL...] [--spread tables|seats] [--follow-owner=false] [--ops URL] --players N [--duration D | --games G] [--every-player] [--failover WAIT] [--think D] [--ramp R] [--json]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *spread != bench.SpreadTables && *spread != bench.SpreadSeats {
		fmt.Fprintf(stderr, "mafia bench: --spread %q: want %q or %q\n", *spread, bench.SpreadTables, bench.SpreadSeats)
		return 2
	}
	if len(servers) == 0 {
		servers = serverList{"http://127.0.0.1:8080"}
	}
	if fs.NArg() > 0 || *players <= 0 || *ramp <= 0 || *duration < 0 || *games < 0 || *think < 0 || *failover < 0 || *nice < 0 || *nice > 19 {
		fs.Usage()
		return 2
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(*gcPercent)
	}
	tm, err := parseTimings(*timings)
	if err != nil {
		fmt.Fprintf(stderr, "mafia bench: --timings: %v\n", err)
		return 2
	}
	cfg := bench.Config{Servers: servers, Spread: *spread, IgnoreOwner: !*followOwner, EveryPlayer: *everyPlayer, OpsAll: opsList(*ops), OpsToken: *opsToken, Players: *players, Duration: *duration, Games: *games,
		Timings: tm, Ramp: *ramp, Think: *think, GameTimeout: *gameTimeout, Timeout: *timeout, Seed: *seed, Failover: *failover}
	if !*quiet {
		cfg.Progress = stderr
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "mafia bench: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "mafia bench: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	// Before the bench starts its goroutines, so that every thread it
	// starts inherits the priority.
	ranAt := 0
	if *nice > 0 {
		if _, err := bench.Yield(*nice); err != nil {
			fmt.Fprintf(stderr, "mafia bench: --nice %d: %v (running at the usual priority)\n", *nice, err)
		} else {
			ranAt = *nice
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := bench.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "mafia bench: %v\n", err)
		return 1
	}
	res.Nice = ranAt
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return 1
		}
	} else {
		fmt.Fprint(stdout, res.Summary())
	}
	return 0
}

// parseTimings reads "short" or "name=duration,..." (over the short timings)
// into milliseconds by step name.
func parseTimings(s string) (map[string]int64, error) {
	tm := bench.ShortTimings()
	s = strings.TrimSpace(s)
	if s == "" || s == "short" {
		return tm, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return nil, fmt.Errorf("%q is not name=duration", kv)
		}
		k = strings.TrimSpace(k)
		if _, known := tm[k]; !known {
			return nil, fmt.Errorf("no step named %q", k)
		}
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil {
			return nil, err
		}
		tm[k] = d.Milliseconds()
	}
	return tm, nil
}

// serverList is --server: one URL or several, comma-separated or with the
// flag repeated, each without its trailing slash.
type serverList []string

func (l *serverList) String() string { return strings.Join(*l, ",") }

func (l *serverList) Set(v string) error {
	for _, u := range strings.Split(v, ",") {
		u = strings.TrimRight(strings.TrimSpace(u), "/")
		if u == "" {
			return errors.New("an empty server URL")
		}
		*l = append(*l, u)
	}
	return nil
}

// opsList is --ops: operator addresses, comma-separated in the order of
// --server, each without its trailing slash (nil for none).
func opsList(v string) []string {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	var out []string
	for _, o := range strings.Split(v, ",") {
		out = append(out, strings.TrimRight(strings.TrimSpace(o), "/"))
	}
	return out
}
