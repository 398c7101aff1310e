package server

import (
	"context"
	"sync"
	"time"
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
// every pingSweep, pinging those owed a ping (pingDue). One sweep for all,
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
// connection owed a ping and not already being pinged, each on a
// goroutine of its own (a ping waits for its pong).
func (s *Server) sweepPings() {
	t := time.NewTicker(pingSweep)
	defer t.Stop()
	var due []*peer
	for {
		select {
		case <-t.C:
		case <-s.stop:
			return
		}
		now := sinceEpoch()
		s.pings.mu.Lock()
		for wc := range s.pings.set {
			if wc.pingDue(now) <= 0 && wc.pinging.CompareAndSwap(false, true) {
				due = append(due, wc)
			}
		}
		s.pings.mu.Unlock()
		for i, wc := range due {
			s.goPeer(wc.pingNow) // this goroutine holds a count
			due[i] = nil
		}
		due = due[:0]
	}
}

// pingNow pings the client, and ends the connection if it does not answer
// within Timeouts.WebSocket.
func (wc *peer) pingNow() {
	defer wc.pinging.Store(false)
	if wc.done.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), wc.s.cfg.Timeouts.WebSocket)
	err := wc.c.Ping(ctx)
	cancel()
	if err != nil {
		wc.stop()
		return
	}
	now := sinceEpoch() // the ping was written and its pong heard
	wc.wrote.Store(now)
	wc.heard.Store(now)
}

// pingDue is how long from now (sinceEpoch) until the connection is owed
// a ping: pingEvery after the last write, or heardEvery after the last
// frame heard, whichever comes first; 0 or less: now.
func (wc *peer) pingDue(now int64) time.Duration {
	return time.Duration(min(wc.wrote.Load()+int64(pingEvery), wc.heard.Load()+int64(heardEvery)) - now)
}
