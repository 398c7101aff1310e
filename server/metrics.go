package server

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"mafia/account"
	"mafia/store"
)

// metrics are the server's Prometheus series.
type metrics struct {
	reg        *prometheus.Registry
	games      prometheus.Gauge
	gamesTotal prometheus.Counter
	rooms      prometheus.Gauge
	conns      prometheus.Gauge
	commands   *prometheus.CounterVec
	errors     *prometheus.CounterVec
	latency    prometheus.Histogram
	queued     prometheus.Histogram
	framesOut  prometheus.Counter
	framesIn   prometheus.Counter
	dropped    prometheus.Counter
	floods     prometheus.Counter
	// turnWhole and turnLeft count the frames written on a room's
	// goroutine at its turn's end (conn.go, turnEnd): the socket took
	// the batch whole, or part of it (a writer goroutine wrote the rest).
	turnWhole, turnLeft prometheus.Counter
	// pingsAlone and pingsRode count the server's WebSocket pings (pings.go):
	// written alone by the sweep, or in a batch of frames.
	pingsAlone, pingsRode prometheus.Counter
	// A cluster's leases (cluster.go): taken by why (create, resume,
	// takeover, demand), lost by why (fenced, renew, handover), and how
	// long a table taken over had had no owner.
	leasesTaken *prometheus.CounterVec
	leasesLost  *prometheus.CounterVec
	unowned     prometheus.Histogram
}

func newMetrics() *metrics {
	m := &metrics{
		reg:        prometheus.NewRegistry(),
		games:      prometheus.NewGauge(prometheus.GaugeOpts{Name: "mafia_games_running", Help: "Games being played now."}),
		gamesTotal: prometheus.NewCounter(prometheus.CounterOpts{Name: "mafia_games_finished_total", Help: "Games that reached a result."}),
		rooms:      prometheus.NewGauge(prometheus.GaugeOpts{Name: "mafia_rooms", Help: "Tables with a running room (lobby, playing, or lingering after the end)."}),
		conns:      prometheus.NewGauge(prometheus.GaugeOpts{Name: "mafia_connections", Help: "Open WebSocket connections."}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mafia_commands_total", Help: "Game commands handled, by result."},
			[]string{"result"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mafia_errors_total", Help: "Error frames sent to clients, by code."},
			[]string{"code"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "mafia_command_seconds",
			Help:    "From a command's arrival to the new views being queued for every seat.",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .25, .5, 1}}),
		queued: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "mafia_frame_queue_seconds",
			Help:    "From the room queuing a frame for a connection to its write returning: how long frames wait for their writer and the socket.",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .25, .5, 1}}),
		framesOut: prometheus.NewCounter(prometheus.CounterOpts{Name: "mafia_frames_sent_total", Help: "WebSocket frames written."}),
		framesIn: prometheus.NewCounter(prometheus.CounterOpts{Name: "mafia_frames_received_total",
			Help: "WebSocket frames read from clients and dealt with (accepted or refused, whatever they held)."}),
		dropped: prometheus.NewCounter(prometheus.CounterOpts{Name: "mafia_slow_clients_dropped_total", Help: "Connections dropped for reading too slowly."}),
		floods:  prometheus.NewCounter(prometheus.CounterOpts{Name: "mafia_floods_closed_total", Help: "Connections closed for sending frames that kept being refused."}),
		leasesTaken: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mafia_leases_taken_total",
			Help: "Table leases this node took, by why: create (a new table), resume (at its start), takeover (the owner's lease ran out), demand (a request for a table nobody held)."},
			[]string{"why"}),
		leasesLost: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mafia_leases_lost_total",
			Help: "Table leases this node lost or gave away, by why: fenced (a write refused: another node holds it), renew (a renewal refused), handover (a drain)."},
			[]string{"why"}),
		unowned: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "mafia_takeover_unowned_seconds",
			Help:    "For each table taken over from a node that stopped renewing: from that node's last renewal to the table running here again.",
			Buckets: []float64{.5, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 60}}),
	}
	turn := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mafia_frames_turn_written_total",
		Help: "WebSocket frames written on their room's goroutine as its turn ended, by write: whole (the socket took the batch at once) or left (a writer goroutine wrote the rest)."},
		[]string{"write"})
	m.turnWhole, m.turnLeft = turn.WithLabelValues("whole"), turn.WithLabelValues("left")
	m.reg.MustRegister(turn)
	pings := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mafia_pings_sent_total",
		Help: "WebSocket pings the server wrote to see that a client is there, by how: alone (a write of its own) or with_frames (in a batch of the room's frames, no write of its own)."},
		[]string{"how"})
	m.pingsAlone, m.pingsRode = pings.WithLabelValues("alone"), pings.WithLabelValues("with_frames")
	m.reg.MustRegister(pings)
	m.reg.MustRegister(m.games, m.gamesTotal, m.rooms, m.conns, m.commands, m.errors, m.latency, m.queued, m.framesOut, m.framesIn, m.dropped, m.floods,
		m.leasesTaken, m.leasesLost, m.unowned,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// watchServer adds the series read from the server at each scrape: the
// tables it owns (running rooms) by status, always with the lobby, playing
// and ended series (0 when none); whether it is ready (1) or not (0), as
// /readyz says; and whether it is draining.
func (m *metrics) watchServer(tables func() map[string]int, ready, draining func() bool) {
	m.reg.MustRegister(
		&tablesOwned{tables: tables, desc: prometheus.NewDesc("mafia_tables_owned",
			"Tables whose room runs on this server (the tables it owns), by status: lobby, playing, ended (lingering after the end).",
			[]string{"status"}, nil)},
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mafia_ready",
			Help: "1 while the server takes new tables and players (/readyz answers 200), else 0."},
			func() float64 { return b2f(ready()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mafia_draining",
			Help: "1 once the server drains (no new tables; the live ones play on), else 0."},
			func() float64 { return b2f(draining()) }),
	)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// tablesOwned is mafia_tables_owned, counted at each scrape.
type tablesOwned struct {
	tables func() map[string]int
	desc   *prometheus.Desc
}

func (c *tablesOwned) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *tablesOwned) Collect(ch chan<- prometheus.Metric) {
	n := c.tables()
	for _, st := range []store.Status{store.StatusLobby, store.StatusPlaying, store.StatusEnded} {
		if _, ok := n[string(st)]; !ok {
			n[string(st)] = 0
		}
	}
	for st, k := range n {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(k), st)
	}
}

// watchStore adds the store's write counts: commits, the requests they
// carried (their ratio is the group commit's batch), the time spent
// committing, and the commits held to gather more and for how long.
func (m *metrics) watchStore(wc store.WriteCounter) {
	m.reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "mafia_store_commits_total",
			Help: "Transactions the store's writer committed."},
			func() float64 { return float64(wc.WriteStats().Commits) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "mafia_store_writes_total",
			Help: "Writes (event appends, clocks) those transactions carried."},
			func() float64 { return float64(wc.WriteStats().Writes) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "mafia_store_commit_seconds_total",
			Help: "Time the store's writer spent writing and committing."},
			func() float64 { return wc.WriteStats().CommitTime.Seconds() }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "mafia_store_commits_held_total",
			Help: "Commits the store's writer held a moment to gather more writes (store.Gather)."},
			func() float64 { return float64(wc.WriteStats().Gathered) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "mafia_store_commit_held_seconds_total",
			Help: "Time the store's writer held those commits, from taking their first write."},
			func() float64 { return wc.WriteStats().GatherTime.Seconds() }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "mafia_store_retries_total",
			Help: "Transactions the database aborted for a deadlock or a serialization failure, which the store ran again (each is logged)."},
			func() float64 { return float64(wc.WriteStats().Retried) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "mafia_store_waits_total",
			Help: "Tries again of writes that met the database away (a restart, a failover), each 100-500 ms after the last, for up to 8 s."},
			func() float64 { return float64(wc.WriteStats().Waited) }),
	)
}

// watchAccounts adds the accounts' password hashing (account.Budget), read
// at each scrape: the hashes computed, those running now and waiting now,
// and the attempts refused because the queue was full (login_busy).
func (m *metrics) watchAccounts(svc *account.Service) {
	for _, c := range []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "mafia_password_hashes_total",
			Help: "Password hashes (argon2id) computed: signups, login attempts, changes of password."},
			func() float64 { return float64(svc.HashStats().Done) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mafia_password_hashing",
			Help: "Password hashes running now (at most the budget's ceiling)."},
			func() float64 { return float64(svc.HashStats().Running) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mafia_password_hash_queue",
			Help: "Login and signup attempts waiting for their turn to hash."},
			func() float64 { return float64(svc.HashStats().Queued) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "mafia_password_hash_refused_total",
			Help: "Login and signup attempts refused because the hashing queue was full (login_busy)."},
			func() float64 { return float64(svc.HashStats().Refused) }),
	} {
		_ = m.reg.Register(c) // once: a second OpsHandler finds them registered
	}
}
