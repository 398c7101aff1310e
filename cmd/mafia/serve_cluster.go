package main

// This file makes `mafia serve` one node of a cluster (docs/cluster.md):
// its flags, the NATS node (package cluster) and the server's part
// (server.Cluster) wired to each other.

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"mafia/cluster"
	"mafia/engine"
	"mafia/internal/wsconn"
	"mafia/server"
	"mafia/wire"
)

// clusterFlags are serve's flags of a cluster node.
type clusterFlags struct {
	node, nats, natsListen, natsPeers *string
	relayListen                       *string
	nodeURL                           *string
	leaseTTL                          *time.Duration
	secret                            *string
	insecure                          *bool
	tlsCert, tlsKey, tlsCA            *string
	// secrets and routeTLS are what check read from the files.
	secrets  *[][]byte
	routeTLS **tls.Config
}

func addClusterFlags(fs *flag.FlagSet) clusterFlags {
	return clusterFlags{
		node:        fs.String("node", "", "run as one node of a cluster, with this id (unique in the cluster: letters, digits, - and _); needs --db postgres://… shared by every node (docs/cluster.md)"),
		nats:        fs.String("nats", "", "a cluster's external NATS server (nats://host:4222); without it the node embeds a NATS server of its own, routed to --nats-peers"),
		natsListen:  fs.String("nats-listen", "127.0.0.1:6222", "the embedded NATS server's route address, which the other nodes' --nats-peers name"),
		relayListen: fs.String("relay-listen", "", "where the node takes the other nodes' relay links (HOST:PORT): a relayed seat's frames go between two nodes on a TCP connection of their own, sealed with the cluster secret, not through NATS (docs/cluster.md); default: --nats-listen's host, a free port, with the embedded server, off with --nats; off: keep them on NATS"),
		natsPeers:   fs.String("nats-peers", "", "comma-separated route URLs of other nodes' embedded NATS servers (nats-route://host:6222); one is enough, NATS finds the rest"),
		nodeURL:     fs.String("node-url", "", "this node's own public URL (https://n2.mafia.example), where a client reaches it without the balancer: the lists of tables and a table's row name it as the owner of each table the node runs, so programs and balancers connect there and skip the relay (docs/cluster.md, Reaching the owner); empty: the owner is named by its id only"),
		leaseTTL:    fs.Duration("lease-ttl", 5*time.Second, "a table lease's time: renewed every third of it; a node that stops renewing loses its tables to the others about this long after"),
		secret:      fs.String("cluster-secret", "", "a file of the cluster's secret, the same on every node (one a line, at least 32 characters: openssl rand -hex 32; the first is used, the others accepted too, for a rotation): routes must present it, and it seals every message on the bus (docs/cluster.md)"),
		insecure:    fs.Bool("cluster-insecure", false, "run a node with no --cluster-secret: the bus is then OPEN, anyone who reaches a node's route port or the NATS server reads every relayed seat's token and cards and can forge requests; only for a trial on one machine"),
		tlsCert:     fs.String("cluster-tls-cert", "", "the node's certificate (PEM) for mutual TLS on the embedded NATS server's routes; with --cluster-tls-key and --cluster-tls-ca"),
		tlsKey:      fs.String("cluster-tls-key", "", "the key (PEM) of --cluster-tls-cert"),
		tlsCA:       fs.String("cluster-tls-ca", "", "the CA (PEM) that signed every node's --cluster-tls-cert: a route without a certificate of it is refused"),
		secrets:     new([][]byte),
		routeTLS:    new(*tls.Config),
	}
}

// on reports whether the flags make a cluster node.
func (f clusterFlags) on() bool { return *f.node != "" }

// check refuses flags that make no cluster: a node without PostgreSQL, an
// id NATS cannot carry, a ttl too short to renew.
func (f clusterFlags) check(db string) error {
	if !f.on() {
		return nil
	}
	if !isPostgresURL(db) {
		return errors.New("--node needs --db postgres://…: the nodes of a cluster share one PostgreSQL database")
	}
	for _, r := range *f.node {
		if !(r == '-' || r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return fmt.Errorf("--node %q: an id is letters, digits, - and _", *f.node)
		}
	}
	if u := *f.nodeURL; u != "" {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || p.RawQuery != "" || p.Fragment != "" {
			return fmt.Errorf("--node-url %q: an http:// or https:// URL of the node (https://n2.mafia.example)", u)
		}
		*f.nodeURL = strings.TrimSuffix(u, "/")
	}
	if *f.leaseTTL < 300*time.Millisecond {
		return fmt.Errorf("--lease-ttl %s: at least 300ms", *f.leaseTTL)
	}
	switch {
	case *f.secret != "":
		s, err := cluster.ReadSecrets(*f.secret)
		if err != nil {
			return fmt.Errorf("--cluster-secret: %w", err)
		}
		*f.secrets = s
	case !*f.insecure:
		return errors.New("--node needs --cluster-secret FILE, the same on every node (openssl rand -hex 32 > FILE; docs/cluster.md): without it anyone who reaches the cluster's bus reads every relayed seat's token and cards; to run an open bus anyway (a trial on one machine), say --cluster-insecure")
	}
	if *f.tlsCert+*f.tlsKey+*f.tlsCA != "" {
		if *f.nats != "" {
			return errors.New("--cluster-tls-*: the TLS of the embedded NATS server's routes; with --nats, secure the external server itself")
		}
		cfg, err := cluster.RouteTLSConfig(*f.tlsCert, *f.tlsKey, *f.tlsCA)
		if err != nil {
			return fmt.Errorf("--cluster-tls-cert, --cluster-tls-key, --cluster-tls-ca: %w", err)
		}
		*f.routeTLS = cfg
	}
	return nil
}

// clusterNode is a started node and the server's part wired to it.
type clusterNode struct {
	node *cluster.Node
}

// serverPart is the server's Cluster for the node that newNode will make:
// its hooks reach the node once it exists; --node-url is published as the
// owner of the tables it runs.
func (cn *clusterNode) serverPart(f clusterFlags) *server.Cluster {
	return &server.Cluster{
		Node: *f.node, URL: *f.nodeURL, TTL: *f.leaseTTL,
		Elsewhere: func(w http.ResponseWriter, r *http.Request, node, client string) {
			// A WebSocket's handshake (wsconn.Handshake: the upgrade, the
			// version, the key) is relayed; anything else, a request to the
			// WebSocket path that is no handshake included, is passed on as
			// it is, and the owner answers it (not_websocket, or the table's
			// own refusal): no session is opened for it.
			if wsconn.Handshake(http.Header{}, r) == nil {
				cn.node.RelayFor(w, r, node, r.PathValue("id"), client)
				return
			}
			cn.node.Forward(w, r, node, client)
		},
		Relayed: func(r *http.Request) bool { _, ok := cluster.Relayed(r); return ok },
		Free:    func(table string) { cn.node.Free(table) },
		Live: func(node string) bool {
			for _, info := range cn.node.Nodes() {
				if info.ID == node {
					return true
				}
			}
			return false
		},
		Lobby: func(ctx context.Context) ([]wire.Lobby, error) {
			g, err := cn.node.Lobby(ctx)
			if err != nil {
				return nil, err
			}
			out := make([]wire.Lobby, 0, len(g.Rows))
			for _, r := range g.Rows {
				out = append(out, r.Table)
			}
			return out, nil
		},
	}
}

// start makes and starts the node: srv is its server, local the whole
// site (which serves what other nodes pass on), ln the public listener.
func (cn *clusterNode) start(f clusterFlags, srv *server.Server, local http.Handler, ln net.Listener, publicURL string, log *slog.Logger) error {
	localURL := "http://" + ln.Addr().String()
	if publicURL == "" {
		publicURL = localURL
	}
	cfg := cluster.Config{ID: *f.node, PublicURL: publicURL, LocalURL: localURL, NATS: *f.nats,
		Secrets: *f.secrets, Insecure: len(*f.secrets) == 0, RouteTLS: *f.routeTLS,
		RouteListen: *f.natsListen, Ready: srv.Ready, Owners: srv, Lobby: srv, Local: local,
		OnFree: func(string) { srv.Nudge() },
		// A relayed session enters the server in process: no WebSocket
		// between the node and its own server.
		Accept: func(w http.ResponseWriter, r *http.Request, table string) cluster.Conn {
			if c := srv.ServeRelayed(w, r, table); c != nil {
				return c
			}
			return nil
		},
		Say: func(lang, code string) string {
			return renderIn(lang, &engine.Error{Code: engine.Code(code)})
		},
		Vocabulary: vocabulary, Log: log}
	if *f.natsPeers != "" {
		cfg.Peers = strings.Split(*f.natsPeers, ",")
	}
	cfg.LinkListen = relayListen(*f.relayListen, *f.nats, *f.natsListen)
	n, err := cluster.NewNode(cfg)
	if err != nil {
		return err
	}
	if err := n.Start(); err != nil {
		return err
	}
	cn.node = n
	if err := srv.Register(n.Collector()); err != nil {
		log.Warn("the relay's metrics", "err", err)
	}
	if len(*f.secrets) == 0 {
		log.Warn("the cluster's bus is OPEN (--cluster-insecure): anyone who reaches this node's NATS route port or the NATS server reads every relayed seat's token and cards and can forge requests in any client's name; give every node --cluster-secret FILE (docs/cluster.md)")
	}
	log.Info("cluster node", "node", n.ID(), "nats_routes", n.RouteURL(), "nats", *f.nats, "lease_ttl", f.leaseTTL.String(),
		"bus_sealed", len(*f.secrets) > 0, "route_tls", *f.routeTLS != nil)
	return nil
}

// relayListen is the node's link address (cluster.Config.LinkListen) for
// --relay-listen flag: off is none; empty, with the embedded NATS server,
// the routes' host (which the other nodes reach already) on a free port,
// none for routes on every interface or with an external server (the host
// to announce is not known).
func relayListen(flag, natsURL, natsListen string) string {
	switch {
	case flag == "off":
		return ""
	case flag != "":
		return flag
	case natsURL != "":
		return ""
	}
	host, _, err := net.SplitHostPort(natsListen)
	if ip := net.ParseIP(host); err != nil || host == "" || (ip != nil && ip.IsUnspecified()) {
		return "" // routes on every interface: the host to announce is not known
	}
	return net.JoinHostPort(host, "0")
}
