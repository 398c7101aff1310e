package cluster

// This file serves a relayed session's handshake on the owner in process:
// the owner's WebSocket to its own server runs over an in-memory pipe to
// its local handler, whose request's peer is the client's address itself.
// So no TCP connection to the node's public listener is made for it, and
// the server need not believe an X-Forwarded-For from loopback (which any
// process on the machine could send).

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"

	"github.com/coder/websocket"
)

// dialLocal opens the owner's WebSocket for a relayed session to its own
// server at u: in process when the node has its local handler, the client
// being the request's peer; else (a node given no handler) over TCP to
// LocalURL, the client in X-Forwarded-For.
func (n *Node) dialLocal(ctx context.Context, u string, h http.Header, client string) (*websocket.Conn, *http.Response, error) {
	local := n.local()
	if local == nil {
		if client != "" {
			h.Set("X-Forwarded-For", client)
		}
		return websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
	}
	peer := &net.TCPAddr{IP: net.ParseIP(client)}
	if peer.IP == nil {
		peer.IP = net.IPv4(127, 0, 0, 1)
	}
	cc, sc := net.Pipe()
	hs := &http.Server{Handler: local, ReadHeaderTimeout: n.cfg.OpenWait, ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = hs.Serve(&oneConn{conn: peerConn{Conn: sc, peer: peer}}) }()
	tr := &http.Transport{DisableKeepAlives: true, DialContext: func(context.Context, string, string) (net.Conn, error) { return cc, nil }}
	c, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h, HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		cc.Close()
	}
	tr.CloseIdleConnections()
	return c, resp, err
}

// peerConn is the server's end of the pipe, from the client's address.
type peerConn struct {
	net.Conn
	peer net.Addr
}

func (c peerConn) RemoteAddr() net.Addr { return c.peer }

// oneConn is a listener of one connection: http.Server.Serve serves it and
// returns at the next Accept, leaving it served.
type oneConn struct {
	conn net.Conn
	done bool
}

func (l *oneConn) Accept() (net.Conn, error) {
	if l.done {
		return nil, net.ErrClosed
	}
	l.done = true
	return l.conn, nil
}

func (l *oneConn) Close() error   { return nil }
func (l *oneConn) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "in-process" }
