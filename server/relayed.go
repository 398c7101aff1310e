package server

// This file serves a seat's WebSocket that another node of a cluster
// relays to this one, its table's owner, in process: no second WebSocket,
// no HTTP upgrade, no pipe. The relay's session writes the client's frames
// to a RelayedConn and reads the server's from it; between them stand the
// same guards as for a WebSocket of this node's own (conn.go): the table
// located here, the Origin, the limits of the client's address, the
// table's policy (at admission.DoorRelay), each frame's rates, the flood,
// the frame's size; and the session is bound to its table and seat as a
// WebSocket is, by the token its handshake carried.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/coder/websocket"

	"mafia/admission"
	"mafia/room"
	"mafia/wire"
)

// ServeRelayed serves, in process, the WebSocket handshake r of table's
// seat (or spectator) that another node relays to this one: r as the
// client sent it, its RemoteAddr the client's address. It returns the
// session's connection, or nil having answered w as the handshake would
// have been answered (table_moving, an Origin refused, a limit). A refusal
// of the room (a bad token, the policy's) comes as a frame and a close
// 1008, as on a WebSocket.
func (s *Server) ServeRelayed(w http.ResponseWriter, r *http.Request, table string) *RelayedConn {
	var c *RelayedConn
	r.SetPathValue("id", table)
	s.located(func(w http.ResponseWriter, r *http.Request) { c = s.serveRelayed(w, r) })(w, r)
	return c
}

func (s *Server) serveRelayed(w http.ResponseWriter, r *http.Request) *RelayedConn {
	rm, wc, sub, aerr, ok := s.admitWS(w, r, admission.DoorRelay)
	if !ok {
		return nil
	}
	// Not one of s.peers: the relay's goroutines are its node's, which
	// ends them (Close does not wait for a session the relay holds).
	c := &RelayedConn{wc: wc, rm: rm}
	s.metrics.conns.Inc()
	if aerr != nil {
		wc.in.end(s.replyFrame(wc.lang, &room.Reply{Err: aerr}), websocket.StatusPolicyViolation, "refused")
		return c
	}
	c.sub = sub
	wc.mu.Lock()
	wc.sub = sub
	wc.mu.Unlock()
	return c
}

// RelayedConn is a relayed session's connection to this node's room
// (ServeRelayed): the relay reads the frames the room queues for the seat
// (Read, the welcome first) and writes the client's frames (Write), one
// goroutine each, as it would a WebSocket's. It holds no goroutine of its
// own.
type RelayedConn struct {
	wc   *peer
	rm   *room.Room
	sub  *room.Sub // nil: refused by the room
	once sync.Once
}

// Read returns the next frame for the client, waiting for one; when the
// connection ends, its last frame (an error, if any), then a
// websocket.CloseError with the close's code and reason (io.EOF: dropped
// without one). The frame is the caller's.
func (c *RelayedConn) Read(ctx context.Context) (websocket.MessageType, []byte, error) {
	var frame []byte
	err := c.Next(ctx, func(_ websocket.MessageType, f []byte) error {
		frame = bytes.Clone(f)
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	return websocket.MessageText, frame, nil
}

// Next is Read handing the frame to f instead of returning it: the frame
// is the room's memory, valid only until f returns (so the relay copies
// it once, into the message it sends, and no more). Next returns f's
// error, or the connection's end as Read does.
func (c *RelayedConn) Next(ctx context.Context, f func(websocket.MessageType, []byte) error) error {
	for {
		if took, err := c.TryNext(f); took || err != nil {
			return err
		}
		if err := c.Wait(ctx); err != nil {
			return err
		}
	}
}

// TryNext is Next without the wait: took is false, with no error, when
// nothing is queued for the client.
func (c *RelayedConn) TryNext(f func(websocket.MessageType, []byte) error) (took bool, err error) {
	wc, s := c.wc, c.wc.s
	for {
		if frame, err, over := wc.in.ended(); over {
			if frame != nil {
				return true, f(websocket.MessageText, frame)
			}
			c.finish()
			return false, err
		}
		if c.sub != nil {
			if o, ok, open := c.sub.Take(); ok {
				return true, c.give(o, f)
			} else if !open {
				wc.closeDropped()
				continue
			}
		}
		select {
		case rep := <-wc.local:
			s.sent([]int64{0}) // a reply the room never saw: counted, not timed
			return true, f(websocket.MessageText, s.replyFrame(wc.lang, rep))
		case vf := <-wc.voiceFrames():
			s.sent([]int64{0})
			return true, f(websocket.MessageText, vf)
		default:
		}
		return false, nil
	}
}

// give hands the room's item o to f as a frame and gives its memory back.
func (c *RelayedConn) give(o room.Out, f func(websocket.MessageType, []byte) error) error {
	s := c.wc.s
	var err error
	if o.Reply != nil {
		err = f(websocket.MessageText, s.replyFrame(c.wc.lang, o.Reply))
	} else {
		err = f(websocket.MessageText, o.Frame)
	}
	o.Release() // the room's memory goes back now
	s.sent([]int64{o.Queued})
	return err
}

// Wait waits until something may be queued for the client (TryNext
// again), or ctx ends: then the session is given back and ctx's error
// returned.
func (c *RelayedConn) Wait(ctx context.Context) error {
	select {
	case <-c.wc.in.wake:
		return nil
	case <-ctx.Done():
		c.finish()
		return ctx.Err()
	}
}

// Wake makes a Wait return (never blocks).
func (c *RelayedConn) Wake() { c.wc.in.signal() }

// OnTurn has the room's turns hand over the session's frames on the room's
// goroutine: at the end of each turn that queued frames for the client,
// turn is called there in place of waking Wait (it takes them with
// TakeQueued, or Wakes); once every such connection of the turn was told,
// done's TurnDone is called, once per turn whatever the number of
// sessions that share it (the relay sends what its sessions took). Both
// must not block. The welcome, the connection's own replies and the end
// still wake Wait. Set once, before the session's frames are read.
func (c *RelayedConn) OnTurn(turn func(), done interface{ TurnDone() }) {
	c.wc.s.relayTurn.add(done)
	c.wc.in.turn.Store(&turn)
}

// TakeQueued hands f the next frame the room queued for the client, never
// waiting (took false: none). It leaves the session's end to TryNext (on
// another goroutine: the end gives the seat back to the room), and wakes
// Wait for it. It is for the room's goroutine (OnTurn's turn): calls of
// TryNext and TakeQueued must not overlap (the caller orders them).
func (c *RelayedConn) TakeQueued(f func(websocket.MessageType, []byte) error) (took bool, err error) {
	wc := c.wc
	if c.sub == nil || wc.in.isOver() {
		wc.in.signal()
		return false, nil
	}
	o, ok, open := c.sub.Take()
	if !ok {
		if !open {
			wc.in.signal()
		}
		return false, nil
	}
	return true, c.give(o, f)
}

// relayTurns is the server's room.TurnGroup for its relayed sessions:
// it tells each group their OnTurn named (a cluster node's) in turn.
type relayTurns struct {
	mu     sync.Mutex
	groups atomic.Pointer[[]room.TurnGroup] // replaced whole, never changed
}

// add makes g one of the groups told, once.
func (t *relayTurns) add(g room.TurnGroup) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var gs []room.TurnGroup
	if p := t.groups.Load(); p != nil {
		gs = *p
	}
	for _, h := range gs {
		if h == g {
			return
		}
	}
	gs = append(gs[:len(gs):len(gs)], g)
	t.groups.Store(&gs)
}

// TurnDone tells the groups.
func (t *relayTurns) TurnDone() {
	if p := t.groups.Load(); p != nil {
		for _, g := range *p {
			g.TurnDone()
		}
	}
}

// entry has the room tell a relayed session at its turns' ends
// (room.Entry.TurnEnd, TurnGroup), for OnTurn.
func (in *inProcess) entry(e *room.Entry, s *Server) {
	e.TurnEnd, e.TurnGroup = in.turnEnd, &s.relayTurn
}

// Write takes one frame of the client's, as a WebSocket's reader does
// (peer.take): within the connection's and its address's rates (a frame
// past them is refused unread, rate_limited, and a flood of refusals ends
// the session 1008 flood), a text frame within MaxFrame, parsed and
// handed to the room. A frame past MaxFrame by more than the WebSocket's
// slack ends the session 1009, as the WebSocket's read limit does.
func (c *RelayedConn) Write(_ context.Context, typ websocket.MessageType, p []byte) error {
	return c.write(typ, p, nil)
}

// TryWrite is Write for the goroutine that reads the relay's link, which
// carries every session between two nodes and must never wait for one:
// it takes a frame only when nothing in Write can wait or grow its stack,
// a text frame within MaxFrame that parses as a plain frame (no
// encoding/json) and is not the voice table's. Any other frame is left
// untouched (handled false: no rate counted, nothing refused) for Write
// on the session's own goroutine. The room's Submit never waits (a full
// inbox is refused busy), as a WebSocket's reader relies on too.
func (c *RelayedConn) TryWrite(typ websocket.MessageType, p []byte) (handled bool, err error) {
	if typ != websocket.MessageText || int64(len(p)) > c.wc.s.cfg.MaxFrame {
		return false, nil
	}
	m, plain, perr := wire.ParsePlainClientMessage(p)
	if !plain || m.Type == "voice" {
		return false, nil
	}
	return true, c.write(typ, p, &parsed{m, perr})
}

// write is Write, with the frame already parsed as a plain one (pre), or
// not (nil).
func (c *RelayedConn) write(typ websocket.MessageType, p []byte, pre *parsed) error {
	wc, s := c.wc, c.wc.s
	if wc.done.Load() || c.sub == nil {
		return net.ErrClosed
	}
	if limit := s.readLimit(); int64(len(p)) > limit {
		wc.done.Store(true)
		wc.in.end(nil, websocket.StatusMessageTooBig, fmt.Sprintf("read limited at %d bytes", limit+1))
		return net.ErrClosed
	}
	if !wc.take(c.rm, c.sub, typ, p, pre) {
		return net.ErrClosed // a flood: the session ended
	}
	return nil
}

// Close ends the session from the relay's side (the client closed, or the
// relay ended): the seat is detached, its place in the limits given back.
func (c *RelayedConn) Close(websocket.StatusCode, string) error {
	c.finish()
	return nil
}

// CloseNow is Close.
func (c *RelayedConn) CloseNow() error { return c.Close(0, "") }

// finish gives back what the session holds, once.
func (c *RelayedConn) finish() {
	c.once.Do(func() {
		wc := c.wc
		wc.done.Store(true)
		wc.in.end(nil, 0, "") // a Read waiting returns
		wc.mu.Lock()
		wc.running = true
		wc.mu.Unlock()
		wc.tk.release()
		wc.s.voiceGone(wc)
		if c.sub != nil {
			c.rm.Detach(c.sub)
		}
		wc.s.metrics.conns.Dec()
	})
}

// inProcess is the end of a relayed session served in process: whether
// the room queued something (wake), and the close once decided, with a
// last frame to give before it.
type inProcess struct {
	wake chan struct{}
	// turn is OnTurn's, once set: the room's turn end calls it in place
	// of signal.
	turn atomic.Pointer[func()]

	mu     sync.Mutex
	over   bool
	last   []byte
	code   websocket.StatusCode
	reason string
}

func newInProcess() *inProcess { return &inProcess{wake: make(chan struct{}, 1)} }

// signal wakes the reader (never blocks: the room calls it).
func (in *inProcess) signal() {
	select {
	case in.wake <- struct{}{}:
	default:
	}
}

// turnEnd is the room's end of a turn that queued frames for the
// session (room.Entry.TurnEnd): OnTurn's turn, or the reader woken.
func (in *inProcess) turnEnd() {
	if f := in.turn.Load(); f != nil {
		(*f)()
		return
	}
	in.signal()
}

// isOver reports whether the close is decided.
func (in *inProcess) isOver() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.over
}

// end decides the close (the first decision stands): last, if any, is
// read before it.
func (in *inProcess) end(last []byte, code websocket.StatusCode, reason string) {
	in.mu.Lock()
	if !in.over {
		in.over, in.last, in.code, in.reason = true, last, code, reason
	}
	in.mu.Unlock()
	in.signal()
}

// ended reports the close once decided: its last frame first (once),
// then the close as an error.
func (in *inProcess) ended() (frame []byte, err error, over bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.over {
		return nil, nil, false
	}
	if in.last != nil {
		frame, in.last = in.last, nil
		return frame, nil, true
	}
	if in.code == 0 {
		return nil, io.EOF, true
	}
	return nil, websocket.CloseError{Code: in.code, Reason: in.reason}, true
}
