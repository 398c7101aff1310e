package server

import (
	"sync"
	"time"

	"mafia/internal/wsbatch"
)

// pingEvery is the longest an open connection goes without hearing from
// the server: a period clients can count on (docs/protocol.md), so that a
// client hearing nothing for a few seconds knows its server is stalled (a
// paused process, a frozen host) and reconnects elsewhere, as the Go
// client does (client.Silence). A connection written to within it needs
// no ping for that: the ping comes only after pingEvery without a write.
const pingEvery = 2 * time.Second

// heardEvery is the longest the server goes without hearing from a
// connection (a frame, a ping, a pong) before it pings it to see that it
// is there: one that does not answer within Timeouts.WebSocket is ended.
// A busy table's seats are written to every second or so and so need no
// ping for the silence (pingEvery); this is what still finds a client
// that is gone without a word.
const heardEvery = 3 * pingEvery

// pingSweep is how often the sweep looks for connections owed a ping: a
// ping comes at most pingSweep after it is due.
const pingSweep = pingEvery / 8

// epoch is where the connections' clocks of the last write and the last
// frame heard start (monotonic time: the pings go by real time, not the
// server's Clock).
var epoch = time.Now()

// sinceEpoch is now on the connections' clock.
func sinceEpoch() int64 { return int64(time.Since(epoch)) }

// pings are the server's open WebSockets, which one goroutine looks over
// every pingSweep, pinging those owed a ping (sweepPings). One sweep for all,
// rather than a timer each, since a busy connection's timer would fire
// every 2 s (a goroutine each time) only to find it needs no ping.
type pings struct {
	once sync.Once
	mu   sync.Mutex
	set  map[*peer]struct{}
}

// add starts pinging wc, and the sweep with the first connection. The
// caller holds a count of s.peers (serveWS), so the sweep's goroutine can
// be counted too.
func (p *pings) add(s *Server, wc *peer) {
	p.once.Do(func() { s.goPeer(s.sweepPings) })
	p.mu.Lock()
	if p.set == nil {
		p.set = map[*peer]struct{}{}
	}
	p.set[wc] = struct{}{}
	p.mu.Unlock()
}

// remove stops pinging wc.
func (p *pings) remove(wc *peer) {
	p.mu.Lock()
	delete(p.set, wc)
	p.mu.Unlock()
}

// sweepPings pings, every pingSweep until the server closes, each
// connection owed a ping and not already pinged, and ends each that has
// left a ping unanswered for Timeouts.WebSocket. A connection written to
// for pingEvery gets its ping from the sweep, on its goroutine, as the
// room writes its turn's frames (pingNow); one written to but not heard
// from for heardEvery gets it in the next batch of the room's frames
// (ridePing), so that a busy table's quiet seat costs no write of its
// own. No goroutine waits for a pong: the pong (or any frame) heard after
// the ping is the answer (peer.control, readFrame).
func (s *Server) sweepPings() {
	t := time.NewTicker(pingSweep)
	defer t.Stop()
	var due, gone []*peer
	for {
		select {
		case <-t.C:
		case <-s.stop:
			return
		}
		now := sinceEpoch()
		late := int64(s.cfg.Timeouts.WebSocket)
		s.pings.mu.Lock()
		for wc := range s.pings.set {
			if p := wc.pingAt.Load(); p != 0 {
				switch {
				case wc.heard.Load() >= p:
					wc.pingAt.Store(0) // answered
				case now-p > late:
					gone = append(gone, wc)
					continue
				default:
					continue // its answer may still come
				}
			}
			switch {
			case wc.wrote.Load()+int64(pingEvery) <= now:
				due = append(due, wc) // silent: a ping of its own
			case wc.heard.Load()+int64(heardEvery) <= now:
				// Not heard from, but written to: the ping rides with
				// the next batch of frames (owePing); should none come
				// within pingEvery, the case above writes it.
				wc.owePing.Store(true)
			}
		}
		s.pings.mu.Unlock()
		for i, wc := range due {
			wc.pingNow()
			due[i] = nil
		}
		for i, wc := range gone {
			wc.stop()
			gone[i] = nil
		}
		due, gone = due[:0], gone[:0]
	}
}

// pingNow writes a ping to the client on the sweep's goroutine, as the
// room's turnEnd writes frames: only when no writer is at work and the
// socket takes it at once (wsbatch's TryBegin and EndNow), never waiting
// for the socket. A ping the socket takes only part of leaves the rest to
// a writer goroutine; a connection busy writing is pinged at a later
// sweep. The ping carries no payload: every ping is the same 2 bytes.
func (wc *peer) pingNow() {
	wc.mu.Lock()
	defer wc.mu.Unlock()
	if wc.running || wc.sub == nil || wc.done.Load() {
		return
	}
	if !wc.bw.CanEndNow() {
		// A connection with no descriptor of its own (TLS) is written
		// to by a write that may wait for the socket: its ping is the
		// writer goroutine's, never the sweep's (writeQueued).
		wc.owePing.Store(true)
		wc.running = true
		wc.s.goPeer(wc.write)
		return
	}
	if !wc.bw.TryBegin() {
		return
	}
	// Held under mu, as turnEnd's: the reader cannot end meanwhile (serve
	// waits for mu), so a writer started below is counted in time.
	wc.running = true
	// Taken before the ping is written: its pong may be heard (on the
	// reader's goroutine) before the write returns here, and must be
	// heard after the ping's time to count as its answer.
	now := sinceEpoch()
	wc.owePing.Store(false)
	err := wc.bw.Frame(wsbatch.OpPing, nil)
	whole, endErr := wc.bw.EndNow()
	if err != nil || endErr != nil {
		wc.done.Store(true) // the writer stops the connection
		wc.s.goPeer(wc.write)
		return
	}
	wc.s.metrics.pingsAlone.Inc()
	wc.pingAt.Store(now)
	wc.wrote.Store(now)
	if whole {
		wc.running = false
		return
	}
	wc.s.goPeer(wc.write) // it writes the rest
}

// ridePing adds the ping the connection is owed (owePing) to the batch of
// frames being written, at its end: no write of its own. The batch is
// open (its writer holds it); the ping's time is taken before the batch
// goes out, so that its pong comes after it.
func (wc *peer) ridePing(alone bool) {
	if !wc.owePing.Load() || !wc.owePing.Swap(false) {
		return
	}
	now := sinceEpoch()
	if wc.bw.Frame(wsbatch.OpPing, nil) == nil {
		wc.pingAt.Store(now)
		if alone {
			wc.s.metrics.pingsAlone.Inc()
		} else {
			wc.s.metrics.pingsRode.Inc()
		}
	}
}
