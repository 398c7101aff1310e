package cluster

// This file sends the owner's frames of its relayed sessions from the
// room's own goroutine at the end of the room's turn (issue 27): the room
// hands each session the frames the turn queued for it (session.turn),
// which go into the outbox to the client's node without waking the
// session's pumpOut or the outbox's sender, and once every session of the
// turn has its frames in, the outbox's batch is written to the link with
// one write that never waits (outbox.flushNow). A turn's broadcast to
// seats relayed through one node is then one batch and one system call on
// the room's goroutine, and no goroutine is woken for it on the owner.

import (
	"context"

	"github.com/coder/websocket"
)

// turnSource is a Conn of the owner's server whose room hands the
// session's frames over on its own goroutine at the end of each turn
// (server.RelayedConn): OnTurn sets the hooks; TakeQueued hands over a
// frame the room queued, never waiting; TryNext is Next without the wait
// (every frame, the replies of the connection's own, the end), and Wait
// waits until Wake or something queued.
type turnSource interface {
	frameSource
	OnTurn(turn func(), done interface{ TurnDone() })
	TakeQueued(f func(websocket.MessageType, []byte) error) (took bool, err error)
	TryNext(f func(websocket.MessageType, []byte) error) (took bool, err error)
	Wait(ctx context.Context) error
	Wake()
}

// turn takes, on the room's goroutine at its turn's end, the frames the
// turn queued for the session and puts them into the outbox, numbered
// (sendTurn); the node's turns.TurnDone sends them after every session of
// the turn had its turn. It never waits: with pumpOut taking frames
// (omu busy) or the window full it wakes pumpOut, which takes them.
func (s *session) turn() {
	if !s.omu.TryLock() {
		s.src.Wake()
		return
	}
	defer s.omu.Unlock()
	window := uint64(s.n.cfg.Window)
	for s.ctx.Err() == nil {
		if s.sent-s.acked.Load() >= window {
			s.src.Wake() // pumpOut waits for the acks
			return
		}
		if took, _ := s.src.TakeQueued(s.sendTurn); !took {
			return
		}
	}
}

// sendTurn numbers a frame turn took and puts it into the outbox; the
// turn's end sends it (omu held).
func (s *session) sendTurn(typ websocket.MessageType, data []byte) error {
	s.sent++
	s.count(data)
	s.out.add(s.id, s.their, kindOf(typ), s.sent, data)
	s.n.stats.turnFrames.Add(1)
	return nil
}

// nextTurned is pumpOut's Next for a turnSource: a frame taken and sent
// with omu held, so that a turn's frames and pumpOut's keep one order.
func (s *session) nextTurned(send func(websocket.MessageType, []byte) error) error {
	for {
		s.omu.Lock()
		took, err := s.src.TryNext(send)
		s.omu.Unlock()
		if took || err != nil {
			return err
		}
		if err := s.src.Wait(s.ctx); err != nil {
			return err
		}
	}
}

// turnFlusher is the node's end of a room's turn (room.TurnGroup, through
// the server's relayed connections): each outbox holding records is sent.
type turnFlusher struct{ n *Node }

// TurnDone sends what the turn's sessions put into the outboxes.
func (t *turnFlusher) TurnDone() {
	n := t.n
	n.mu.Lock()
	var outs [4]*outbox
	all := outs[:0]
	for _, o := range n.outboxes {
		all = append(all, o)
	}
	n.mu.Unlock()
	for _, o := range all {
		o.flushNow(byTurn)
	}
}

// flushNow sends the outbox's batches on the calling goroutine (a room's,
// at its turn's end: by byTurn; one that put a message that goes alone:
// byPut) with one write to the link that never waits: what the socket
// does not take at once is left, first in line, to the sender, woken for
// it. Anything else goes to the sender as before: a bus peer, a link not
// dialled yet or dead or under TLS (no write that never waits), the
// sender writing (wmu), bytes left by an earlier write.
func (o *outbox) flushNow(by int) {
	o.mu.Lock()
	none, link := len(o.chunks) == 0, o.link != ""
	o.mu.Unlock()
	if none {
		return
	}
	if !link || !o.wmu.TryLock() {
		o.wakeSender()
		return
	}
	defer o.wmu.Unlock()
	c := o.conn
	if c == nil || c.raw == nil || c.dead.Load() || len(o.left) > 0 || o.closing() {
		o.wakeSender()
		return
	}
	o.mu.Lock()
	chunks := o.chunks
	o.chunks = nil
	o.taken.Add(1)
	o.mu.Unlock()
	if len(chunks) == 0 {
		return
	}
	o.seal(chunks)
	o.n.stats.linkWrites[by].Add(1)
	rest, err := c.writeNow(chunks)
	if err != nil || len(rest) > 0 {
		// The sender writes the rest on this link (and fails it there,
		// as its own write would, if it fails).
		o.n.stats.nowLeft.Add(1)
		o.left, o.leftBufs = rest, chunks
		o.hasLeft.Store(true)
		o.wakeSender()
		return
	}
	o.recycle(chunks)
}

// closing reports whether the node is closing (its outboxes' senders
// flush and stop).
func (o *outbox) closing() bool {
	select {
	case <-o.quit:
		return true
	default:
		return false
	}
}

// writeLeft writes what a turn's write left (wmu held), on the link it
// began on, waiting for it as the sender's writes do; ok is false when
// that failed (the caller ends the sessions with the peer). A link that
// ended meanwhile has ended them already: the rest is dropped, and never
// written on another link (the peer reads whole batches).
func (o *outbox) writeLeft() (ok bool) {
	if len(o.left) == 0 {
		return true
	}
	left, bufs := o.left, o.leftBufs
	o.left, o.leftBufs = nil, nil
	o.hasLeft.Store(false)
	defer o.recycle(bufs)
	if o.conn == nil || o.conn.dead.Load() {
		return true
	}
	if err := o.writeLink(left); err != nil {
		return false
	}
	return true
}

// The writers of batches to links (relayStats.linkWrites): the outbox's
// sender, a room's goroutine at its turn's end, the goroutine that put a
// message that goes alone (session.publish).
const (
	bySender = 0
	byTurn   = 1
	byPut    = 2
)
