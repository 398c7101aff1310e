package server

import (
	"errors"
	"net"
	"sync"

	"mafia/internal/wspoll"
)

// reads is the server's poller of WebSockets (internal/wspoll): on Linux
// an idle connection has no goroutine reading it, only a place in the
// poller, which starts one (a burst) when the connection has bytes to
// read; the burst reads what is there and ends. Elsewhere, and for a
// connection without a descriptor of its own, one goroutine reads each
// connection for as long as it is open (peer.serve).
type reads struct {
	once sync.Once
	p    *wspoll.Poller
}

// poller is the server's poller, started with its first WebSocket; nil
// where there is none, or once the server is closing.
func (r *reads) poller() *wspoll.Poller {
	r.once.Do(func() {
		if p, err := wspoll.New(); err == nil {
			r.p = p
		}
	})
	return r.p
}

// stop keeps a poller from starting once the server is closing.
func (r *reads) stop() { r.once.Do(func() {}) }

// close stops the poller, once every connection has ended (Close).
func (r *reads) close() { r.p.Close() }

// pollRead is wsbatch.ResponseWriter.Read: conn under the poller, or nil
// (read by a goroutine of its own).
func (s *Server) pollRead(conn net.Conn, pre []byte) net.Conn {
	if s.cfg.GoroutinePerConnection {
		return nil
	}
	if pc := s.reads.poller().Wrap(conn, pre); pc != nil {
		return pc
	}
	return nil
}

// burst reads what the connection has for the server (wsconn's Read)
// until its socket is empty: then it parks the connection with the
// poller and returns (the poller starts the next burst when bytes come;
// a frame received in part waits in the connection, wsconn). When the
// connection ends (a failure, a close, a flood) burst ends it as serve
// does, and gives back the connection's count of s.peers (serveWS's).
func (wc *peer) burst() {
	// Read returns only when the socket is empty (ErrWouldBlock) or the
	// connection is over.
	for errors.Is(wc.ws.Read(wc), wspoll.ErrWouldBlock) {
		if wc.pc.Park() {
			return
		}
		// Not parked: closed meanwhile (the next read says so), or never
		// taken by the poller (its reads wait from now on).
	}
	wc.finish()
	wc.s.peers.Done()
}
