// Package cluster is the NATS half of a cluster of `mafia serve` nodes:
// each node runs a NATS server embedded in its process (routed to its
// peers' embedded servers with NATS's own clustering) or connects to an
// external one, announces itself on a presence subject, gathers the lobby
// of every live node, and relays a WebSocket session opened on one node to
// the node that owns its table (docs/cluster-bus.md): the sessions' frames
// go between two nodes on a TCP link of their own (link.go), on the bus
// to a node without one. It decides no table's owner (the server's leases
// do) and reads no frame it relays.
package cluster

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nuid"

	"mafia/internal/httpapi"
)

// Subjects every node uses (docs/cluster-bus.md lists them all).
const (
	// SubjectPresence carries every node's announcement.
	SubjectPresence = "mafia.presence"
	// SubjectLobby is the request every node answers with its lobby rows.
	SubjectLobby = "mafia.lobby"
	// subjectOpen is prefixed to a node's id: the request that opens a
	// relayed session with that node.
	subjectOpen = "mafia.relay.open."
	// SubjectFree carries the id of a table whose lease a node has just
	// let go (a drain hands it over): the others may take it at once
	// instead of at their next look for leases that ran out.
	SubjectFree = "mafia.free"
	// subjectBatch is prefixed to a node's id: the batches of relayed
	// sessions' messages headed to that node (outbox.go).
	subjectBatch = "mafia.relay.n."
)

// Owners tells a node which tables it owns now (the lease work satisfies
// it); a node announces them, and the other nodes relay their tables' sessions
// to it.
type Owners interface {
	// Owned lists the tables this node owns.
	Owned() []string
}

// Config configures a Node. ID is required; the rest has defaults.
type Config struct {
	// ID names the node in the cluster; it must be unique and a valid
	// NATS subject token (no dots, spaces or wildcards).
	ID string
	// PublicURL is the node's public HTTP URL, announced to its peers.
	PublicURL string
	// LocalURL is where this node's own server listens for the sessions
	// relayed to it (http://127.0.0.1:port; empty: PublicURL), dialled
	// only by a node with neither Accept nor a local handler (Local,
	// Handler): with one, a relayed handshake is served in process
	// (Accept, else dialLocal) and LocalURL gives only its Host.
	LocalURL string
	// NATS is an external server's URL (nats://host:port); empty: a NATS
	// server is embedded in the node.
	NATS string
	// Secrets are the cluster's shared secrets (ReadSecrets): the first is
	// the current one, the others are accepted too (a rotation). From
	// them come the routes' password and the key that seals every message
	// on the bus (secret.go). NewNode refuses a Config with none unless
	// Insecure says the bus is open to whoever reaches it.
	Secrets  [][]byte
	Insecure bool
	// RouteTLS, when set, makes the embedded server's routes mutual TLS
	// (RouteTLSConfig): it serves and presents its certificate and
	// requires the peer's, signed by the CA.
	RouteTLS *tls.Config
	// RouteListen is the embedded server's route address (host:port;
	// default 127.0.0.1:0, a free port); ClientListen its client address
	// (default 127.0.0.1:0): NATS cannot route with the client listener
	// off (nats-server's DontListen never starts the routes), so it
	// listens, but only for a random token of this process's own that
	// its in-process connection presents.
	RouteListen  string
	ClientListen string
	// LinkListen, when set (host:port; port 0 a free one), is where the
	// node takes the other nodes' relay links (link.go): the relayed
	// sessions' batches go between two nodes that both have one on a TCP
	// connection of their own, off NATS. It is announced (NodeInfo.Link),
	// so it names a host (Start refuses one on every interface).
	// Empty: the batches go on the bus, as to a peer that announces none.
	// With RouteTLS the links are mutual TLS too.
	LinkListen string
	// DialLink dials a peer's link address (nil: a net.Dialer); a test
	// taps a link's bytes with it, as one on the wire would.
	DialLink func(ctx context.Context, network, addr string) (net.Conn, error)
	// Peers are the route URLs (nats-route://host:port) of other nodes'
	// embedded servers; NATS gossips the rest of the mesh.
	Peers []string
	// ClusterName is the embedded servers' cluster name (default "mafia").
	ClusterName string
	// Interval is how often the node announces itself (default 1 s);
	// a node unheard of for Missed intervals (default 3) is gone.
	Interval time.Duration
	Missed   int
	// Now and Tick are the clock (default the wall clock and a
	// time.Ticker); Tick returns a channel of ticks and a stop function.
	Now  func() time.Time
	Tick func(d time.Duration) (<-chan time.Time, func())
	// Ready reports the node's readiness, announced (nil: ready).
	Ready func() bool
	// Owners lists the tables the node owns (nil: none).
	Owners Owners
	// Lobby is the node's own lobby (nil: no rows); LobbyWait bounds how
	// long a lister waits for the other nodes' rows (default 500 ms).
	Lobby     LobbySource
	LobbyWait time.Duration
	// Window is a relayed session's flow-control window in frames, each
	// way (default 64, the server's send buffer); OpenWait bounds the
	// opening of a session with the owner (default 5 s).
	Window   int
	OpenWait time.Duration
	// Local is the node's own server, which serves the HTTP requests
	// other nodes pass to it (Forward); Handler sets it too.
	Local http.Handler
	// Accept, if set, serves a relayed session's handshake in process, as
	// the owner's server's own entry for it (server.ServeRelayed): r is the
	// handshake as the client sent it (HopHeader set, the client's address
	// its RemoteAddr), table its table. It returns the session's Conn, or
	// nil having answered w with the server's refusal. Without it the owner
	// dials its own server's WebSocket (dialLocal).
	Accept func(w http.ResponseWriter, r *http.Request, table string) Conn
	// OnFree is told the table of each SubjectFree message another node
	// publishes (Free); nil: they are ignored. It must not block.
	OnFree func(table string)
	// Say renders a relay's own error code in the request's language
	// (nil: the code itself).
	Say func(lang, code string) string
	// Vocabulary gives every code its kind, and so its status: the one
	// vocabulary of the program, built once from every package's Kinds
	// where the packages are wired (site.Vocabulary, in cmd/mafia), so a
	// code has one status from every handler (nil: this package's own
	// codes and the HTTP layer's).
	Vocabulary *httpapi.Vocabulary
	Log        *slog.Logger
}

// NodeInfo is what a node last announced, as another node heard it.
type NodeInfo struct {
	ID     string   `json:"id"`
	URL    string   `json:"url"`
	Ready  bool     `json:"ready"`
	Tables []string `json:"tables"`
	// Link is the node's relay link address (Config.LinkListen), empty
	// when it has none.
	// Named "relay_link" since the link's hello answers a challenge: a
	// node of the build before it announced "link", and the two relay
	// on the bus, not on a link neither could open.
	Link string `json:"relay_link,omitempty"`
	// Run names this start of the node (a restart gets a new one); Beat
	// counts its announcements in that run (1 for the first).
	Run  string `json:"run"`
	Beat uint64 `json:"beat"`
	// Leaving is set in the announcement of a node that is closing.
	Leaving bool `json:"leaving,omitempty"`
	// Heard is when this node last heard it, by its own clock.
	Heard time.Time `json:"-"`
}

// Node is one member of the cluster.
type Node struct {
	cfg Config
	// resp writes the node's own refusals (refusals).
	resp     *httpapi.Responder
	respOnce sync.Once
	ns       *natsserver.Server
	nc       *nats.Conn
	keys     *busKeys // nil: an insecure bus

	// routesRefused counts the routes the embedded server refused (no
	// or a wrong password); dropped the bus messages not sealed with the
	// cluster's secret (a stranger's, or one meant for another subject).
	routesRefused, dropped atomic.Int64
	// seen are the reply subjects of the requests served lately, by
	// their time (fresh): a request sent again is a replay.
	seenMu sync.Mutex
	seen   map[string]time.Time
	pruned time.Time

	mu       sync.Mutex
	peers    map[string]NodeInfo
	sessions map[string]*session
	// outboxes are the relayed sessions' outboxes, by peer node; quitOut
	// stops their senders (after a last flush) when the node closes.
	outboxes map[string]*outbox
	// turns sends the outboxes at the end of a room's turn (turn.go).
	turns   *turnFlusher
	quitOut chan struct{}
	// linkLn takes the other nodes' relay links, announced as linkAddr;
	// links are those it holds; linkAddrs the peers' link addresses, as
	// heard (link.go).
	linkLn    net.Listener
	linkAddr  string
	links     map[net.Conn]struct{}
	linkAddrs map[string]string
	// linkWG counts the watchers of the links the outboxes dialled.
	linkWG sync.WaitGroup
	closed bool
	beat   uint64
	run    string

	subs      []*nats.Subscription
	stopTick  func()
	done      chan struct{}
	wg        sync.WaitGroup
	lobbyMiss atomic.Int64
	stats     relayStats
	localH    atomic.Pointer[http.Handler]
}

// NewNode checks a Config and fills its defaults; Start starts the node.
func NewNode(cfg Config) (*Node, error) {
	if cfg.ID == "" || !validToken(cfg.ID) {
		return nil, fmt.Errorf("cluster: node id %q is not a NATS subject token", cfg.ID)
	}
	if len(cfg.Secrets) == 0 && !cfg.Insecure {
		return nil, ErrNoSecret
	}
	keys, err := newBusKeys(cfg.Secrets)
	if err != nil {
		return nil, err
	}
	if cfg.LocalURL == "" {
		cfg.LocalURL = cfg.PublicURL
	}
	if cfg.RouteListen == "" {
		cfg.RouteListen = "127.0.0.1:0"
	}
	if cfg.ClientListen == "" {
		cfg.ClientListen = "127.0.0.1:0"
	}
	if cfg.ClusterName == "" {
		cfg.ClusterName = "mafia"
	}
	if cfg.Interval <= 0 {
		cfg.Interval = time.Second
	}
	if cfg.Missed <= 0 {
		cfg.Missed = 3
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Tick == nil {
		cfg.Tick = func(d time.Duration) (<-chan time.Time, func()) {
			t := time.NewTicker(d)
			return t.C, t.Stop
		}
	}
	if cfg.LobbyWait <= 0 {
		cfg.LobbyWait = 500 * time.Millisecond
	}
	if cfg.Window <= 0 {
		cfg.Window = 64
	}
	if cfg.OpenWait <= 0 {
		cfg.OpenWait = 5 * time.Second
	}
	if cfg.Say == nil {
		cfg.Say = func(_, code string) string { return code }
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	n := &Node{cfg: cfg, keys: keys, run: nuid.Next(), peers: map[string]NodeInfo{}, sessions: map[string]*session{}, outboxes: map[string]*outbox{}, links: map[net.Conn]struct{}{}, linkAddrs: map[string]string{}, done: make(chan struct{}), quitOut: make(chan struct{})}
	n.turns = &turnFlusher{n}
	if cfg.Local != nil {
		n.localH.Store(&cfg.Local)
	}
	return n, nil
}

// local is the node's own server (Config.Local, or the one Handler was
// given), nil when it has none.
func (n *Node) local() http.Handler {
	if h := n.localH.Load(); h != nil {
		return *h
	}
	return nil
}

// Free tells the other nodes that table's lease has been let go, so that
// one of them takes it over now (each is told through Config.OnFree).
func (n *Node) Free(table string) {
	if err := n.publish(SubjectFree, []byte(table)); err != nil {
		n.cfg.Log.Warn("cluster: free", "table", table, "err", err)
	}
}

// freed passes another node's SubjectFree message to OnFree.
func (n *Node) freed(m *nats.Msg) {
	d, ok := n.unseal(m)
	if ok && n.cfg.OnFree != nil && len(d) > 0 && len(d) <= 64 {
		n.cfg.OnFree(string(d))
	}
}

// validToken reports whether s can be one token of a NATS subject.
func validToken(s string) bool {
	for _, r := range s {
		if r <= ' ' || r == '.' || r == '*' || r == '>' || r > '~' {
			return false
		}
	}
	return true
}

// ID is the node's id.
func (n *Node) ID() string { return n.cfg.ID }

// Start starts the embedded NATS server (or connects to the external one),
// subscribes to the cluster's subjects and announces the node.
func (n *Node) Start() error {
	var err error
	if n.cfg.NATS != "" {
		n.nc, err = nats.Connect(n.cfg.NATS, nats.Name("mafia-"+n.cfg.ID), nats.MaxReconnects(-1))
	} else {
		err = n.embed()
	}
	if err != nil {
		n.shutdownNATS()
		return err
	}
	if n.cfg.LinkListen != "" {
		if err := n.listenLink(); err != nil {
			n.shutdownNATS()
			return fmt.Errorf("cluster: link address: %w", err)
		}
	}
	for subj, h := range map[string]nats.MsgHandler{
		SubjectPresence:         n.heard,
		SubjectLobby:            n.answerLobby,
		subjectOpen + n.cfg.ID:  n.answerOpen,
		subjectHTTP + n.cfg.ID:  n.answerHTTP,
		SubjectFree:             n.freed,
		subjectBatch + n.cfg.ID: n.batch,
	} {
		sub, err := n.nc.Subscribe(subj, h)
		if err != nil {
			n.closeLinks()
			n.shutdownNATS()
			return err
		}
		n.subs = append(n.subs, sub)
	}
	if err := n.nc.Flush(); err != nil {
		n.closeLinks()
		n.shutdownNATS()
		return err
	}
	ticks, stop := n.cfg.Tick(n.cfg.Interval)
	n.stopTick = stop
	n.Announce()
	n.wg.Add(1)
	go n.loop(ticks)
	return nil
}

// routePing is how often the embedded server pings each route, and
// routePings how many unanswered pings close it: a route silent for
// about routePing*(routePings+1) is dropped (and redialled when it is one
// of Peers), in step with presence, which calls a node gone after Missed
// silent intervals.
const (
	routePing  = time.Second
	routePings = 4
)

// embed starts the node's NATS server with a route listener and its peers'
// routes, and connects to it in process.
func (n *Node) embed() error {
	rh, rp, err := splitHostPort(n.cfg.RouteListen)
	if err != nil {
		return fmt.Errorf("cluster: route address: %w", err)
	}
	ch, cp, err := splitHostPort(n.cfg.ClientListen)
	if err != nil {
		return fmt.Errorf("cluster: client address: %w", err)
	}
	if rp == 0 {
		rp = natsserver.RANDOM_PORT
	}
	if cp == 0 {
		cp = natsserver.RANDOM_PORT
	}
	token := clientToken()
	opts := &natsserver.Options{
		ServerName: n.cfg.ID,
		Host:       ch,
		Port:       cp,
		// Only this process's own connection knows the token: the
		// client listener serves nobody else.
		Authorization: token,
		NoSigs:        true,
		NoLog:         true,
		// A table's log or record passed back by Forward can be larger
		// than NATS's default 1 MiB payload.
		MaxPayload: 8 << 20,
		Cluster: natsserver.ClusterOpts{
			Name: n.cfg.ClusterName,
			Host: rh,
			Port: rp,
			// A route cut silently (packets dropped, as a partition
			// does) is closed once routePings pings in a row go
			// unanswered, a few seconds after the cut, so that
			// mafia_cluster_routes shows it: NATS's default pings a
			// route every 30 s and waits for two, over a minute.
			PingInterval: routePing,
			MaxPingsOut:  routePings,
		},
	}
	if n.keys != nil {
		// A route presents the current secret's password (the implicit
		// routes NATS gossips too); one is accepted with any listed
		// secret's.
		opts.Cluster.Username, opts.Cluster.Password = routeUser, n.keys.routePass[0]
		opts.CustomRouterAuthentication = routeAuth{pass: n.keys.routePass, refused: &n.routesRefused}
	}
	if n.cfg.RouteTLS != nil {
		opts.Cluster.TLSConfig = n.cfg.RouteTLS
		opts.Cluster.TLSTimeout = 5
	}
	for _, p := range n.cfg.Peers {
		u, err := url.Parse(strings.TrimSpace(p))
		if err != nil {
			return fmt.Errorf("cluster: peer %q: %w", p, err)
		}
		if n.keys != nil && u.User == nil {
			u.User = url.UserPassword(routeUser, n.keys.routePass[0])
		}
		opts.Routes = append(opts.Routes, u)
	}
	n.ns, err = natsserver.NewServer(opts)
	if err != nil {
		return err
	}
	el := newEmbedLog(n.cfg.Log)
	n.ns.SetLoggerV2(el, false, false, false)
	go n.ns.Start()
	if err := awaitEmbedded(n.ns, el, embedWait); err != nil {
		return err // Start shuts the server down
	}
	n.nc, err = nats.Connect("", nats.InProcessServer(n.ns), nats.Token(token), nats.Name("mafia-"+n.cfg.ID), nats.MaxReconnects(-1))
	return err
}

func splitHostPort(hp string) (string, int, error) {
	h, p, err := net.SplitHostPort(hp)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	return h, port, err
}

// RouteURL is the embedded server's route URL, for other nodes' Peers
// ("" with an external server).
func (n *Node) RouteURL() string {
	if n.ns == nil {
		return ""
	}
	a := n.ns.ClusterAddr()
	if a == nil {
		return ""
	}
	return "nats-route://" + a.String()
}

// ClientURL is the embedded server's client URL ("" with an external one).
func (n *Node) ClientURL() string {
	if n.ns == nil {
		return ""
	}
	return n.ns.ClientURL()
}

// Routes is how many routes the embedded server has to other servers (0
// with an external server).
func (n *Node) Routes() int {
	if n.ns == nil {
		return 0
	}
	return n.ns.NumRoutes()
}

// loop announces the node and ends the sessions of gone peers at each tick.
func (n *Node) loop(ticks <-chan time.Time) {
	defer n.wg.Done()
	for {
		select {
		case <-n.done:
			return
		case <-ticks:
			n.Announce()
			n.endGone()
		}
	}
}

// Announce publishes the node's presence now (the ticks do it at every
// interval).
func (n *Node) Announce() { n.announce(false) }

func (n *Node) announce(leaving bool) {
	n.mu.Lock()
	n.beat++
	info := n.selfLocked()
	n.mu.Unlock()
	info.Leaving = leaving
	data, _ := json.Marshal(info)
	if err := n.publish(SubjectPresence, data); err != nil {
		n.cfg.Log.Warn("cluster: announce", "err", err)
	}
}

// selfLocked is the node's own NodeInfo; n.mu is held.
func (n *Node) selfLocked() NodeInfo {
	info := NodeInfo{ID: n.cfg.ID, URL: n.cfg.PublicURL, Link: n.linkAddr, Ready: true, Run: n.run, Beat: n.beat, Heard: n.cfg.Now()}
	if n.cfg.Ready != nil {
		info.Ready = n.cfg.Ready()
	}
	if n.cfg.Owners != nil {
		info.Tables = n.cfg.Owners.Owned()
	}
	if info.Tables == nil {
		info.Tables = []string{}
	}
	return info
}

// heard records another node's announcement, at this node's clock.
func (n *Node) heard(m *nats.Msg) {
	var info NodeInfo
	d, ok := n.unseal(m)
	if !ok {
		return
	}
	if err := json.Unmarshal(d, &info); err != nil || info.ID == "" || info.ID == n.cfg.ID {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if info.Leaving {
		delete(n.peers, info.ID)
		return
	}
	if old, ok := n.peers[info.ID]; ok && old.Run == info.Run && old.Beat > info.Beat {
		return // an older announcement, overtaken
	}
	info.Heard = n.cfg.Now()
	n.peers[info.ID] = info
	n.learnLinkLocked(info.ID, info.Link)
}

// live reports whether a peer heard at h is still alive at now.
func (n *Node) live(h, now time.Time) bool {
	return now.Sub(h) < time.Duration(n.cfg.Missed)*n.cfg.Interval
}

// Nodes lists the live nodes, this one included, by id.
func (n *Node) Nodes() []NodeInfo {
	now := n.cfg.Now()
	n.mu.Lock()
	out := []NodeInfo{n.selfLocked()}
	for _, p := range n.peers {
		if n.live(p.Heard, now) {
			out = append(out, p)
		}
	}
	n.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Owner is the live node that announces table among its own ("" when
// none does); this node's own tables come from its Owners at once.
func (n *Node) Owner(table string) string {
	for _, info := range n.Nodes() {
		for _, t := range info.Tables {
			if t == table {
				return info.ID
			}
		}
	}
	return ""
}

// endGone forgets peers unheard of for Missed intervals and ends the
// relayed sessions with them.
func (n *Node) endGone() {
	now := n.cfg.Now()
	var gone []*session
	n.mu.Lock()
	for id, p := range n.peers {
		if n.live(p.Heard, now) {
			continue
		}
		delete(n.peers, id)
		n.cfg.Log.Info("cluster: node gone", "node", id)
	}
	for _, s := range n.sessions {
		// A session with a peer not (yet) heard of gets Missed intervals
		// from its start, as a peer gets from its last announcement: a
		// node just started relays before its owner has heard it.
		if _, ok := n.peers[s.peer]; !ok && !n.live(s.born, now) {
			gone = append(gone, s)
		}
	}
	n.mu.Unlock()
	for _, s := range gone {
		s.fail(closeNodeGone, reasonNodeGone)
	}
}

// Close announces that the node leaves, ends its relayed sessions (the
// client's side with 1001 "shutdown", as a server closing does), and
// stops its NATS connection and embedded server; no goroutine is left.
func (n *Node) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	all := make([]*session, 0, len(n.sessions))
	for _, s := range n.sessions {
		all = append(all, s)
	}
	n.mu.Unlock()
	if n.nc != nil && n.stopTick != nil {
		n.announce(true)
		n.stopTick()
		close(n.done)
	}
	for _, s := range all {
		s.fail(closeShutdown, reasonShutdown)
	}
	close(n.quitOut) // the outboxes send what they hold, then stop
	n.closeLinks()
	n.wg.Wait()
	n.mu.Lock()
	for _, o := range n.outboxes {
		o.wmu.Lock() // a room's turn may be writing (flushNow)
		if o.conn != nil {
			o.conn.close()
		}
		o.wmu.Unlock()
	}
	n.mu.Unlock()
	n.linkWG.Wait()
	n.shutdownNATS()
	return nil
}

// shutdownNATS closes the connection and the embedded server.
func (n *Node) shutdownNATS() {
	for _, s := range n.subs {
		_ = s.Unsubscribe()
	}
	n.subs = nil
	if n.nc != nil {
		_ = n.nc.Flush()
		n.nc.Close()
	}
	if n.ns != nil {
		n.ns.Shutdown()
		n.ns.WaitForShutdown()
	}
}

// waitRoutes waits until the embedded server has at least k routes or ctx
// ends (for tests and for a node's start in a script).
func (n *Node) waitRoutes(ctx context.Context, k int) error {
	for n.Routes() < k {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}
