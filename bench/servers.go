package bench

// This file spreads a run's players over several servers and keeps each
// server's own figures.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"mafia/client"
)

// How a run spreads its players over several servers (Config.Spread).
const (
	// SpreadTables puts every seat of a table on the table's server, the
	// tables taken in turn: the default, and the only spread that works
	// over servers that do not share their tables.
	SpreadTables = "tables"
	// SpreadSeats puts a table's seats on the servers in turn (the table is
	// made on its own server, as with SpreadTables): for a cluster in which
	// any node relays a connection to the table's owner.
	SpreadSeats = "seats"
)

// ServerFigures are one server's share of a run: the players that went
// through it and what they measured there. Latencies, frames, commands and
// games count only the measuring window, as in Result.
type ServerFigures struct {
	URL string `json:"url"`
	// Players are the players the spread gives this server, Tables the
	// tables whose games are made on it (a game it refuses as draining is
	// made on another: DrainedAway).
	Players int `json:"players"`
	Tables  int `json:"tables"`
	// Played is how many players played a game to its end through this
	// server (in the ramp or the window): its Players, unless games moved.
	Played int64 `json:"players_played"`
	// DrainedAway is how many of its tables' games this server refused
	// because it drains (or, with failover, failed to make), made on
	// another one (Result.TablesMoved).
	DrainedAway        int64            `json:"drained_away"`
	GamesFinished      int64            `json:"games_finished"`
	GamesFinishedTotal int64            `json:"games_finished_total"`
	Commands           uint64           `json:"commands"`
	CommandsPerSec     float64          `json:"commands_per_sec"`
	P50ms              float64          `json:"p50_ms"`
	P90ms              float64          `json:"p90_ms"`
	P99ms              float64          `json:"p99_ms"`
	MaxMs              float64          `json:"max_ms"`
	Frames             int64            `json:"frames"`
	FramesPerSec       float64          `json:"frames_per_sec"`
	Errors             int64            `json:"errors"`
	ErrorKinds         map[string]int64 `json:"error_kinds,omitempty"`
	// Reconnects counts the seats that took their seat back through this
	// server after a break (Config.Failover).
	Reconnects int64 `json:"reconnects"`
	// Server is the server's memory and CPU, when its operator address was
	// given (Config.OpsAll).
	Server *ServerReport `json:"server,omitempty"`
}

// serverRun is one server of a run in progress.
type serverRun struct {
	url     string
	api     *client.API
	players int // players assigned to it
	tables  int // tables made on it

	commands  atomic.Uint64
	lat       Histogram
	frames    atomic.Int64
	finished  atomic.Int64
	finAll    atomic.Int64
	errs      map[string]int64 // under run.mu
	playedCnt atomic.Int64
	// drainedAway counts its tables' games it refused as draining.
	drainedAway atomic.Int64
	reconnects  atomic.Int64 // seats taken back through it

	// ops is the server's operator address ("": none), rep what its
	// /metrics said (nil without ops), cpuStart its CPU seconds as the
	// window began.
	ops      string
	rep      *ServerReport
	cpuStart float64
}

// sample reads the server's /metrics once, if it has an operator address,
// and keeps its peak.
func (sv *serverRun) sample(ctx context.Context, hc *http.Client, token string) {
	if sv.rep == nil {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	s, err := scrape(sctx, hc, sv.ops, token)
	if err != nil {
		return
	}
	if s.Connections >= sv.rep.Peak.Connections {
		sv.rep.Peak = s
	}
	sv.rep.MaxRSS = max(sv.rep.MaxRSS, s.RSS)
}

// cpuNow is the server's CPU seconds so far (0 when unknown).
func (sv *serverRun) cpuNow(ctx context.Context, hc *http.Client, token string) float64 {
	if sv.rep == nil {
		return 0
	}
	s, err := scrape(ctx, hc, sv.ops, token)
	if err != nil {
		return 0
	}
	return s.CPUSeconds
}

// serverURLs returns a config's servers: Servers, else Server alone,
// without trailing slashes and without repeats.
func serverURLs(cfg Config) ([]string, error) {
	in := cfg.Servers
	if len(in) == 0 && cfg.Server != "" {
		in = []string{cfg.Server}
	}
	seen := map[string]bool{}
	var out []string
	for _, u := range in {
		u = strings.TrimRight(strings.TrimSpace(u), "/")
		if u == "" {
			return nil, fmt.Errorf("bench: an empty server URL")
		}
		if seen[u] {
			return nil, fmt.Errorf("bench: server %s given twice", u)
		}
		seen[u] = true
		out = append(out, u)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("bench: no server URL")
	}
	return out, nil
}

// refusedDraining reports whether a create was refused because the server
// drains.
func refusedDraining(err error) bool {
	var ce *client.Error
	return errors.As(err, &ce) && ce.Code == "draining"
}

// homeOf is the server (an index into n) of table idx: the tables in turn.
func homeOf(idx, n int) int { return idx % n }

// seatServer is the server (an index into n) through which seat i (from 0)
// of table idx joins and plays under a spread.
func seatServer(spread string, idx, i, n int) int {
	if spread == SpreadSeats {
		return (idx + i) % n
	}
	return homeOf(idx, n)
}

// slotOf is a player's index among the run's players: table idx's seat i
// (every table but the last is full).
func slotOf(idx, i int) int { return idx*TableSize + i }

// assign counts each server's players and tables under a plan.
func assign(srvs []*serverRun, tables [][2]int, spread string) {
	for idx, t := range tables {
		srvs[homeOf(idx, len(srvs))].tables++
		for i := 0; i < t[0]; i++ {
			srvs[seatServer(spread, idx, i, len(srvs))].players++
		}
	}
}

// command records one move's latency at a server (while measuring).
func (sv *serverRun) command(d time.Duration) {
	sv.commands.Add(1)
	sv.lat.Record(d)
}

// played marks a player as having played a game to its end, once.
func (r *run) played(sv *serverRun, slot int) {
	if slot < 0 || slot >= len(r.playedBy) {
		return
	}
	if r.playedBy[slot].CompareAndSwap(false, true) {
		r.playedAll.Add(1)
		if sv != nil {
			sv.playedCnt.Add(1)
		}
	}
}

// resetWindow forgets a server's figures of the ramp.
func (sv *serverRun) resetWindow() {
	sv.lat.Reset()
	sv.frames.Store(0)
	sv.commands.Store(0)
	sv.finished.Store(0)
}

// figures are a server's share, over a window of a number of seconds
// (run.mu held for the error counts).
func (sv *serverRun) figures(window float64) ServerFigures {
	f := ServerFigures{URL: sv.url, Players: sv.players, Tables: sv.tables, Played: sv.playedCnt.Load(), DrainedAway: sv.drainedAway.Load(),
		GamesFinished: sv.finished.Load(), GamesFinishedTotal: sv.finAll.Load(),
		Commands: sv.commands.Load(), Frames: sv.frames.Load(),
		P50ms: ms(sv.lat.Quantile(0.5)), P90ms: ms(sv.lat.Quantile(0.9)), P99ms: ms(sv.lat.Quantile(0.99)), MaxMs: ms(sv.lat.Max()),
		ErrorKinds: maps(sv.errs), Reconnects: sv.reconnects.Load(), Server: sv.rep}
	for _, n := range sv.errs {
		f.Errors += n
	}
	if window > 0 {
		f.CommandsPerSec = float64(f.Commands) / window
		f.FramesPerSec = float64(f.Frames) / window
	}
	return f
}

// summaryLine is a server's share in words, one line.
func (f ServerFigures) summaryLine() string {
	s := fmt.Sprintf("  %s: %d players (%d played a game to its end) at %d tables, %d games in the window, commands %d (%.0f/s), p50 %.2f ms, p99 %.2f ms, max %.2f ms, %.0f frames/s, errors %d",
		f.URL, f.Players, f.Played, f.Tables, f.GamesFinished, f.Commands, f.CommandsPerSec, f.P50ms, f.P99ms, f.MaxMs, f.FramesPerSec, f.Errors)
	keys := make([]string, 0, len(f.ErrorKinds))
	for k := range f.ErrorKinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s += fmt.Sprintf(" %s=%d", k, f.ErrorKinds[k])
	}
	if f.Reconnects > 0 {
		s += fmt.Sprintf("; %d seats taken back here after a break", f.Reconnects)
	}
	if f.DrainedAway > 0 {
		s += fmt.Sprintf("; %d games refused as it drains, made elsewhere", f.DrainedAway)
	}
	if sv := f.Server; sv != nil {
		s += fmt.Sprintf("; at peak %.0f connections, RSS %.1f MiB (%.1f KiB/conn), CPU %.2f cores in the window",
			sv.Peak.Connections, sv.Peak.RSS/(1<<20), sv.Peak.RSSPerConn/1024, sv.CPU)
	}
	return s + "\n"
}
