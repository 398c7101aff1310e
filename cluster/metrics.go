package cluster

import "github.com/prometheus/client_golang/prometheus"

// The relay's series (docs/cluster.md, "Metrics to watch").
var (
	descPeers = prometheus.NewDesc("mafia_cluster_peers",
		"Other nodes of the cluster heard from within the last Missed announcement intervals (this node not counted; 0 once it closed).",
		nil, nil)
	descRoutes = prometheus.NewDesc("mafia_cluster_routes",
		"Other NATS servers this node's embedded server has routes to (0 with an external NATS server).",
		nil, nil)
	descConnected = prometheus.NewDesc("mafia_cluster_nats_connected",
		"1 while the node's NATS connection is up, else 0.",
		nil, nil)
	descSessions = prometheus.NewDesc("mafia_relay_sessions",
		"Relayed WebSocket sessions open on this node, by side: a (this node holds the client), b (this node owns the table).",
		[]string{"side"}, nil)
	descSessionsTotal = prometheus.NewDesc("mafia_relay_sessions_total",
		"Relayed sessions opened on this node, by side (a, b) and result: ok (the owner's server took the WebSocket), refused (it answered the handshake with an HTTP error, passed to the client), unavailable (the owner did not answer in time or the bus failed: 503 relay_unavailable).",
		[]string{"side", "result"}, nil)
	descFrames = prometheus.NewDesc("mafia_relay_frames_total",
		"Relay messages (WebSocket frames and closes, not acks) this node passed to other nodes (on a link or the bus), by direction: to_owner (the clients' frames), to_client (the owner's frames).",
		[]string{"direction"}, nil)
	descBytes = prometheus.NewDesc("mafia_relay_bytes_total",
		"Bytes of those relay messages (each frame's payload and its 9-byte header), by direction: to_owner, to_client.",
		[]string{"direction"}, nil)
	descBatches = prometheus.NewDesc("mafia_relay_batches_total",
		"Batches this node's relayed frames, closes and acks went out in (on a link or the bus): each batch carries the messages of its sessions headed to one node that gathered while the last was sent (frames over batches: what batching saves).",
		nil, nil)
	descDirect = prometheus.NewDesc("mafia_relay_direct_frames_total",
		"The owner's frames this node wrote to its relayed clients as it read them off a link or the bus, with no hand-off to the session's own goroutine, by how the write went: whole, or left (the client's socket took part of it at once; the session's goroutine wrote the rest).",
		[]string{"write"}, nil)
	descOwnerDirect = prometheus.NewDesc("mafia_relay_owner_direct_frames_total",
		"The clients' frames this node's server took as this node read them off a link or the bus, with no hand-off to the session's own goroutine (the rest, such as voice or a frame that needs the full parser, go through that goroutine).",
		nil, nil)
	descTurnFrames = prometheus.NewDesc("mafia_relay_turn_frames_total",
		"The owner's frames this node's rooms put into the relay on their own goroutine at the end of their turn (no hand-off to the session's goroutine).",
		nil, nil)
	descLinkWrites = prometheus.NewDesc("mafia_relay_link_writes_total",
		"Writes of batches to relay links, by who made them: sender (the outbox's goroutine), turn (a room's goroutine at the end of its turn), put (the goroutine that put a message that goes alone: an ack, a client's frame), left (a write of turn or put that the socket took only part of at once; the sender wrote the rest).",
		[]string{"by"}, nil)
	descForwarded = prometheus.NewDesc("mafia_relay_requests_total",
		"Plain HTTP requests for a table (a join, a leave, its row, its log) this node passed to the table's owner, by result: ok (the owner answered, whatever its status), unavailable (it did not answer: 503 relay_unavailable).",
		[]string{"result"}, nil)
	descLobbyMissed = prometheus.NewDesc("mafia_lobby_missed_total",
		"Live nodes left out of a lobby this node gathered because they did not answer within the lobby's wait.",
		nil, nil)
	descRoutesRefused = prometheus.NewDesc("mafia_cluster_routes_refused_total",
		"NATS routes the embedded server refused because they did not present the cluster secret's password (a stranger at the route port, or a node with another secret).",
		nil, nil)
	descDropped = prometheus.NewDesc("mafia_cluster_bus_dropped_total",
		"Bus messages this node dropped because they were not sealed with the cluster secret for their subject (a stranger's, a replay, or a node with another secret), and the relay links it refused (a stranger at the link port: relay_link_refused).",
		nil, nil)
)

var (
	sideNames      = [2]string{sideA: "a", sideB: "b"}
	directionNames = [2]string{toOwner: "to_owner", toClient: "to_client"}
	resultNames    = [3]string{resultOK: "ok", resultRefused: "refused", resultUnavailable: "unavailable"}
)

// Collector is the node's Prometheus collector, for the server's /metrics:
// the peers it hears, its NATS routes and connection, the relayed sessions
// open and opened, the relay's frames and bytes each way, the plain
// requests passed to owners, the lobby's missed nodes, and the strangers
// refused at the routes or dropped off the bus. It reads the node at each
// scrape; register it once the node has started. It may be scraped after Close: then the gauges are 0
// and the counters keep their last values.
func (n *Node) Collector() prometheus.Collector { return nodeCollector{n} }

type nodeCollector struct{ n *Node }

func (c nodeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descPeers, descRoutes, descConnected, descSessions, descSessionsTotal, descFrames, descBytes, descBatches, descDirect, descOwnerDirect, descTurnFrames, descLinkWrites, descForwarded, descLobbyMissed, descRoutesRefused, descDropped} {
		ch <- d
	}
}

func (c nodeCollector) Collect(ch chan<- prometheus.Metric) {
	n := c.n
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}

	n.mu.Lock()
	closed := n.closed
	var open [2]int
	for _, s := range n.sessions {
		open[s.side]++
	}
	n.mu.Unlock()
	peers := 0
	if !closed {
		peers = len(n.Nodes()) - 1 // Nodes lists this node too
	}
	gauge(descPeers, float64(peers))
	routes := 0
	if !closed && n.ns != nil {
		routes = n.ns.NumRemotes() // servers, not connections: NATS pools several per server
	}
	gauge(descRoutes, float64(routes))
	connected := 0.0
	if !closed && n.nc != nil && n.nc.IsConnected() {
		connected = 1
	}
	gauge(descConnected, connected)

	st := &n.stats
	for side, name := range sideNames {
		gauge(descSessions, float64(open[side]), name)
		for result, rname := range resultNames {
			counter(descSessionsTotal, st.results[side][result].Load(), name, rname)
		}
	}
	for dir, name := range directionNames {
		counter(descFrames, st.frames[dir].Load(), name)
		counter(descBytes, st.bytes[dir].Load(), name)
	}
	counter(descBatches, st.batches.Load())
	counter(descDirect, st.direct.Load()-st.directLeft.Load(), "whole")
	counter(descDirect, st.directLeft.Load(), "left")
	counter(descOwnerDirect, st.ownerDirect.Load())
	counter(descTurnFrames, st.turnFrames.Load())
	counter(descLinkWrites, st.linkWrites[bySender].Load(), "sender")
	counter(descLinkWrites, st.linkWrites[byTurn].Load(), "turn")
	counter(descLinkWrites, st.linkWrites[byPut].Load(), "put")
	counter(descLinkWrites, st.nowLeft.Load(), "left")
	counter(descForwarded, st.forwarded.Load(), "ok")
	counter(descForwarded, st.forwardFailed.Load(), "unavailable")
	counter(descLobbyMissed, n.lobbyMiss.Load())
	counter(descRoutesRefused, n.routesRefused.Load())
	counter(descDropped, n.dropped.Load())
}
