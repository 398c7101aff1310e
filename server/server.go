package server

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
	"mafia/web"
)

// Config is what a server needs.
type Config struct {
	Store store.Store
	Clock room.Clock   // nil: the wall clock
	Log   *slog.Logger // nil: discard
	// Render turns a refusal into a sentence in a language ("ka", "en",
	// "ru"); nil renders the code.
	Render func(lang string, err error) string
	// Origins are extra allowed WebSocket origins (host patterns, as in
	// coder/websocket's OriginPatterns); same-origin is always allowed.
	Origins []string
	// MaxFrame is the largest client frame accepted (default 4 KiB).
	MaxFrame int64
	// Rate and Burst limit each connection's messages per second (defaults
	// 20 and 40).
	Rate  float64
	Burst int
	// SendBuffer is each connection's frame queue (default 64).
	SendBuffer int
	// Heartbeat is how often the server records that it is alive (default 1 s).
	Heartbeat time.Duration
	// NightTick is the rooms' night delivery cadence (room.Config.NightTick;
	// default 1 s).
	NightTick time.Duration
}

// Server is the running service.
type Server struct {
	cfg     Config
	log     *slog.Logger
	metrics *metrics
	mu      sync.Mutex
	rooms   map[string]*room.Room
	stop    chan struct{}
	wg      sync.WaitGroup
	mux     *http.ServeMux
}

// New makes a server on a store. Call Resume to bring back unfinished games.
func New(cfg Config) *Server {
	if cfg.Clock == nil {
		cfg.Clock = room.RealClock{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Render == nil {
		cfg.Render = func(_ string, err error) string { return err.Error() }
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
	s := &Server{cfg: cfg, log: cfg.Log, metrics: newMetrics(), rooms: map[string]*room.Room{}, stop: make(chan struct{})}
	s.metrics.watchStore(cfg.Store)
	s.routes()
	return s
}

func (s *Server) roomConfig() room.Config {
	m := s.metrics
	return room.Config{
		Store: s.cfg.Store, Clock: s.cfg.Clock, Log: s.log, SendBuffer: s.cfg.SendBuffer, NightTick: s.cfg.NightTick,
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
			Dropped:     func() { m.dropped.Inc() },
		},
		OnStop: func(id string) {
			s.mu.Lock()
			delete(s.rooms, id)
			s.mu.Unlock()
			m.rooms.Dec()
		},
	}
}

func (s *Server) add(r *room.Room) {
	s.mu.Lock()
	s.rooms[r.ID()] = r
	s.mu.Unlock()
	s.metrics.rooms.Inc()
}

// Resume brings back every table still in the lobby or playing, each game at
// its last event with its clock resumed from the time that was left, and
// starts the heartbeat.
func (s *Server) Resume(ctx context.Context) (int, error) {
	last, err := s.cfg.Store.LastHeartbeat(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, st := range []store.Status{store.StatusPlaying, store.StatusLobby} {
		tables, err := s.cfg.Store.Tables(ctx, st, false, 0)
		if err != nil {
			return n, err
		}
		for _, t := range tables {
			t, seats, err := s.cfg.Store.Table(ctx, t.ID)
			if err != nil {
				return n, err
			}
			log, err := s.cfg.Store.Events(ctx, t.ID)
			if err != nil {
				return n, err
			}
			clk, err := s.cfg.Store.Clock(ctx, t.ID)
			if err != nil {
				return n, err
			}
			r, err := room.Resume(s.roomConfig(), t, seats, log, clk, last)
			if err != nil {
				s.log.Error("resume table", "table", t.ID, "err", err)
				continue
			}
			if st == store.StatusPlaying {
				s.metrics.games.Inc()
			}
			s.add(r)
			n++
		}
	}
	s.wg.Add(1)
	go s.heartbeat()
	return n, nil
}

func (s *Server) heartbeat() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.Heartbeat)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := s.cfg.Store.Heartbeat(ctx, s.cfg.Clock.Now()); err != nil {
			s.log.Error("heartbeat", "err", err)
		}
		cancel()
		select {
		case <-t.C:
		case <-s.stop:
			return
		}
	}
}

// room returns a running room, or resumes an ended table's room from the
// store so its result can still be seen.
func (s *Server) room(ctx context.Context, id string) (*room.Room, error) {
	s.mu.Lock()
	r := s.rooms[id]
	s.mu.Unlock()
	if r != nil {
		return r, nil
	}
	t, seats, err := s.cfg.Store.Table(ctx, id)
	if err != nil {
		return nil, err
	}
	log, err := s.cfg.Store.Events(ctx, id)
	if err != nil {
		return nil, err
	}
	clk, _ := s.cfg.Store.Clock(ctx, id)
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.rooms[id]; r != nil {
		return r, nil
	}
	r, err = room.Resume(s.roomConfig(), t, seats, log, clk, time.Time{})
	if err != nil {
		// Not an online table (e.g. an in-person game of the host's
		// assistant, whose settings a room cannot read): not ours to serve.
		s.log.Info("table is not an online table", "table", id, "err", err)
		return nil, store.ErrNotFound
	}
	s.rooms[id] = r
	s.metrics.rooms.Inc()
	return r, nil
}

// Close stops every room and the heartbeat.
func (s *Server) Close() {
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
}

// Handler returns the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	s.mux.Handle("GET /metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	s.mux.HandleFunc("POST /api/tables", s.createTable)
	s.mux.HandleFunc("GET /api/tables", s.listTables)
	s.mux.HandleFunc("GET /api/tables/{id}", s.getTable)
	s.mux.HandleFunc("POST /api/tables/{id}/join", s.joinTable)
	s.mux.HandleFunc("POST /api/tables/{id}/leave", s.leaveTable)
	s.mux.HandleFunc("GET /api/tables/{id}/ws", s.serveWS)
	s.mux.HandleFunc("GET /api/tables/{id}/log", s.tableLog)
	// The browser client (package web): the page, its files, its catalogs.
	s.mux.Handle("GET /", web.Handler())
	s.mux.Handle("GET /t/{id}", web.Handler())
	s.mux.Handle("GET /api/i18n/{lang}", web.CatalogHandler())
}

// codeStatus maps an error code to an HTTP status.
func codeStatus(c engine.Code) int {
	switch c {
	case room.CodeBadToken, room.CodeNotHost:
		return http.StatusForbidden
	case room.CodeBusy:
		return http.StatusServiceUnavailable
	case room.CodeInternal, room.CodeStopped:
		return http.StatusInternalServerError
	case room.CodeTableFull, room.CodeSeatTaken, room.CodeAlreadyStarted, room.CodeNotOver:
		return http.StatusConflict
	case "not_found":
		return http.StatusNotFound
	}
	return http.StatusBadRequest
}
