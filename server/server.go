package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"mafia/account"
	"mafia/admission"
	"mafia/bot"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/httpguard"
	"mafia/internal/lograte"
	"mafia/room"
	"mafia/store"
)

// Config is what a server needs.
type Config struct {
	// Store is every capability of the store the server uses: the tables
	// and rooms (room.Store), accounts, ratings, club members, the leases
	// of a cluster, the write health and counts. It needs nearly all of
	// them, so it takes store.All, as both stores offer.
	Store store.All
	Clock room.Clock   // nil: the wall clock
	Log   *slog.Logger // nil: discard
	// LimitClock is the clock of the limits a client's traffic meets (its
	// frames, chat lines, connections, tables made, a flood's penalty);
	// nil: Clock. They measure the client's real rate: a test that moves
	// the games' clock by hand while its pages send on their own timers
	// (pings, the night's beat) gives them the wall clock, or a frozen
	// game clock would take every frame of those timers from a bucket
	// that never fills again.
	LimitClock room.Clock
	// Render turns a refusal into a sentence in a language ("ka", "en",
	// "ru"); nil renders the code.
	Render func(lang string, err error) string
	// Vocabulary gives every code its kind, and so its status: the one
	// vocabulary of the program, built once from every package's Kinds
	// where the packages are wired (site.Vocabulary, in cmd/mafia), so a
	// code has one status from every handler (nil: this package's own
	// codes and those it passes on).
	Vocabulary *httpapi.Vocabulary
	// Guard decides the client's address, Secure cookies and trusted
	// origins (nil: one that trusts no proxy, with Origins as its patterns).
	Guard *httpguard.Guard
	// Origins are extra trusted origins (host patterns, see
	// httpguard.Config.Origins) of the Guard made when Guard is nil;
	// same-origin is always trusted.
	Origins []string
	// Limits bound what clients may hold (connections, frames, chat,
	// tables); Timeouts bound idle and slow connections.
	Limits   Limits
	Timeouts Timeouts
	// MaxFrame is the largest client frame accepted (default 4 KiB).
	MaxFrame int64
	// Rate and Burst limit each connection's messages per second (defaults
	// 20 and 40).
	Rate  float64
	Burst int
	// SendBuffer is each connection's frame queue (default 64).
	SendBuffer int
	// GoroutinePerConnection reads each WebSocket on a goroutine of its
	// own for as long as it is open, as every platform but Linux does,
	// instead of with the poller that gives a connection a goroutine only
	// while it has bytes to read (poll.go; `mafia serve --ws-poller=false`).
	GoroutinePerConnection bool
	// Heartbeat is how often the server records that it is alive (default 1 s).
	Heartbeat time.Duration
	// StoreHold is how long /healthz keeps answering 503 after the store's
	// last failed write (default 5 s; see store.WriteHealth.Failing).
	StoreHold time.Duration
	// LogEvery is how often a repeated warning or error is logged (default
	// 10 s): the first of each kind at once, then at most one line of that
	// kind per interval with the number suppressed (package lograte), by
	// Clock. Negative: no limit.
	LogEvery time.Duration
	// SeatsPerAddress bounds the seats of one table joined from one
	// address (default room.DefaultSeatsPerAddress; negative: no limit).
	SeatsPerAddress int
	// Policy, if set, is consulted before the seat rules at every door of
	// a table (a join, a seat's WebSocket, a relayed one: room.Config.Policy):
	// moderation (a ban list) sits there; mafia serve gives the accounts'
	// logins the same (account.Config.Policy). It is called on a table's
	// goroutine: it must answer from memory.
	Policy admission.Policy
	// NightTick is the rooms' night delivery cadence (room.Config.NightTick;
	// default 1 s).
	NightTick time.Duration
	// FreezeAfter is how long a game goes on with no person at its table
	// before it freezes (room.Config.FreezeAfter; default
	// room.DefaultFreezeAfter, the minute docs/protocol.md states).
	FreezeAfter time.Duration
	// DealSeed, for tests only, gives each game's deal seed
	// (room.Config.DealSeed; nil: secret and random, as mafia serve
	// always runs).
	DealSeed func() uint64
	// Pace is the bots' pace at a table whose create request names none
	// (room.Settings.Pace; default room.PaceHuman: tables made online are
	// made by people). Tests that are not about pace set room.PaceInstant.
	Pace string
	// Accounts, when set, seats a logged-in player as their account and a
	// bot account's token as that bot (package account); nil: every seat
	// is a guest's.
	Accounts *account.Service
	// Voice, when set, carries the voices of the tables made with voice
	// (room.Settings.Voice): their "voice" messages go to it (voice.go;
	// package voice, wired by mafia serve). nil: every voice message is
	// refused voice_off.
	Voice Voice
	// Cluster, when set, makes the server one node of a cluster on a
	// shared store that keeps leases (cluster.go); nil: it is alone.
	Cluster *Cluster
}

// Server is the running service.
type Server struct {
	cfg Config
	// relayTurn is the room.TurnGroup of the relayed sessions (relayed.go).
	relayTurn relayTurns
	log       *slog.Logger
	metrics   *metrics
	// resp writes every refusal of the API (fail, internal/httpapi).
	resp   *httpapi.Responder
	guard  *httpguard.Guard
	guards *guards
	mu     sync.Mutex
	rooms  map[string]*room.Room
	// endedHooks are called with a table's id once its game has ended
	// (OnEnded).
	endedHooks []func(id string)
	// stops counts the rooms running or not yet through OnStop (Close
	// waits for them: roomstops.go).
	stops   *roomStops
	damaged map[string]struct{} // tables set aside (see setAside)
	stop    chan struct{}
	wg      sync.WaitGroup
	// peers counts the connections' goroutines (reader, writer, flood), so
	// that Close returns only once every connection has ended; closing
	// says, once set, that they end because the server is shutting down.
	peers sync.WaitGroup
	// pings are the connections a sweep pings when they fall silent
	// (pings.go).
	pings pings
	// reads holds the WebSockets parked between their frames (poll.go).
	reads reads
	// rates counts the ratings of ended games under way (rated.go).
	rates   sync.WaitGroup
	closing atomic.Bool
	// closeOnce makes Close's work happen once, however often it is called.
	closeOnce sync.Once
	// ready is set once Resume has finished; draining once Drain has been
	// called (drain.go).
	ready, draining atomic.Bool
	mux             *http.ServeMux
	// own is the node's leases in a cluster (nil alone); ownErr why the
	// Cluster given cannot be (Resume returns it).
	own    *ownership
	ownErr error
}

// New makes a server on a store. Call Resume to bring back unfinished games.
func New(cfg Config) *Server {
	if cfg.Clock == nil {
		cfg.Clock = room.RealClock{}
	}
	if cfg.LimitClock == nil {
		cfg.LimitClock = cfg.Clock
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Render == nil {
		cfg.Render = func(_ string, err error) string { return err.Error() }
	}
	if cfg.Vocabulary == nil {
		cfg.Vocabulary = Vocabulary
	}
	if cfg.MaxFrame <= 0 {
		cfg.MaxFrame = 4096
	}
	if cfg.Rate <= 0 {
		cfg.Rate = 20
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 40
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = time.Second
	}
	if cfg.Pace == "" {
		cfg.Pace = room.PaceHuman
	}
	if cfg.StoreHold <= 0 {
		cfg.StoreHold = 5 * time.Second
	}
	if cfg.LogEvery == 0 {
		cfg.LogEvery = 10 * time.Second
	}
	if cfg.LogEvery > 0 {
		// A failing store makes every room log the same error at every
		// step: the log must not grow with the games in play.
		cfg.Log = slog.New(lograte.New(cfg.Log.Handler(), cfg.LogEvery, cfg.Clock.Now))
	}
	if cfg.Guard == nil {
		g, err := httpguard.New(httpguard.Config{Origins: cfg.Origins})
		if err != nil {
			cfg.Log.Error("origin patterns", "err", err)
			g, _ = httpguard.New(httpguard.Config{})
		}
		cfg.Guard = g
	}
	files := fileLimit()
	if files == 0 {
		files = 16384 // no limit to read: as if it were a common one
	}
	cfg.Limits = cfg.Limits.withDefaults(files)
	cfg.Timeouts = cfg.Timeouts.withDefaults()
	s := &Server{cfg: cfg, log: cfg.Log, metrics: newMetrics(), guard: cfg.Guard,
		rooms: map[string]*room.Room{}, stops: newRoomStops(), damaged: map[string]struct{}{}, stop: make(chan struct{})}
	if cfg.Cluster != nil {
		s.own, s.ownErr = newOwnership(*cfg.Cluster, cfg.Store)
	}
	s.guards = newGuards(cfg.Limits, s.inLobby)
	s.resp = s.responder()
	s.metrics.watchStore(cfg.Store)
	s.metrics.watchServer(s.tablesByStatus, s.Ready, s.Draining)
	s.routes()
	return s
}

func (s *Server) roomConfig() room.Config {
	m := s.metrics
	return room.Config{
		Store: s.cfg.Store, Clock: s.cfg.Clock, Log: s.log, SendBuffer: s.cfg.SendBuffer, NightTick: s.cfg.NightTick,
		SeatsPerAddress: s.cfg.SeatsPerAddress, FreezeAfter: s.cfg.FreezeAfter, OwnerOf: s.ownerOf,
		AddrsOf: func(person int64) []string { return s.guards.seen.of(person) }, Policy: s.cfg.Policy,
		Metrics: room.Metrics{
			Command: func(d time.Duration, ok bool) {
				m.latency.Observe(d.Seconds())
				if ok {
					m.commands.WithLabelValues("ok").Inc()
				} else {
					m.commands.WithLabelValues("refused").Inc()
				}
			},
			GameStarted: func() { m.games.Inc() },
			GameEnded:   func() { m.games.Dec(); m.gamesTotal.Inc() },
			GameFrozen:  func() { m.games.Dec() }, // not in progress while frozen (nor loaded at start)
			GameThawed:  func() { m.games.Inc() },
			Dropped:     func() { m.dropped.Inc() },
		},
		Ended:    s.gameEnded,
		DealSeed: s.cfg.DealSeed,
		OnStop: func(id string) {
			s.mu.Lock()
			status := ""
			if r := s.rooms[id]; r != nil {
				status = r.Lobby().Status
			}
			delete(s.rooms, id)
			s.mu.Unlock()
			m.rooms.Dec()
			if s.own != nil {
				s.stopped(id, status)
			}
			s.stops.ended() // last: Close waits for it
		},
	}
}

// roomConfigFenced is roomConfig for a table run under its lease's token
// (0: none), in a cluster: its writes are fenced, and a write refused by
// the fence tells the server the table is lost.
func (s *Server) roomConfigFenced(token int64) room.Config {
	c := s.roomConfig()
	if s.own == nil {
		return c
	}
	c.Fence = token
	c.Lost = func(id string) { s.lost(id, "fenced") }
	return c
}

// createConfig is the room's Config for a new table: in a cluster, its
// lease is taken as soon as the table is stored, before anything else of
// it is written.
func (s *Server) createConfig() room.Config {
	c := s.roomConfigFenced(0)
	if s.own == nil {
		return c
	}
	c.Own = func(ctx context.Context, id string) (int64, error) {
		l, err := s.own.leases.Acquire(ctx, id, s.own.cfg.Node, s.own.cfg.TTL)
		if err != nil {
			return 0, err
		}
		s.mu.Lock()
		s.own.held[id] = l
		s.mu.Unlock()
		s.metrics.leasesTaken.WithLabelValues("create").Inc()
		return l.Token, nil
	}
	return c
}

func (s *Server) add(r *room.Room) {
	s.mu.Lock()
	s.rooms[r.ID()] = r
	s.mu.Unlock()
	s.metrics.rooms.Inc()
}

// Resume brings back every table still in the lobby or playing, each game at
// its last event with its clock resumed from the time that was left, and
// starts the heartbeat. A table whose record is damaged is set aside (see
// setAside) and the others are served; one that cannot be read for another
// reason (the store failing) is logged and left for a later request to
// bring back. It fails only when the store cannot list the tables at all.
func (s *Server) Resume(ctx context.Context) (int, error) {
	if s.ownErr != nil {
		return 0, s.ownErr
	}
	last, err := s.cfg.Store.LastHeartbeat(ctx)
	if err != nil {
		// Not knowing when the server stopped costs the games their time
		// left (each step starts over), not their service.
		s.log.Error("last heartbeat unreadable: every resumed step starts with its full time", "err", err)
		last = time.Time{}
	}
	n := 0
	for _, st := range []store.Status{store.StatusPlaying, store.StatusLobby} {
		ids, err := s.cfg.Store.TableIDs(ctx, store.KindOnline, st)
		if errors.Is(err, store.ErrDamaged) {
			// Rows that cannot be read at all: their tables are lost to
			// the listing (and refused when asked for); the rest go on.
			s.log.Error("list tables", "status", st, "err", err)
		} else if err != nil {
			return n, err
		}
		if s.own != nil {
			// A node of a cluster resumes only the tables nobody holds.
			n += s.resumeOwned(ctx, ids, last)
			continue
		}
		n += s.resumeAll(ctx, ids, last)
	}
	s.rateLeftOver(ctx)
	s.wg.Add(1)
	go s.heartbeat()
	if s.own != nil {
		s.wg.Add(2)
		go s.renewLeases()
		go s.scanLeases()
	}
	s.ready.Store(true)
	return n, nil
}

// resumeAll brings back the tables ids, several at once, and returns how
// many it brought back. A restart's time is its tables' own work, each
// independent of the others (its rows read, its game replayed, its room
// started), so they are shared among as many workers as there are cores,
// two at least (a table's reads wait on the disk too): one after another,
// 910 games in play took about 0.45 s of a 2-core machine's one core
// (2026-12-06). A table whose record is damaged is set aside; one that
// cannot be read for another reason is logged and left for a later
// request.
func (s *Server) resumeAll(ctx context.Context, ids []string, last time.Time) int {
	var next, n atomic.Int64
	var wg sync.WaitGroup
	for range min(len(ids), max(2, runtime.GOMAXPROCS(0))) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(ids)); i = next.Add(1) - 1 {
				if s.resumeStored(ctx, ids[i], last) {
					n.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return int(n.Load())
}

// resumeStored brings back one table at a start (see resumeAll) and
// reports whether it did.
func (s *Server) resumeStored(ctx context.Context, id string, last time.Time) bool {
	st, err := s.read(ctx, id)
	var r *room.Room
	if err == nil {
		r, err = s.resume(st, last)
	}
	switch {
	case errors.Is(err, store.ErrDamaged):
		s.setAside(ctx, id, err)
		return false
	case errors.Is(err, store.ErrNotFound):
		return false
	case err != nil:
		s.log.Error("resume table", "table", id, "err", err)
		return false
	}
	if r.Lobby().Status == string(store.StatusPlaying) {
		s.metrics.games.Inc()
	}
	s.add(r)
	return true
}

func (s *Server) heartbeat() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.Heartbeat)
	defer t.Stop()
	failing := false
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := s.cfg.Store.Heartbeat(ctx, s.cfg.Clock.Now()); err != nil {
			s.log.Error("heartbeat", "err", err)
		}
		cancel()
		s.watchStore(&failing)
		select {
		case <-t.C:
		case <-s.stop:
			return
		}
	}
}

// room returns a running room, or resumes an ended table's room from the
// store so its result can still be seen. A table set aside as damaged is
// refused with CodeTableDamaged.
func (s *Server) room(ctx context.Context, id string) (*room.Room, error) {
	s.mu.Lock()
	r := s.rooms[id]
	s.mu.Unlock()
	if r != nil {
		return r, nil
	}
	if s.isDamaged(id) {
		return nil, &engine.Error{Code: CodeTableDamaged}
	}
	if s.closing.Load() {
		// A server shutting down brings no table back: it would write it
		// after its rooms stopped, beside the next server that resumes it.
		return nil, &engine.Error{Code: room.CodeStopped}
	}
	if s.own != nil {
		return s.clusterRoom(ctx, id)
	}
	st, err := s.read(ctx, id)
	if err == nil {
		if r, err = s.resumeOnce(st); err == nil {
			return r, nil
		}
	}
	switch {
	case errors.Is(err, store.ErrDamaged):
		s.setAside(ctx, id, err)
		return nil, &engine.Error{Code: CodeTableDamaged}
	}
	return nil, err
}

// resumeOnce resumes a table's room unless another request has already.
func (s *Server) resumeOnce(st stored) (*room.Room, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.rooms[st.table.ID]; r != nil {
		return r, nil
	}
	r, err := s.resume(st, time.Time{})
	if err != nil {
		return nil, err
	}
	s.rooms[st.table.ID] = r
	s.metrics.rooms.Inc()
	return r, nil
}

// Close stops every room and the heartbeat, then waits until every
// connection has ended: each is closed with 1001 (going away, "shutdown")
// after the frames already queued for it (a client that does not answer
// the close is let go after wsconn.CloseWait). From
// then on no table is brought back. Calling it again does nothing.
func (s *Server) Close() { s.closeOnce.Do(s.close) }

func (s *Server) close() {
	s.closing.Store(true)
	close(s.stop)
	s.wg.Wait()
	s.mu.Lock()
	rooms := make([]*room.Room, 0, len(s.rooms))
	for _, r := range s.rooms {
		rooms = append(rooms, r)
	}
	s.mu.Unlock()
	for _, r := range rooms {
		r.Stop()
	}
	// A room's Done closes before its OnStop runs: wait for those too.
	if !s.stops.wait(30 * time.Second) {
		s.log.Error("close: rooms stopped whose OnStop never returned")
	}
	if s.own != nil {
		s.own.letting.Wait() // the leases let go before the store closes
	}
	s.reads.stop()
	s.peers.Wait()
	s.reads.close()
	s.rates.Wait()
}

// Caps returns the connection caps in force: TCP connections of the public
// listener and WebSockets, in total.
func (s *Server) Caps() (tcp, ws int) { return s.cfg.Limits.MaxTCP, s.cfg.Limits.MaxConns }

// Handler returns the server's public HTTP handler: the lobby API, the
// WebSockets and health; any other path is 404. The binary mounts it beside
// the browser client and the host's assistant (internal/site).
func (s *Server) Handler() http.Handler { return s.mux }

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.HandleFunc("GET /readyz", s.readyz)
	// No /metrics and no profiler here: they are the operator's (OpsHandler).
	s.mux.HandleFunc("POST /api/tables", s.createTable)
	s.mux.HandleFunc("GET /api/tables", s.paced(s.listTables))
	// A table's own routes are served where the table is (cluster.go).
	s.mux.HandleFunc("GET /api/tables/{id}", s.paced(s.located(s.getTable)))
	s.mux.HandleFunc("POST /api/tables/{id}/join", s.located(s.joinTable))
	s.mux.HandleFunc("POST /api/tables/{id}/leave", s.located(s.leaveTable))
	s.mux.HandleFunc("GET /api/tables/{id}/ws", s.located(s.serveWS))
	s.mux.HandleFunc("GET /api/tables/{id}/log", s.paced(s.located(s.tableLog)))
	s.mux.HandleFunc("GET /api/tables/{id}/record", s.paced(s.located(s.tableRecord)))
	s.mux.HandleFunc("GET /api/ratings", s.paced(s.leaderboard))
}

// Kinds are the kinds of the server's own codes (engine.Kind).
var Kinds = map[engine.Code]engine.Kind{
	CodeMalformed: engine.KindInvalid, CodeTooLarge: engine.KindInvalid, CodeRateLimited: engine.KindTooMany, CodeNotWebSocket: engine.KindInvalid,
	CodeTableDamaged: engine.KindGone, CodeTooManyConnections: engine.KindTooMany, CodeSeatConnections: engine.KindTooMany,
	CodeSpectatorsFull: engine.KindBusy, CodeServerFull: engine.KindBusy, CodeCreatingTooFast: engine.KindTooMany,
	CodeTooManyTables: engine.KindTooMany, CodeFlood: engine.KindTooMany, CodeFloodWait: engine.KindTooMany,
	CodeDraining: engine.KindBusy, CodeTableMoving: engine.KindBusy, CodeVoiceOff: engine.KindConflict,
}

// Vocabulary is every code the server answers with: the engine's, the
// room's, the guard's, the HTTP layer's and its own (Config.Vocabulary's
// default; `mafia serve` gives the program's one, which holds these).
var Vocabulary = httpapi.NewVocabulary(engine.Kinds, room.Kinds, bot.Kinds, httpguard.Kinds, httpapi.Kinds, account.Kinds, Kinds)
