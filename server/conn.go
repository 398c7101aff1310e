package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"mafia/admission"
	"mafia/engine"
	"mafia/internal/secret"
	"mafia/internal/wsbatch"
	"mafia/internal/wsconn"
	"mafia/internal/wspoll"
	"mafia/locale"
	"mafia/room"
	"mafia/wire"
)

// Protocol error codes of a connection (catalog id "error.<code>").
const (
	CodeMalformed   engine.Code = "malformed"
	CodeTooLarge    engine.Code = "too_large"
	CodeRateLimited engine.Code = "rate_limited"
	// CodeNotWebSocket refuses a request to a table's WebSocket path that
	// is no WebSocket handshake (no Upgrade, another version, no key),
	// once the table is found and before it sees the request (admitWS).
	CodeNotWebSocket engine.Code = "not_websocket"
)

// hardFrameSlack is how far past MaxFrame a frame may run before the
// connection is closed (1009) rather than answered too_large: a frame is
// never read further than that.
const hardFrameSlack = 1 << 10

// maxBatch bounds the frames sent in one system call. A connection has no
// buffer of its own while it is idle: the client's frames are read into a
// pooled one (internal/wsconn), and frames to the client are gathered in
// a pooled batch (wsbatch.Writer) that goes out in one system call.
const maxBatch = 64

// peer is one WebSocket connection. It is read by a goroutine only while
// it has bytes to read (a burst, poll.go), or, where there is no poller,
// by one goroutine for as long as it is open; a writer goroutine runs only
// while the room has queued frames for it, so that an idle connection
// costs no goroutine (one without a poller).
type peer struct {
	s     *Server
	ws    *wsconn.Conn // the WebSocket: read by burst or serve, closed by any
	bw    *wsbatch.Writer
	pc    *wspoll.Conn // the connection under the poller; nil: read by serve
	rm    *room.Room   // the room the connection is attached to (sub)
	done  atomic.Bool  // the connection is ending: write nothing more
	lang  string
	local chan *room.Reply // answers to frames the room never saw
	tk    *ticket          // what the connection holds of the server's limits
	// lim is the connection's rate of frames, pings included; refusals
	// counts the frames refused, up to a flood (see readPump).
	lim, refusals *rate.Limiter
	flooded       sync.Once
	// in is set for a relayed session served in process (relayed.go):
	// there is no WebSocket (c and bw are nil), the relay reads what
	// the room queues, and the connection's end is in's to say.
	in *inProcess
	// wrote and heard are when the connection last had a batch written
	// and last had a frame read (sinceEpoch): its ping waits for a silence
	// of pingEvery or heardEvery (pings.go); pingAt is when the ping now
	// awaiting its answer was written (0: none).
	wrote, heard, pingAt atomic.Int64
	// owePing is set when the connection is owed a ping that rides with
	// its next batch of frames (pings.go, ridePing).
	owePing atomic.Bool
	// voiceOut holds the voice table's frames for the connection (voice.go),
	// written after the room's: made at the connection's first voice
	// message (most connections never speak: 64 slots each were 1.5 KiB a
	// player), nil until then (voiceFrames); vs is its side of the voice
	// table.
	voiceOut atomic.Pointer[chan []byte]
	vs       voiceState

	mu      sync.Mutex
	sub     *room.Sub // set once attached
	running bool      // a writer goroutine is running (or the connection is done)
	pending bool      // something was queued since the writer last looked
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	rm, wc, sub, aerr, ok := s.admitWS(w, r, admission.DoorSeat)
	if !ok {
		return
	}
	tk := wc.tk
	// A refused connection (aerr) is read only for the close's answer,
	// on this goroutine: not under the poller.
	read := s.pollRead
	if aerr != nil {
		read = nil
	}
	hw := &wsbatch.ResponseWriter{ResponseWriter: w, Timeout: s.cfg.Timeouts.WebSocket, Read: read}
	// No compression (wsconn never offers it): it would squeeze the
	// padding that keeps every seat's frames of one length
	// (docs/protocol.md, "Frame lengths"). The Origin was checked above.
	ws, err := wsconn.Accept(hw, r, s.readLimit())
	if err != nil {
		tk.release()
		if aerr == nil {
			rm.Detach(sub)
		}
		return // Accept has answered
	}
	if aerr != nil {
		// A refusal of the room (bad_token, busy, stopped) comes as a frame
		// on an open connection, as it always has, then the close, whose
		// answer is waited for (CloseWait at most) so that the frame is
		// not lost to a reset.
		s.writeError(hw.W, wc.lang, 0, aerr)
		if ws.Close(uint16(websocket.StatusPolicyViolation), "refused") == nil {
			ws.Linger()
		}
		ws.CloseNow()
		tk.release()
		return
	}
	wc.ws, wc.bw, wc.rm = ws, hw.W, rm
	wc.pc, _ = hw.R.(*wspoll.Conn)
	// The reader's count is taken first: a writer's Add below (notify)
	// and later ones happen while it is held.
	s.peers.Add(1)
	wc.mu.Lock()
	wc.sub = sub
	wc.mu.Unlock()
	wc.notify() // the welcome is queued
	now := sinceEpoch()
	wc.wrote.Store(now)
	wc.heard.Store(now)
	s.pings.add(s, wc)
	s.metrics.conns.Inc()
	// The handler returns: the connection is hijacked, and the request and
	// net/http's state for it need not live as long as the game. The
	// reader's count is held until the connection has ended.
	if wc.pc != nil {
		wc.pc.Start(wc.burst)
		return
	}
	go func() {
		defer s.peers.Done()
		wc.serve()
	}()
}

// admitWS takes a seat's WebSocket handshake r as far as the room: the
// table found here, its Origin checked, its place in the limits taken, and
// the connection attached to the room at door (admission.DoorRelay when
// another node relays it). ok false: refused, w answered. aerr is the
// room's refusal (a bad token, the policy's), which comes as a frame on an
// open connection, as it always has; without one, sub is attached.
func (s *Server) admitWS(w http.ResponseWriter, r *http.Request, door admission.Door) (rm *room.Room, wc *peer, sub *room.Sub, aerr error, ok bool) {
	id := r.PathValue("id")
	rm, err := s.room(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return nil, nil, nil, nil, false
	}
	// A request that is no handshake is refused once the table is known
	// (a table gone or unknown says so first), before anything is done
	// for it: a plain GET with a seat's token would otherwise attach the
	// seat to its room (taking it back from a stand-in, telling the table
	// it came) and detach it when the upgrade failed. (A relayed session,
	// DoorRelay, comes without the client's handshake: the relaying node
	// checked it, cmd/mafia's Elsewhere.)
	if door == admission.DoorSeat {
		if err := wsconn.Handshake(w.Header(), r); err != nil {
			s.fail(w, r, &engine.Error{Code: CodeNotWebSocket})
			return nil, nil, nil, nil, false
		}
	}
	// The Origin is checked here, before anything is counted, and the same
	// way as for the API (see httpguard), so Accept need not check it again.
	if err := s.guard.CheckOrigin(r); err != nil {
		s.fail(w, r, err)
		return nil, nil, nil, nil, false
	}
	since, _ := strconv.Atoi(r.URL.Query().Get("since"))
	lang := langOf(r)
	token := tokenOf(r, id)
	now := s.cfg.LimitClock.Now()
	// Every cap is taken before the room does any work (a welcome is the
	// table's whole log, and a seat's connection is lobby news).
	hash := ""
	if token != "" {
		hash = secret.Hash(token)
	}
	tk, err := s.guards.admit(s.guard.ClientAddr(r), id, hash, now)
	if err != nil {
		s.fail(w, r, err)
		return nil, nil, nil, nil, false
	}
	wc = s.newPeer(lang, tk)
	if door == admission.DoorRelay {
		wc.in = newInProcess()
	} else if s.own != nil && s.own.cfg.Relayed != nil && s.own.cfg.Relayed(r) {
		door = admission.DoorRelay // relayed by a node that dials its owner's WebSocket
	}
	// The connection reads the bots' lines in the language of its errors.
	// The table's policy is told its door and its address
	// (room.AttachFrom).
	e := room.Entry{Door: door, Addr: s.addrKey(r)}
	if wc.in == nil {
		e.TurnEnd = wc.turnEnd // the room's frames written on its goroutine
	} else {
		wc.in.entry(&e, s) // the relay takes them there (relayed.go)
	}
	sub, aerr = rm.AttachFrom(context.Background(), token, since, locale.Lang(lang), wc.notify, e)
	return rm, wc, sub, aerr, true
}

// newPeer is a connection's state before it attaches: its replies'
// queue and its rates; no voice queue yet (voiceFrames).
func (s *Server) newPeer(lang string, tk *ticket) *peer {
	return &peer{s: s, lang: lang, local: make(chan *room.Reply, 8), tk: tk,
		lim:      rate.NewLimiter(rate.Limit(s.cfg.Rate), s.cfg.Burst),
		refusals: rate.NewLimiter(rate.Limit(s.cfg.Limits.FloodRate), s.cfg.Limits.FloodBurst)}
}

// goPeer runs f on a goroutine of the connection's, which Server.Close
// waits for. The caller holds a count already (the handler, or a running
// connection's reader, or wc.mu while the reader cannot have ended), so
// that Add never races Close's Wait from zero.
func (s *Server) goPeer(f func()) {
	s.peers.Add(1)
	go func() {
		defer s.peers.Done()
		f()
	}()
}

// stop ends the connection: its reader returns and no writer starts. A
// connection whose close is written already is left to its close
// handshake, which ends it (wsconn.CloseWait at most).
func (wc *peer) stop() {
	wc.done.Store(true)
	if wc.in != nil {
		wc.in.end(nil, 0, "")
		return
	}
	if !wc.ws.Closing() {
		wc.ws.CloseNow()
	}
}

// serve reads the connection until it ends, then ends it (finish): the
// reader of a connection with no poller, for as long as it is open.
func (wc *peer) serve() {
	_ = wc.ws.Read(wc) // returns only when the connection is over: its reads wait
	wc.finish()
}

// finish ends a connection whose reading has ended: closes it, gives back
// its place in the limits, and detaches it from the room (last: a busy
// room's full inbox makes Detach wait, and the socket is closed
// meanwhile).
func (wc *peer) finish() {
	defer wc.s.metrics.conns.Dec()
	wc.done.Store(true)
	wc.s.pings.remove(wc)
	wc.mu.Lock()
	wc.running = true // no writer starts from now on
	wc.mu.Unlock()
	wc.ws.CloseNow()
	wc.tk.release()
	wc.s.voiceGone(wc)
	wc.rm.Detach(wc.sub)
}

// flood ends a connection that kept sending refused frames (once): its
// last frame says why, in the client's language, and the close says it too
// (1008 "flood").
func (wc *peer) flood() {
	wc.flooded.Do(func() {
		wc.s.metrics.floods.Inc()
		wc.tk.flooded(wc.s.cfg.LimitClock.Now()) // its address waits (limits.go)
		if wc.in != nil {
			wc.done.Store(true)
			wc.in.end(wc.s.replyFrame(wc.lang, &room.Reply{Err: &engine.Error{Code: CodeFlood}}), websocket.StatusPolicyViolation, "flood")
			return
		}
		wc.s.writeError(wc.bw, wc.lang, 0, &engine.Error{Code: CodeFlood})
		wc.done.Store(true)
		_ = wc.ws.Close(uint16(websocket.StatusPolicyViolation), "flood")
	})
}

// Ping takes a WebSocket ping (wsconn.Handler; the pong is wsconn's)
// from the connection's rate like any frame: past it, no pong, and a
// flood of them ends the connection.
func (wc *peer) Ping() bool { return wc.control() }

// Pong takes a WebSocket pong from the connection's rate the same way
// (the answers to the server's own pings, one every pingEvery, too): one
// the server never asked for is a frame like any other, and a flood of
// them ends the connection.
func (wc *peer) Pong() { wc.control() }

// control counts one control frame against the connection's rate and its
// address's, reporting whether it is within them; past them it counts as
// refused, and too many refused end the connection as a flood.
func (wc *peer) control() bool {
	wc.heard.Store(sinceEpoch())
	now := wc.s.cfg.LimitClock.Now()
	wc.s.metrics.framesIn.Inc()
	if wc.lim.AllowN(now, 1) && wc.tk.frame(now) {
		return true
	}
	if !wc.refusals.AllowN(now, 1) {
		wc.flood() // once; the close written, the reader waits for its answer
	}
	return false
}

// Message takes one of the client's messages (wsconn.Handler): take's,
// false when it ended the connection as a flood.
func (wc *peer) Message(text bool, data []byte) bool {
	wc.heard.Store(sinceEpoch())
	typ := websocket.MessageBinary
	if text {
		typ = websocket.MessageText
	}
	return wc.take(wc.rm, wc.sub, typ, data, nil)
}

// take takes one of the client's messages, a WebSocket's (Message) or a
// relayed session's (RelayedConn.write): handled, or refused unparsed.
// Every message, whatever it holds, first takes its place from the
// connection's rate and its address's: one refused is never parsed. pre,
// if set, is the message already parsed as a plain one. A connection that
// keeps sending refused messages is a flood: take then ends it (flood)
// and returns false.
func (wc *peer) take(rm *room.Room, sub *room.Sub, typ websocket.MessageType, data []byte, pre *parsed) bool {
	s := wc.s
	now, lnow := s.cfg.Clock.Now(), s.cfg.LimitClock.Now()
	if !wc.lim.AllowN(lnow, 1) || !wc.tk.frame(lnow) {
		wc.refuse(0, CodeRateLimited)
		s.metrics.framesIn.Inc()
		if !wc.refusals.AllowN(lnow, 1) {
			wc.flood()
			return false
		}
		return true
	}
	var handled bool
	if pre == nil && typ == websocket.MessageText && int64(len(data)) <= s.cfg.MaxFrame {
		if m, plain, err := wire.ParsePlainClientMessage(data); plain {
			pre = &parsed{m, err}
		}
	}
	if pre != nil || typ != websocket.MessageText || int64(len(data)) > s.cfg.MaxFrame {
		// A plain message (what clients send) is handled without growing
		// this goroutine's stack, and one refused before parsing too.
		handled = s.handleFrame(rm, sub, wc, now, typ, data, pre)
	} else {
		// Any other is handled on a short goroutine of its own, waited
		// for, so messages stay in order: encoding/json grows a stack,
		// which a connection's reader (serve) keeps as long as the
		// connection, a poller's worker as long as it lives, and a
		// relay's goroutine as long as its session.
		done := make(chan struct{})
		go func() {
			defer close(done)
			handled = s.handleFrame(rm, sub, wc, now, typ, data, nil)
		}()
		<-done
	}
	s.metrics.framesIn.Inc()
	if !handled && !wc.refusals.AllowN(lnow, 1) {
		wc.flood()
		return false
	}
	return true
}

// parsed is a frame already read by wire.ParsePlainClientMessage.
type parsed struct {
	m   wire.ClientMessage
	err error
}

// handleFrame checks one client frame (already within the rates) and
// submits it to the room; pre, if set, is the frame already parsed. It
// reports false when the server refused the frame itself (not the room:
// a move the rules refuse is a player's mistake, not a flood).
func (s *Server) handleFrame(rm *room.Room, sub *room.Sub, wc *peer, now time.Time, typ websocket.MessageType, data []byte, pre *parsed) bool {
	if typ != websocket.MessageText {
		wc.refuse(0, CodeMalformed)
		return false
	}
	if int64(len(data)) > s.cfg.MaxFrame && !s.voiceSized(data) {
		wc.refuse(0, CodeTooLarge)
		return false
	}
	var m wire.ClientMessage
	var err error
	if pre != nil {
		m, err = pre.m, pre.err
	} else {
		m, err = wire.ParseClientMessage(data)
	}
	if err != nil {
		wc.refuse(m.ID, CodeMalformed)
		return false
	}
	if int64(len(data)) > s.cfg.MaxFrame && m.Type != "voice" {
		wc.refuse(m.ID, CodeTooLarge)
		return false
	}
	if m.Type == "voice" {
		// The voice table's, not the room's (voice.go); answered as the
		// room answers a request.
		wc.refuseErr(m.ID, s.signalVoice(rm, sub, wc, m))
		return true
	}
	if m.Type == "chat" && !wc.tk.chat(sub.Seat, s.cfg.LimitClock.Now()) {
		wc.refuse(m.ID, CodeChatBusy)
		return false
	}
	if err := rm.Submit(sub, m, now); err != nil {
		wc.refuseErr(m.ID, err)
	}
	return true
}

// refuse answers a frame the room never saw, through the connection's own
// queue (the room's queue is the room's to close).
func (wc *peer) refuse(id int64, code engine.Code) {
	wc.refuseErr(id, &engine.Error{Code: code})
}

func (wc *peer) refuseErr(id int64, err error) {
	select {
	case wc.local <- &room.Reply{ID: id, Err: err}:
		wc.notify()
	default: // a flood of bad frames: answering them all is not owed
	}
}

// drainVoice writes the voice frames queued (into the batch under way).
func (wc *peer) drainVoice() {
	for range voiceQueue {
		select {
		case f := <-wc.voiceFrames():
			if wc.bw.Frame(wsbatch.OpText, f) != nil {
				return
			}
		default:
			return
		}
	}
}

// closeDropped closes a connection the room has let go of, saying why: 1001
// "shutdown" when the server is shutting down; else an error frame with
// the room's code (kicked, seat_left, too_slow, expired, stopped) in the
// client's language, then 1008 with the code as the close's reason.
func (wc *peer) closeDropped() {
	if wc.s.closing.Load() {
		wc.closeWith(nil, websocket.StatusGoingAway, "shutdown")
		return
	}
	why := wc.sub.Why()
	var last []byte
	if why == "" {
		why = "dropped"
	} else {
		last = wc.s.replyFrame(wc.lang, &room.Reply{Err: &engine.Error{Code: why}})
	}
	if why == room.CodeMoved {
		// The table passed to another node of the cluster: 1012 (service
		// restart), and the client reconnects with since through any node.
		wc.closeWith(last, websocket.StatusCode(1012), string(why))
		return
	}
	wc.closeWith(last, websocket.StatusPolicyViolation, string(why))
}

// closeWith ends the connection with a last frame (nil: none) and a close.
func (wc *peer) closeWith(last []byte, code websocket.StatusCode, reason string) {
	if wc.in != nil {
		wc.in.end(last, code, reason)
		return
	}
	if last != nil {
		_ = wc.bw.Frame(wsbatch.OpText, last) // bounded by the Writer's deadline
	}
	// The close's answer is the reader's to hear (wsconn.Close).
	_ = wc.ws.Close(uint16(code), reason)
}

// notify starts a writer unless one is running; a running writer looks
// again before it stops. It never blocks (the room calls it).
func (wc *peer) notify() {
	if wc.in != nil {
		wc.in.signal() // the relay reads the queue itself (relayed.go)
		return
	}
	wc.mu.Lock()
	if wc.running || wc.sub == nil {
		wc.pending = true
		wc.mu.Unlock()
		return
	}
	wc.running = true
	// Started under mu: the reader, which holds its count until it has set
	// running for good (serve), cannot have ended.
	wc.s.goPeer(wc.write)
	wc.mu.Unlock()
}

// turnEnd writes what the room's turn queued for the connection, on the
// room's goroutine (room.Entry.TurnEnd), when the socket takes it at
// once: no writer goroutine is started and woken for it. It never waits
// for the socket: the batch is opened only if nothing else is writing to
// it or left to write (wsbatch.Writer.TryBegin), and sent with one write
// that takes what the socket takes (EndNow). Anything else goes to a
// writer goroutine, as notify's would: a writer already running, a
// socket that is busy or took only part of the batch (the rest, first in
// line, is the writer's to send, and everything after it waits behind
// it), the room's close, a full batch, a failure.
func (wc *peer) turnEnd() {
	wc.mu.Lock()
	defer wc.mu.Unlock()
	if wc.running || wc.sub == nil {
		wc.pending = true
		return
	}
	// Held under mu, as notify's: the reader cannot end meanwhile (serve
	// waits for mu), so a writer started below is counted in time.
	wc.running = true
	if wc.writeNow() {
		wc.running = false
		return
	}
	wc.s.goPeer(wc.write)
}

// writeNow is turnEnd's write: up to maxBatch queued frames into a batch
// that EndNow sends. all is true when everything queued was written and
// the socket took it all; false leaves the rest to a writer goroutine.
func (wc *peer) writeNow() (all bool) {
	if wc.done.Load() || !wc.bw.TryBegin() {
		return false
	}
	s := wc.s
	var queuedAt [maxBatch]int64
	n, rest := 0, false
	for ; n < maxBatch; n++ {
		frame, taken, got, closed := wc.nextFrame()
		if closed {
			rest = true // the close (a last frame, then 1008) may wait: the writer's
			break
		}
		if !got {
			break
		}
		queuedAt[n] = taken.Queued
		err := wc.bw.Frame(wsbatch.OpText, frame)
		taken.Release()
		if err != nil {
			_, _ = wc.bw.EndNow()
			wc.done.Store(true) // the writer stops the connection
			return false
		}
	}
	if n == maxBatch {
		rest = true // more may wait
	}
	if n > 0 {
		wc.ridePing(false)
	}
	whole, err := wc.bw.EndNow()
	if err != nil {
		wc.done.Store(true)
		return false
	}
	if n > 0 {
		wc.wrote.Store(sinceEpoch())
		s.sent(queuedAt[:n])
		if whole {
			s.metrics.turnWhole.Add(float64(n))
		} else {
			s.metrics.turnLeft.Add(float64(n))
		}
	}
	return whole && !rest
}

// write sends what is queued, and goes on while more arrives; it stops the
// connection when a write fails or the room has dropped it.
func (wc *peer) write() {
	for {
		wc.mu.Lock()
		wc.pending = false
		wc.mu.Unlock()
		more, ok := wc.writeQueued()
		if !ok {
			wc.stop()
			return // running stays set: no writer starts again
		}
		wc.mu.Lock()
		if !more && !wc.pending {
			wc.running = false
			wc.mu.Unlock()
			return
		}
		wc.mu.Unlock()
	}
}

// nextFrame takes the connection's next frame to write (got): the room's
// queue first (taken, whose Queued times it; a reply is rendered in the
// connection's language), then the connection's own replies and the voice
// table's frames (taken zero: not timed). closed reports the room's queue
// closed and empty: the connection's end, which is the writer's.
func (wc *peer) nextFrame() (frame []byte, taken room.Out, got, closed bool) {
	if o, ok, open := wc.sub.Take(); ok {
		frame = o.Frame
		if o.Reply != nil {
			frame = wc.s.replyFrame(wc.lang, o.Reply)
		}
		return frame, o, true, false
	} else if !open {
		return nil, room.Out{}, false, true
	}
	select {
	case rep := <-wc.local:
		return wc.s.replyFrame(wc.lang, rep), room.Out{}, true, false
	case f := <-wc.voiceFrames():
		return f, room.Out{}, true, false
	default:
		return nil, room.Out{}, false, false
	}
}

// writeQueued writes up to maxBatch queued frames in one system call,
// rendering replies in the connection's language. more reports that the
// batch was full; ok is false when the connection is finished.
func (wc *peer) writeQueued() (more, ok bool) {
	if wc.done.Load() {
		return false, false
	}
	s := wc.s
	wc.bw.Begin()
	// When each frame of the batch was queued (see sent).
	var queuedAt [maxBatch]int64
	n := 0
	for ; n < maxBatch; n++ {
		frame, taken, got, closed := wc.nextFrame()
		if closed {
			// The voice table's last frames (its closed, queued before the
			// room let the connection go) go out ahead of the close.
			wc.drainVoice()
			if wc.bw.End() == nil {
				s.sent(queuedAt[:n])
			}
			wc.closeDropped()
			return false, false
		}
		if !got {
			more = false
			goto flush
		}
		queuedAt[n] = taken.Queued
		// Buffered by the batch: End sends it under a deadline.
		err := wc.bw.Frame(wsbatch.OpText, frame)
		// Frame has copied the frame into the batch: its memory may be reused.
		taken.Release()
		if err != nil {
			wc.bw.End()
			return false, false
		}
	}
	more = true
flush:
	// The ping owed rides with the frames, or goes alone: the sweep's of
	// a connection it may not write to itself (pingNow).
	wc.ridePing(n == 0)
	if err := wc.bw.End(); err != nil {
		return false, false
	}
	if n > 0 {
		wc.wrote.Store(sinceEpoch())
	}
	s.sent(queuedAt[:n])
	return more, true
}

// sent counts frames written, and how long each waited since the room
// queued it (Unix nanoseconds; 0: not queued by the room, not timed).
func (s *Server) sent(queuedAt []int64) {
	s.metrics.framesOut.Add(float64(len(queuedAt)))
	now := s.cfg.Clock.Now().UnixNano()
	for _, q := range queuedAt {
		if q != 0 {
			s.metrics.queued.Observe(float64(now-q) / 1e9)
		}
	}
}

// replyFrame renders an answer in the connection's language, padded to
// room.AnswerLen: an accepted command, a refusal and a pong look alike.
func (s *Server) replyFrame(lang string, rep *room.Reply) []byte {
	if rep.Err == nil {
		return room.AnswerFrame(wire.ServerMessage{Type: "reply", ID: rep.ID})
	}
	var e *engine.Error
	if !errors.As(rep.Err, &e) {
		s.log.Error("internal error in a reply", "err", rep.Err)
		e = &engine.Error{Code: room.CodeInternal}
	}
	s.metrics.errors.WithLabelValues(string(e.Code)).Inc()
	return room.AnswerFrame(wire.ServerMessage{Type: "error", ID: rep.ID, Code: string(e.Code), Message: s.cfg.Render(lang, e)})
}

// writeError writes an error frame to the connection, bounded by its
// Writer's deadline.
func (s *Server) writeError(w *wsbatch.Writer, lang string, id int64, err error) {
	_ = w.Frame(wsbatch.OpText, s.replyFrame(lang, &room.Reply{ID: id, Err: err}))
}
