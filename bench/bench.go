// Package bench is the load generator behind `mafia bench`: it connects bot
// players to a running server over real WebSockets, has them play complete
// games with random legal moves, and measures what a player feels (the time
// from sending a command to receiving its reply: by day the reply follows
// the seat's new view; at night the view comes at the server's next night
// tick, by design, so a night command is measured to its reply alone, and
// counted apart), frames per second, games finished and errors, and, given
// the server's operator address, the server's memory per connection from
// its /metrics there.
//
// It owns nothing of the game or the server: it is a client of the public
// protocol (package client) and must only ever talk to the addresses it is
// given. Every run is bounded in time.
package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mafia/client"
	"mafia/engine"
	"mafia/rng"
	"mafia/wire"
)

// TableSize is the number of seats of a full bench table.
const TableSize = 11

// Config is one bench run.
type Config struct {
	// Server is the server's base URL, e.g. http://127.0.0.1:8080.
	Server string
	// Servers are several servers' base URLs (Server is then unused): the
	// players are spread over them as Spread says, and the result has each
	// server's figures as well as the run's (Result.PerServer).
	Servers []string
	// Spread is how the players are spread over Servers: SpreadTables
	// (empty: the default) or SpreadSeats.
	Spread string
	// IgnoreOwner keeps every seat's WebSocket on the server Spread gives
	// it. Otherwise a seat whose table's row names its owner's URL (a
	// cluster's node with --node-url: wire.Lobby.Owner) connects there, as
	// a client that follows the owner does, and through the server it was
	// given only when the owner refuses or cannot be reached
	// (Result.OwnerFallbacks); a seat at its owner counts in the owner's
	// ServerFigures (Players excepted: those are the spread's plan), or in
	// the given server's when the owner is none of Servers. With
	// SpreadSeats, IgnoreOwner measures the relay.
	IgnoreOwner bool
	// Ops is the server's operator address (`mafia serve --ops`), e.g.
	// http://127.0.0.1:9090: the server's memory and CPU are read from its
	// /metrics. Empty: they are not reported (the public address does not
	// serve /metrics).
	Ops string
	// OpsAll are the operator addresses of several servers, in the order of
	// Servers (one left empty, or past the end: that server's are not
	// read); when set, Ops is unused. Each server's memory and CPU are then
	// in its ServerFigures, the first's in Result.Server as well.
	OpsAll []string
	// OpsToken is the operator addresses' bearer token, if they want one.
	OpsToken string
	// Players is the number of bot players (connections): tables of
	// TableSize seats, the remainder at one smaller table (filled with the
	// server's bots when it is below engine.PresetMin).
	Players int
	// Duration is how long to measure once every table has started its
	// first game (0 with Games set: until Games; both 0: 30 s).
	Duration time.Duration
	// Games stops the run once this many games have finished while
	// measuring (0: no limit).
	Games int
	// EveryPlayer keeps the window open, past Duration and Games (and with
	// neither, instead of the default 30 s), until every player has played
	// a game to its end, within Timeout: a check that every server served
	// every player, rather than a measure.
	EveryPlayer bool
	// Timings are the tables' step lengths in milliseconds (nil: ShortTimings).
	Timings map[string]int64
	// Ramp is how many connections to open per second while connecting
	// (0: 500).
	Ramp float64
	// Think is a bot's mean pause before each move, drawn uniformly from
	// [Think/2, 3*Think/2]; 0 moves at once.
	Think time.Duration
	// GameTimeout bounds one game (0: 10 minutes).
	GameTimeout time.Duration
	// Timeout bounds the whole run (0: enough for the ramp, the window and
	// one game timeout; with Failover, one more for the games in play as
	// the window ends).
	Timeout time.Duration
	// Seed roots the bots' random choices.
	Seed uint64
	// Progress, if set, gets a line of figures every few seconds.
	Progress io.Writer
	// HTTP is the client for the lobby API and the WebSockets (nil: a
	// pooled client made for the run).
	HTTP *http.Client
	// Failover, when positive, is how long a seat whose connection ended
	// abnormally (a broken connection, a refused dial, or a close the
	// protocol says to reconnect after) has to take its seat back: it
	// reconnects with its token and since = the last event number it saw,
	// to the next server of Servers in turn (the one it was on last after
	// the others), 100 ms apart doubling to 1 s, and plays on; past the
	// wait its game is lost (error "failover"). A create, join or first
	// dial that fails so goes to the next server the same way. The run
	// then ends by letting every game in play finish (no new one starts),
	// and tracks every seat's events by number (Result.Lost). 0: off, a
	// broken connection is an error and its game lost, as before.
	Failover time.Duration
	// KeepTables keeps every game's record in Result.TablesSeen (and
	// tracks the seats' events, as Failover does).
	KeepTables bool
}

// ShortTimings are bench tables' step lengths: short nights and votes, and
// speeches long enough that the bots end them by passing.
func ShortTimings() map[string]int64 {
	return map[string]int64{"speech": 10000, "defence": 10000, "tie_speech": 10000, "last_words": 10000,
		"night": 1000, "vote": 3000}
}

// Result is what a run measured. Latencies, frames, commands and games
// count only the measuring window (after the ramp).
type Result struct {
	Players int `json:"players"`
	Tables  int `json:"tables"`
	// PlayersPlayed is how many players played a game to its end (in the
	// ramp or the window).
	PlayersPlayed int64 `json:"players_played"`
	// TablesMoved is how many games were made on another server than
	// their table's because it refused them with "draining" or, with
	// failover, could not make them (not errors).
	TablesMoved        int64            `json:"tables_moved"`
	ConnectedPeak      int64            `json:"connected_peak"`
	GamesFinished      int64            `json:"games_finished"`
	GamesFinishedTotal int64            `json:"games_finished_total"`
	Errors             int64            `json:"errors"`
	ErrorKinds         map[string]int64 `json:"error_kinds,omitempty"`
	Commands           uint64           `json:"commands"`
	CommandsPerSec     float64          `json:"commands_per_sec"`
	Refusals           int64            `json:"refusals"`
	RefusalCodes       map[string]int64 `json:"refusal_codes,omitempty"`
	P50ms              float64          `json:"p50_ms"`
	P90ms              float64          `json:"p90_ms"`
	P99ms              float64          `json:"p99_ms"`
	P999ms             float64          `json:"p999_ms"`
	MaxMs              float64          `json:"max_ms"`
	// HeldCommands is how many of Commands were sent at night or in a
	// vote: measured to their reply, which comes before their view (at the
	// next night tick, or when the vote closes). DayP50ms and DayP99ms are
	// the other commands' latency alone (a speech's nomination or pass,
	// whose reply follows its view).
	HeldCommands uint64  `json:"held_commands"`
	DayP50ms     float64 `json:"day_p50_ms"`
	DayP99ms     float64 `json:"day_p99_ms"`
	// ViewDelayP50ms and ViewDelayP99ms are, for a server on this machine
	// (nil for another), the time from the server stamping an update
	// ("now", in whole milliseconds) to a seat reading it: the part of the
	// latency after the server built the view (its writer, the network,
	// this client).
	ViewDelayP50ms *float64 `json:"view_delay_p50_ms,omitempty"`
	ViewDelayP99ms *float64 `json:"view_delay_p99_ms,omitempty"`
	Frames         int64    `json:"frames"`
	FramesPerSec   float64  `json:"frames_per_sec"`
	// Pads is how many pad frames the seats got (not in Frames): the
	// frames a broadcast sends a seat that sees none of its events.
	Pads          int64            `json:"pads"`
	RampSeconds   float64          `json:"ramp_s"`
	RampComplete  bool             `json:"ramp_complete"`
	WindowSeconds float64          `json:"window_s"`
	ThinkMS       int64            `json:"think_ms"`
	TimingsMS     map[string]int64 `json:"timings_ms"`
	// Nice is the CPU priority the bench itself ran at (see Yield; 0 is
	// the usual one). The command sets it.
	Nice int `json:"nice"`
	// Seconds is the window second by second: where a slow tail came from.
	Seconds []Second      `json:"seconds,omitempty"`
	Server  *ServerReport `json:"server,omitempty"`
	// Spread is how the players were spread over the servers, and
	// PerServer each server's share, in the order they were given.
	Spread    string          `json:"spread"`
	PerServer []ServerFigures `json:"per_server"`
	// AtOwner counts the seats connected at their table's owner URL, and
	// OwnerFallbacks those whose dial there failed, connected through the
	// server they were given instead (Config.IgnoreOwner).
	AtOwner        int64 `json:"at_owner"`
	OwnerFallbacks int64 `json:"owner_fallbacks"`

	// FailoverMS is Config.Failover in milliseconds (0: off). Reconnects
	// counts the seats taken back after a break, ReconnectCauses them by
	// what ended the connection ("broken", or the close's code and reason:
	// "1001/shutdown"), and the gaps are from the break to the first frame after
	// the reconnect (its welcome), over every reconnect of the run.
	FailoverMS       int64            `json:"failover_ms"`
	Reconnects       int64            `json:"reconnects"`
	ReconnectCauses  map[string]int64 `json:"reconnect_causes,omitempty"`
	FailoverGapP50ms float64          `json:"failover_gap_p50_ms"`
	FailoverGapP99ms float64          `json:"failover_gap_p99_ms"`
	FailoverGapMaxMs float64          `json:"failover_gap_max_ms"`
	// GamesStarted counts the games of the run that began (ramp, window
	// and end), GamesUnfinished those of them no seat saw end: lost to an
	// error, or, without failover, cut by the run's end.
	GamesStarted    int64 `json:"games_started"`
	GamesUnfinished int64 `json:"games_unfinished"`
	// Lost counts, when the events are tracked (Failover or KeepTables),
	// the events a seat had been told whose kind was another after a
	// reconnect, the event numbers that went backwards or were skipped in
	// what a seat received (a gap in, or a rewrite of, what was
	// acknowledged), and the events every seat sees on which a game's
	// seats disagree (each seat numbers its own events, so seats are
	// compared on those alone). It must be 0.
	Lost int64 `json:"lost"`
	// TablesSeen are the run's games as their seats saw them, when
	// Config.KeepTables is set, in the order they ended.
	TablesSeen []TableSeen `json:"tables_seen,omitempty"`
}

// Second is one second of the measuring window.
type Second struct {
	T        int     `json:"t"` // seconds since the window began
	Commands uint64  `json:"commands"`
	P99ms    float64 `json:"p99_ms"`
	MaxMs    float64 `json:"max_ms"`
}

// ServerReport is the server's memory and CPU as its /metrics told them.
type ServerReport struct {
	Baseline ServerSample `json:"baseline"` // before the bench connected
	Peak     ServerSample `json:"peak"`     // the sample with the most connections
	MaxRSS   float64      `json:"max_rss_bytes"`
	// CPU is the server's CPU use during the window, in cores.
	CPU float64 `json:"cpu_cores"`
}

// run is one bench in progress.
type run struct {
	cfg   Config
	srvs  []*serverRun
	start time.Time

	// playedBy says, by player (slotOf), who has played a game to its end;
	// playedAll counts them.
	playedBy  []atomic.Bool
	playedAll atomic.Int64

	measuring atomic.Bool
	frames    atomic.Int64
	framesAll atomic.Int64
	pads      atomic.Int64
	commands  atomic.Uint64
	held      atomic.Uint64 // commands sent at night or in a vote
	dayLat    Histogram     // the latency of the commands sent by day
	finished  atomic.Int64
	finAll    atomic.Int64
	connected atomic.Int64
	peak      atomic.Int64
	lat       Histogram
	// viewDelay is from the server's stamp on a view to its reading, when
	// the server shares this machine's clock.
	viewDelay Histogram
	local     bool
	// sec holds the current second's latencies; the window loop swaps it
	// for a fresh one every second.
	sec atomic.Pointer[Histogram]

	mu       sync.Mutex
	errs     map[string]int64
	refusals map[string]int64

	stop     context.CancelFunc
	started  atomic.Int64 // tables whose first game has started (or failed to)
	stopOnce sync.Once
	// moved counts the games made on another server than their table's,
	// which refused them because it drains.
	moved atomic.Int64
	// owners are the APIs of owner URLs outside srvs; atOwner and
	// ownerFallbacks are Result's.
	owners         owners
	atOwner        atomic.Int64
	ownerFallbacks atomic.Int64

	// track says the seats keep their events by number (failover or
	// KeepTables).
	track bool
	// closing stops new games: the run ends once those in play have.
	closing      atomic.Bool
	reconnects   atomic.Int64
	gaps         Histogram // from a break to the welcome of its reconnect
	lost         atomic.Int64
	gamesStarted atomic.Int64
	causes       map[string]int64 // under mu
	seen         []TableSeen      // under mu
}

// plan splits n players into table sizes (players, seats): full tables,
// then the remainder.
func plan(n int) [][2]int {
	var out [][2]int
	for ; n >= TableSize; n -= TableSize {
		out = append(out, [2]int{TableSize, TableSize})
	}
	if n > 0 {
		out = append(out, [2]int{n, max(n, engine.PresetMin)})
	}
	return out
}

// Run plays the bench and returns what it measured. It returns an error
// only when the run could not be made at all (a bad config, no server).
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Players <= 0 {
		return Result{}, errors.New("bench: players must be positive")
	}
	urls, err := serverURLs(cfg)
	if err != nil {
		return Result{}, err
	}
	switch cfg.Spread {
	case "":
		cfg.Spread = SpreadTables
	case SpreadTables, SpreadSeats:
	default:
		return Result{}, fmt.Errorf("bench: spread %q: want %q or %q", cfg.Spread, SpreadTables, SpreadSeats)
	}
	if cfg.Ramp <= 0 {
		cfg.Ramp = 500
	}
	if cfg.Duration <= 0 && cfg.Games <= 0 && !cfg.EveryPlayer {
		cfg.Duration = 30 * time.Second
	}
	if cfg.Timings == nil {
		cfg.Timings = ShortTimings()
	}
	if cfg.GameTimeout <= 0 {
		cfg.GameTimeout = 10 * time.Minute
	}
	rampTime := time.Duration(float64(cfg.Players)/cfg.Ramp*float64(time.Second)) + 30*time.Second
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2*rampTime + cfg.Duration + cfg.GameTimeout
		if cfg.Failover > 0 { // and the games in play at the window's end
			cfg.Timeout += cfg.GameTimeout
		}
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Transport: &http.Transport{
			MaxIdleConns: 512, MaxIdleConnsPerHost: 512, IdleConnTimeout: 30 * time.Second,
			DisableCompression: true,
		}}
		defer cfg.HTTP.CloseIdleConnections()
	}
	raiseFileLimit(cfg.Players + 1024)

	if cfg.Failover < 0 {
		return Result{}, errors.New("bench: failover must not be negative")
	}
	r := &run{cfg: cfg, start: time.Now(), playedBy: make([]atomic.Bool, cfg.Players),
		errs: map[string]int64{}, refusals: map[string]int64{}, causes: map[string]int64{},
		track: cfg.Failover > 0 || cfg.KeepTables}
	r.local = true // the servers' stamps are read when every one is on this machine
	for _, u := range urls {
		r.srvs = append(r.srvs, &serverRun{url: u, api: &client.API{Base: u, HTTP: cfg.HTTP}, errs: map[string]int64{}})
		r.local = r.local && isLoopback(u)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	r.stop = cancel

	ops := cfg.OpsAll
	if len(ops) == 0 && cfg.Ops != "" {
		ops = []string{cfg.Ops}
	}
	if len(ops) > len(r.srvs) {
		return Result{}, fmt.Errorf("bench: %d operator addresses for %d servers", len(ops), len(r.srvs))
	}
	for i, o := range ops {
		r.srvs[i].ops = strings.TrimRight(o, "/")
	}
	for _, sv := range r.srvs {
		if sv.ops != "" {
			s, err := scrape(ctx, cfg.HTTP, sv.ops, cfg.OpsToken)
			if err != nil {
				return Result{}, fmt.Errorf("bench: server metrics: %w", err)
			}
			sv.rep = &ServerReport{Baseline: s, MaxRSS: s.RSS}
			continue // as before: the operator's address answered for it
		}
		if _, err := sv.api.Tables(ctx); err != nil {
			return Result{}, fmt.Errorf("bench: server %s: %w", sv.url, err)
		}
	}

	tables := plan(cfg.Players)
	assign(r.srvs, tables, cfg.Spread)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // launch the tables at the ramp's pace
		defer wg.Done()
		t := time.NewTicker(time.Second / 50)
		defer t.Stop()
		budget, next := 0.0, 0
		for next < len(tables) && ctx.Err() == nil && !r.closing.Load() {
			select {
			case <-ctx.Done():
			case <-t.C:
				budget += cfg.Ramp / 50
				for next < len(tables) && budget >= float64(tables[next][0]) {
					budget -= float64(tables[next][0])
					wg.Add(1)
					go func(i int) {
						defer wg.Done()
						r.table(ctx, i, tables[i][0], tables[i][1])
					}(next)
					next++
				}
			}
		}
		r.started.Add(int64(len(tables) - next)) // never launched: do not wait for them
	}()

	// The ramp: until every table has started its first game.
	rampEnd := time.Now().Add(rampTime)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	lastProgress := time.Now()
	var window time.Time
	var lastScrape time.Time
	sample := func() {
		if time.Since(lastScrape) < time.Second {
			return
		}
		lastScrape = time.Now()
		for _, sv := range r.srvs {
			sv.sample(ctx, cfg.HTTP, cfg.OpsToken)
		}
	}
	var res Result
	res.RampComplete = true
	for ctx.Err() == nil && r.started.Load() < int64(len(tables)) {
		if time.Now().After(rampEnd) {
			res.RampComplete = false
			break
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
		sample()
		if cfg.Progress != nil && time.Since(lastProgress) >= 5*time.Second {
			lastProgress = time.Now()
			fmt.Fprintf(cfg.Progress, "ramp %5.0fs: %d connected, %d/%d tables started, %d errors\n",
				time.Since(r.start).Seconds(), r.connected.Load(), r.started.Load(), len(tables), r.errorCount())
		}
	}
	res.RampSeconds = time.Since(r.start).Seconds()

	// The window.
	r.lat.Reset()
	r.viewDelay.Reset()
	for _, sv := range r.srvs {
		sv.resetWindow()
	}
	r.frames.Store(0)
	r.commands.Store(0)
	r.finished.Store(0)
	r.mu.Lock()
	clear(r.refusals)
	r.mu.Unlock()
	spare := new(Histogram)
	r.sec.Store(new(Histogram))
	nextSecond := 1
	window = time.Now()
	r.measuring.Store(true)
	for _, sv := range r.srvs {
		sv.cpuStart = sv.cpuNow(ctx, cfg.HTTP, cfg.OpsToken)
	}
	for ctx.Err() == nil {
		allPlayed := !cfg.EveryPlayer || r.playedAll.Load() >= int64(cfg.Players)
		if allPlayed && cfg.Duration <= 0 && cfg.Games <= 0 {
			break // every player has played, and nothing else was asked
		}
		if allPlayed && cfg.Duration > 0 && time.Since(window) >= cfg.Duration {
			break
		}
		if allPlayed && cfg.Games > 0 && r.finished.Load() >= int64(cfg.Games) {
			break
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
		if time.Since(window) >= time.Duration(nextSecond)*time.Second {
			spare.Reset()
			h := r.sec.Swap(spare)
			spare = h
			res.Seconds = append(res.Seconds, Second{T: nextSecond - 1, Commands: h.Count(),
				P99ms: ms(h.Quantile(0.99)), MaxMs: ms(h.Max())})
			nextSecond++
		}
		sample()
		if cfg.Progress != nil && time.Since(lastProgress) >= 5*time.Second {
			lastProgress = time.Now()
			el := time.Since(window).Seconds()
			fmt.Fprintf(cfg.Progress, "run %5.0fs: %d connected, %d games, %.0f frames/s, %.0f cmds/s, p50 %.1f ms, p99 %.1f ms, %d errors\n",
				el, r.connected.Load(), r.finished.Load(), float64(r.frames.Load())/el, float64(r.commands.Load())/el,
				ms(r.lat.Quantile(0.5)), ms(r.lat.Quantile(0.99)), r.errorCount())
		}
	}
	r.measuring.Store(false)
	res.WindowSeconds = time.Since(window).Seconds()
	if h := r.sec.Swap(nil); h.Count() > 0 { // the last, partial second
		res.Seconds = append(res.Seconds, Second{T: nextSecond - 1, Commands: h.Count(),
			P99ms: ms(h.Quantile(0.99)), MaxMs: ms(h.Max())})
	}
	lastScrape = time.Time{}
	sample()
	for _, sv := range r.srvs {
		if end := sv.cpuNow(context.Background(), cfg.HTTP, cfg.OpsToken); sv.rep != nil && res.WindowSeconds > 0 && end > sv.cpuStart {
			sv.rep.CPU = (end - sv.cpuStart) / res.WindowSeconds
		}
	}
	res.P50ms, res.P90ms = ms(r.lat.Quantile(0.5)), ms(r.lat.Quantile(0.9))
	res.P99ms, res.P999ms, res.MaxMs = ms(r.lat.Quantile(0.99)), ms(r.lat.Quantile(0.999)), ms(r.lat.Max())
	if r.viewDelay.Count() > 0 {
		p50, p99 := ms(r.viewDelay.Quantile(0.5)), ms(r.viewDelay.Quantile(0.99))
		res.ViewDelayP50ms, res.ViewDelayP99ms = &p50, &p99
	}
	res.DayP50ms, res.DayP99ms = ms(r.dayLat.Quantile(0.5)), ms(r.dayLat.Quantile(0.99))
	res.Frames, res.Pads = r.frames.Load(), r.pads.Load()
	res.Commands, res.HeldCommands = r.commands.Load(), r.held.Load()
	res.GamesFinished = r.finished.Load()
	if res.WindowSeconds > 0 {
		res.FramesPerSec = float64(res.Frames) / res.WindowSeconds
		res.CommandsPerSec = float64(res.Commands) / res.WindowSeconds
	}

	// Stop every table and wait for them, within bounds: with failover,
	// once every game in play has ended (the run's timeout bounds it).
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	if cfg.Failover > 0 {
		r.closing.Store(true)
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		r.fail(nil, "shutdown_timeout")
	}

	res.Players, res.Tables = cfg.Players, len(tables)
	res.PlayersPlayed = r.playedAll.Load()
	res.TablesMoved = r.moved.Load()
	res.Spread = cfg.Spread
	res.AtOwner, res.OwnerFallbacks = r.atOwner.Load(), r.ownerFallbacks.Load()
	res.ConnectedPeak = r.peak.Load()
	res.GamesFinishedTotal = r.finAll.Load()
	res.ThinkMS, res.TimingsMS = cfg.Think.Milliseconds(), cfg.Timings
	res.FailoverMS, res.Reconnects, res.Lost = cfg.Failover.Milliseconds(), r.reconnects.Load(), r.lost.Load()
	res.FailoverGapP50ms, res.FailoverGapP99ms, res.FailoverGapMaxMs = ms(r.gaps.Quantile(0.5)), ms(r.gaps.Quantile(0.99)), ms(r.gaps.Max())
	res.GamesStarted = r.gamesStarted.Load()
	res.GamesUnfinished = res.GamesStarted - res.GamesFinishedTotal
	r.mu.Lock()
	res.ReconnectCauses, res.TablesSeen = maps(r.causes), r.seen
	res.ErrorKinds, res.RefusalCodes = maps(r.errs), maps(r.refusals)
	for _, n := range r.errs {
		res.Errors += n
	}
	for _, n := range r.refusals {
		res.Refusals += n
	}
	for _, sv := range r.srvs {
		res.PerServer = append(res.PerServer, sv.figures(res.WindowSeconds))
	}
	r.mu.Unlock()
	res.Server = r.srvs[0].rep
	return res, nil
}

func maps(m map[string]int64) map[string]int64 {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// frame counts one frame received through a server.
func (r *run) frame(sv *serverRun) {
	r.framesAll.Add(1)
	if r.measuring.Load() {
		r.frames.Add(1)
		sv.frames.Add(1)
	}
}

// pad counts one pad received.
func (r *run) pad() {
	if r.measuring.Load() {
		r.pads.Add(1)
	}
}

// command records one move's latency through a server; held says it was
// sent at night or in a vote (its view comes later than its reply).
func (r *run) command(sv *serverRun, d time.Duration, held bool) {
	if r.measuring.Load() {
		sv.command(d)
		r.commands.Add(1)
		r.lat.Record(d)
		if held {
			r.held.Add(1)
		} else {
			r.dayLat.Record(d)
		}
		if h := r.sec.Load(); h != nil {
			h.Record(d)
		}
	}
}

var nowMark = []byte(`"now":`)

// stamped records how long ago the server stamped an update it has just
// read (a server on this machine only: another's clock is not this one).
func (r *run) stamped(data []byte) {
	if !r.local || !r.measuring.Load() {
		return
	}
	// "now" is a number field of the message itself: inside a string its
	// quotes would be escaped.
	i := bytes.LastIndex(data, nowMark)
	if i < 0 {
		return
	}
	j := i + len(nowMark)
	k := j
	for k < len(data) && '0' <= data[k] && data[k] <= '9' {
		k++
	}
	stamp, err := strconv.ParseInt(string(data[j:k]), 10, 64)
	if err != nil {
		return
	}
	r.viewDelay.Record(time.Duration(time.Now().UnixMilli()-stamp) * time.Millisecond)
}

// refused counts a move a server refused: an expected game refusal, or
// an error.
func (r *run) refused(sv *serverRun, code string) {
	if !expectedRefusals[code] {
		r.fail(sv, "error:"+code)
		return
	}
	r.countRefusal(code)
}

// countRefusal counts a refusal that is no error: an expected game
// refusal, or with failover a command refused because its table's room
// stopped with the command on its way, which the seat gets over by
// reconnecting, as the protocol says.
func (r *run) countRefusal(code string) {
	if r.measuring.Load() {
		r.mu.Lock()
		r.refusals[code]++
		r.mu.Unlock()
	}
}

// fail counts an error of a kind, at the server it came through (nil: at
// none).
func (r *run) fail(sv *serverRun, kind string) {
	r.mu.Lock()
	r.errs[kind]++
	if sv != nil {
		sv.errs[kind]++
	}
	r.mu.Unlock()
}

func (r *run) errorCount() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	var n int64
	for _, v := range r.errs {
		n += v
	}
	return n
}

// think draws a pause before a move.
func (r *run) think(src *rng.Source) time.Duration {
	t := r.cfg.Think
	if t <= 0 {
		return 0
	}
	return t/2 + time.Duration(src.Intn(int(t)+1))
}

func (r *run) connect(delta int64) {
	n := r.connected.Add(delta)
	for i := 0; i < 100; i++ { // bounded: each failed swap means a larger peak arrived
		p := r.peak.Load()
		if n <= p || r.peak.CompareAndSwap(p, n) {
			break
		}
	}
}

// maxGamesPerTable bounds the games one table plays in a run.
const maxGamesPerTable = 1 << 20

// table plays game after game at one table until the run stops.
func (r *run) table(ctx context.Context, idx, humans, seats int) {
	first := true
	for g := 0; g < maxGamesPerTable && ctx.Err() == nil && !r.closing.Load(); g++ {
		err := r.game(ctx, idx, g, humans, seats, &first)
		if first {
			first = false
			r.started.Add(1)
		}
		if err != nil && ctx.Err() == nil {
			select { // back off before trying again
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

// game plays one game at a new table: create, join and connect every seat,
// start, play to the end.
func (r *run) game(ctx context.Context, idx, g, humans, seats int, first *bool) error {
	gctx, cancel := context.WithTimeout(ctx, r.cfg.GameTimeout)
	defer cancel()
	n := len(r.srvs)
	hi := homeOf(idx, n)
	fail := func(sv *serverRun, kind string, err error) error {
		if ctx.Err() == nil {
			r.fail(sv, kind)
		}
		return err
	}
	// The bench's bots (filling a last table) move at once: the bench
	// measures the server, and its own players think as Config.Think says.
	req := client.CreateRequest{Name: fmt.Sprintf("bench %d", idx), Players: seats, TimingsMS: r.cfg.Timings, Pace: "instant"}
	created, hi, err := r.create(gctx, hi, req)
	home := r.srvs[hi]
	if err != nil {
		return fail(home, "create", err)
	}
	owner := r.routeTo(created.Lobby.Owner)
	conns := make([]*client.Conn, 0, humans)
	via := make([]int, humans) // each seat's server
	tokens := make([]string, humans)
	ss := make([]*seat, humans)
	defer func() {
		for i, c := range conns {
			if ss[i] != nil {
				ss[i].release() // its connection now, perhaps another after a reconnect
				continue
			}
			c.CloseNow()
			r.connect(-1)
		}
	}()
	for i := 0; i < humans; i++ {
		tok := ""
		if i == 0 {
			tok = created.HostToken
		}
		via[i] = hi // by table: every seat through the table's server
		if r.cfg.Spread == SpreadSeats {
			via[i] = seatServer(r.cfg.Spread, idx, i, n)
		}
		var j client.Joined
		via[i], err = r.retry(gctx, via[i], func(ctx context.Context, sv *serverRun) (err error) {
			j, err = sv.api.Join(ctx, created.Table, fmt.Sprintf("bench %d.%d", idx, i+1), 0, tok)
			return err
		})
		if err != nil {
			return fail(r.srvs[via[i]], "join", err)
		}
		var c *client.Conn
		if owner != nil {
			c, via[i], err = r.dialOwner(gctx, owner, via[i], created.Table, j.Token)
			if err == nil {
				r.atOwner.Add(1)
			} else if gctx.Err() == nil {
				r.ownerFallbacks.Add(1)
			}
		}
		if c == nil {
			via[i], err = r.retry(gctx, via[i], func(ctx context.Context, sv *serverRun) (err error) {
				c, err = sv.api.Dial(ctx, created.Table, j.Token, 0)
				return err
			})
		}
		if err != nil {
			return fail(r.srvs[via[i]], "dial", err)
		}
		conns, tokens[i] = append(conns, c), j.Token
		r.connect(1)
	}
	errs := make([]error, len(conns))
	var wg sync.WaitGroup
	for i, c := range conns {
		ss[i] = newSeat(gctx, r, via[i], c, rng.Derive(r.cfg.Seed, uint64(idx)<<20|uint64(g)<<5|uint64(i)), created.Table, tokens[i])
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs[i] = ss[i].play()
		}(i)
	}
	var ctlErr error
	if humans < seats {
		ctlErr = ss[0].control(wire.ClientMessage{Type: "host", Action: "add_bots"})
	}
	if ctlErr == nil {
		ctlErr = ss[0].control(wire.ClientMessage{Type: "host", Action: "start"})
	}
	if *first {
		*first = false
		r.started.Add(1)
	}
	if ctlErr != nil {
		cancel()
		wg.Wait()
		kind := "start"
		if c := codeOf(ctlErr); c != "" {
			kind += ":" + c // the server's refusal, e.g. start:not_ready
		}
		return fail(ss[0].server(), kind, ctlErr)
	}
	r.gamesStarted.Add(1)
	wg.Wait()
	ended := false
	for i, s := range ss {
		s.mu.Lock()
		e, sv := s.ended && errs[i] == nil, s.sv
		s.mu.Unlock()
		ended = ended || e
		switch {
		case errs[i] == nil:
			r.played(sv, slotOf(idx, i))
		case ctx.Err() != nil: // the run is over: not an error
		case errors.Is(errs[i], errFailover):
			r.fail(sv, "failover")
		case gctx.Err() != nil:
			r.fail(sv, "game_timeout")
		default:
			r.fail(sv, "dropped")
		}
	}
	if ended {
		r.finAll.Add(1)
		home.finAll.Add(1)
		if r.measuring.Load() {
			r.finished.Add(1)
			home.finished.Add(1)
		}
	}
	if r.track {
		logs := make([][]string, len(ss))
		for i, s := range ss {
			logs[i] = s.log.kinds
		}
		r.lost.Add(int64(seatConflicts(logs)))
	}
	if r.cfg.KeepTables {
		r.keep(created.Table, home, ended, ss)
	}
	return nil
}

// create makes a game's table on server hi. A server that drains refuses
// new tables (its own play on): the game is made on the next server that
// takes it, as a load balancer would; with failover, so is one that cannot
// be reached, within the wait. It returns the server the table was made on.
func (r *run) create(ctx context.Context, hi int, req client.CreateRequest) (client.Created, int, error) {
	n := len(r.srvs)
	var created client.Created
	var err error
	at := hi
	if r.cfg.Failover > 0 {
		at, err = r.onServers(ctx, time.Now().Add(r.cfg.Failover), hi, func(ctx context.Context, sv *serverRun) (err error) {
			created, err = sv.api.Create(ctx, req)
			return err
		})
	} else {
		created, err = r.srvs[hi].api.Create(ctx, req)
		for k := 1; k < n && refusedDraining(err); k++ {
			at = (hi + k) % n
			created, err = r.srvs[at].api.Create(ctx, req)
		}
	}
	if err != nil {
		return created, hi, err
	}
	if at != hi {
		r.srvs[hi].drainedAway.Add(1)
		r.moved.Add(1)
	}
	return created, at, nil
}

// retry runs try on server i, and with failover on the next servers in
// turn while it fails in a way another try may pass; it returns the server
// of the last try.
func (r *run) retry(ctx context.Context, i int, try func(ctx context.Context, sv *serverRun) error) (int, error) {
	if r.cfg.Failover <= 0 {
		return i, try(ctx, r.srvs[i])
	}
	return r.onServers(ctx, time.Now().Add(r.cfg.Failover), i, try)
}

// keep records a game as its seats saw it (Config.KeepTables).
func (r *run) keep(table string, home *serverRun, ended bool, ss []*seat) {
	t := TableSeen{Table: table, Server: home.url, Ended: ended}
	for _, s := range ss {
		t.Seats = append(t.Seats, SeatSeen{Seat: s.conn().Seat, Events: s.log.kinds, Reconnects: s.reconnects})
	}
	if len(t.Seats) > 0 {
		t.Events = t.Seats[0].Events
	}
	r.mu.Lock()
	r.seen = append(r.seen, t)
	r.mu.Unlock()
}

// Summary is a Result in words, one figure a line.
func (res Result) Summary() string {
	s := fmt.Sprintf("players %d at %d tables (peak %d connected; %d played a game to its end), think %d ms, bench at nice %d\n",
		res.Players, res.Tables, res.ConnectedPeak, res.PlayersPlayed, res.ThinkMS, res.Nice)
	s += fmt.Sprintf("ramp %.1f s (complete: %v), window %.1f s\n", res.RampSeconds, res.RampComplete, res.WindowSeconds)
	s += fmt.Sprintf("games finished %d in the window (%d in all)\n", res.GamesFinished, res.GamesFinishedTotal)
	if res.TablesMoved > 0 {
		s += fmt.Sprintf("games made on another server because their own drained (or, with failover, failed): %d\n", res.TablesMoved)
	}
	s += fmt.Sprintf("commands %d (%.0f/s), refusals %d\n", res.Commands, res.CommandsPerSec, res.Refusals)
	s += fmt.Sprintf("latency command->reply: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms\n",
		res.P50ms, res.P90ms, res.P99ms, res.P999ms, res.MaxMs)
	s += fmt.Sprintf("  speeches (the reply follows the view): p50 %.2f ms, p99 %.2f ms; %d commands at night or in a vote (their view comes at the next night tick or the vote's close)\n",
		res.DayP50ms, res.DayP99ms, res.HeldCommands)
	if res.ViewDelayP50ms != nil && res.ViewDelayP99ms != nil {
		s += fmt.Sprintf("from the server's stamp on a view to reading it: p50 %.0f ms, p99 %.0f ms (whole ms)\n",
			*res.ViewDelayP50ms, *res.ViewDelayP99ms)
	}
	if w, ok := res.worstSecond(); ok {
		s += fmt.Sprintf("worst second: %d s into the window, p99 %.2f ms, max %.2f ms over %d commands\n",
			w.T, w.P99ms, w.MaxMs, w.Commands)
	}
	s += fmt.Sprintf("frames %d received, %.0f frames/s, and %d pads\n", res.Frames, res.FramesPerSec, res.Pads)
	s += fmt.Sprintf("errors %d", res.Errors)
	keys := make([]string, 0, len(res.ErrorKinds))
	for k := range res.ErrorKinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s += fmt.Sprintf(" %s=%d", k, res.ErrorKinds[k])
	}
	s += "\n"
	s += fmt.Sprintf("games started %d, of which %d did not end\n", res.GamesStarted, res.GamesUnfinished)
	if res.FailoverMS > 0 || res.Reconnects > 0 {
		s += fmt.Sprintf("failover within %d ms: %d reconnects", res.FailoverMS, res.Reconnects)
		if res.Reconnects > 0 {
			s += fmt.Sprintf(", from the break to the first frame back p50 %.0f ms, p99 %.0f ms, max %.0f ms;",
				res.FailoverGapP50ms, res.FailoverGapP99ms, res.FailoverGapMaxMs)
			keys := make([]string, 0, len(res.ReconnectCauses))
			for k := range res.ReconnectCauses {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				s += fmt.Sprintf(" %s=%d", k, res.ReconnectCauses[k])
			}
		}
		s += "\n"
	}
	if res.FailoverMS > 0 || res.TablesSeen != nil {
		s += fmt.Sprintf("events lost (a seat's numbers skipped or went back, a kind it was told changed, or seats disagreed on a public event): %d\n", res.Lost)
	}
	if res.AtOwner > 0 || res.OwnerFallbacks > 0 {
		s += fmt.Sprintf("seats connected at their table's owner: %d; through the server they were given, the owner failing: %d\n", res.AtOwner, res.OwnerFallbacks)
	}
	if len(res.PerServer) > 1 {
		s += fmt.Sprintf("by server (spread by %s):\n", res.Spread)
		for _, f := range res.PerServer {
			s += f.summaryLine()
		}
	}
	if sv := res.Server; sv != nil {
		if len(res.PerServer) > 1 {
			s += "the first server's memory and CPU:\n"
		}
		p := sv.Peak
		s += fmt.Sprintf("server at peak: %.0f connections, RSS %.1f MiB (%.1f KiB/conn), heap in use %.1f MiB (%.1f KiB/conn), sys %.1f MiB, %.0f goroutines\n",
			p.Connections, p.RSS/(1<<20), p.RSSPerConn/1024, p.HeapInuse/(1<<20), p.HeapPerConn/1024, p.Sys/(1<<20), p.Goroutines)
		s += fmt.Sprintf("server baseline RSS %.1f MiB, max RSS %.1f MiB, CPU %.2f cores in the window\n",
			sv.Baseline.RSS/(1<<20), sv.MaxRSS/(1<<20), sv.CPU)
	}
	return s
}

// worstSecond returns the window's second with the highest p99.
func (res Result) worstSecond() (Second, bool) {
	var w Second
	for _, sec := range res.Seconds {
		if sec.P99ms > w.P99ms {
			w = sec
		}
	}
	return w, len(res.Seconds) > 0
}
