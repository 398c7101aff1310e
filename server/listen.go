package server

// This file is the public listener's side of the guards: the HTTP
// server's timeouts and header limit, and a listener that bounds the TCP
// connections in total and per peer.

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"syscall"
	"time"

	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/httpguard"
)

// Timeouts bound how long a client may hold a connection doing nothing
// useful. A zero field takes its default.
type Timeouts struct {
	// ReadHeader bounds reading a request's headers (10 s).
	ReadHeader time.Duration
	// Read bounds reading a whole request, body included (20 s): a body
	// sent a byte at a time is cut.
	Read time.Duration
	// Write bounds writing an answer (30 s).
	Write time.Duration
	// Idle bounds a keep-alive connection's wait for its next request
	// (30 s).
	Idle time.Duration
	// WebSocket bounds each write to a WebSocket and its answer to the
	// server's ping (10 s, pings.go): a connection that takes longer is
	// ended. It runs on the wall clock, whatever the rooms' clock; a
	// test whose client holds a connection unread while it does
	// something else sets it beyond its own time, so that a machine
	// starved of the CPU cannot end the connection for it.
	WebSocket time.Duration
	// MaxHeaderBytes bounds a request's headers (32 KiB).
	MaxHeaderBytes int
}

func (t Timeouts) withDefaults() Timeouts {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&t.ReadHeader, 10*time.Second)
	def(&t.Read, 20*time.Second)
	def(&t.Write, 30*time.Second)
	def(&t.Idle, 30*time.Second)
	def(&t.WebSocket, 10*time.Second)
	if t.MaxHeaderBytes <= 0 {
		t.MaxHeaderBytes = 32 << 10
	}
	return t
}

// HTTPServer returns the http.Server of the public listener: h (the
// server's Handler and whatever else the binary mounts beside it) under the
// server's timeouts and header limit. A WebSocket leaves these deadlines
// behind when it is upgraded (see wsbatch.ResponseWriter).
func (s *Server) HTTPServer(h http.Handler) *http.Server {
	t := s.cfg.Timeouts
	return &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write,
		IdleTimeout: t.Idle, MaxHeaderBytes: t.MaxHeaderBytes,
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn)}
}

// Listener wraps the public listener: past Limits.MaxTCP open connections
// in total, or Limits.TCPPerAddr from one peer (trusted proxies and
// Limits.Unlimited aside), a new connection is answered at once, before any
// request is read (so in English), with 503 server_full or 429
// too_many_connections, and closed.
func (s *Server) Listener(ln net.Listener) net.Listener {
	return &limitListener{Listener: ln, s: s, byPeer: map[netip.Prefix]int{}}
}

type limitListener struct {
	net.Listener
	s      *Server
	mu     sync.Mutex
	open   int
	byPeer map[netip.Prefix]int
}

// Accept returns the next connection within the caps.
func (l *limitListener) Accept() (net.Conn, error) {
	lim := l.s.cfg.Limits
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		var peer netip.Addr
		if ta, ok := c.RemoteAddr().(*net.TCPAddr); ok {
			peer = ta.AddrPort().Addr().Unmap()
		}
		counted := !l.s.guard.Trusted(peer) && !httpguard.In(peer, lim.Unlimited)
		key := httpguard.Key(peer)
		var code engine.Code
		l.mu.Lock()
		switch {
		case l.open >= lim.MaxTCP:
			code = CodeServerFull
		case counted && l.byPeer[key] >= lim.TCPPerAddr:
			code = CodeTooManyConnections
		default:
			l.open++
			if counted {
				l.byPeer[key]++
			}
		}
		l.mu.Unlock()
		if code == "" {
			return &limitConn{Conn: c, l: l, key: key, counted: counted}, nil
		}
		l.refuse(c, code)
	}
}

// refuse answers a connection over a cap and closes it.
func (l *limitListener) refuse(c net.Conn, code engine.Code) {
	err := &engine.Error{Code: code}
	l.s.metrics.errors.WithLabelValues(string(code)).Inc()
	b, _ := json.Marshal(httpapi.ErrorBody{Error: httpapi.ErrorField{Code: string(code), Message: l.s.cfg.Render("en", err)}})
	status := l.s.cfg.Vocabulary.Status(code)
	resp := "HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n" +
		"Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n" +
		"Content-Length: " + strconv.Itoa(len(b)+1) + "\r\n\r\n" + string(b) + "\n"
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write([]byte(resp))
	_ = c.Close()
}

func (l *limitListener) done(key netip.Prefix, counted bool) {
	l.mu.Lock()
	l.open--
	if counted {
		if l.byPeer[key]--; l.byPeer[key] <= 0 {
			delete(l.byPeer, key)
		}
	}
	l.mu.Unlock()
}

// limitConn is a connection counted by its limitListener until it closes.
type limitConn struct {
	net.Conn
	l       *limitListener
	key     netip.Prefix
	counted bool
	once    sync.Once
}

// SyscallConn gives the descriptor of a plain TCP connection, whose
// bytes go to it as they are (wsbatch's write that never waits, on a
// relayed client's WebSocket); any other connection has none to give.
func (c *limitConn) SyscallConn() (syscall.RawConn, error) {
	if tc, ok := c.Conn.(*net.TCPConn); ok {
		return tc.SyscallConn()
	}
	return nil, errors.ErrUnsupported
}

// Close closes the connection and gives its place back.
func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.done(c.key, c.counted) })
	return err
}
