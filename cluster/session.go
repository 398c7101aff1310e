package cluster

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Conn is one end of a relayed session on a node: the client's WebSocket on
// the node it connected to (clientConn), or the owner's server (in
// process, or the node's own WebSocket to it). Its frames are read by one
// of three ways: a turnSource's, a frameSource's (each in place), or a
// messageReader's. *websocket.Conn satisfies it and messageReader.
type Conn interface {
	Write(ctx context.Context, typ websocket.MessageType, p []byte) error
	Close(code websocket.StatusCode, reason string) error
	CloseNow() error
}

// messageReader is a Conn read one message at a time, each in memory of
// its own (*websocket.Conn: the owner's side dialled, dialLocal).
type messageReader interface {
	Read(ctx context.Context) (websocket.MessageType, []byte, error)
}

// The kinds of a session message (its first byte; bytes 1-8 are its
// sequence number, big-endian; the rest its payload).
const (
	kindText   = 't' // a text frame
	kindBinary = 'b' // a binary frame
	kindClose  = 'c' // the end: payload code (2 bytes, 0: dropped) and reason
	kindAck    = 'a' // sequence: how many frames the sender has delivered
)

const headerLen = 9

// Closes a relay makes itself (docs/cluster-bus.md).
const (
	closeShutdown  = websocket.StatusGoingAway
	reasonShutdown = "shutdown"
	// closeNodeGone ends a session whose other node is gone (unheard of
	// for Missed intervals): 1012, service restart; reconnect with since.
	closeNodeGone  = websocket.StatusCode(1012)
	reasonNodeGone = "node_gone"
	// closeRelay ends a session whose messages broke the protocol (a gap
	// in the sequence, a window overrun): 1011.
	closeRelay  = websocket.StatusInternalError
	reasonRelay = "relay_error"
)

// msg is one frame or the close, in order.
type msg struct {
	kind   byte
	data   []byte
	code   websocket.StatusCode
	reason string
	lb     *linkBuf // the link buffer data is in (nil: none of its own)
}

// inMsg is a message of the other side as the node split it out of a
// batch: its bytes and the link buffer they are in (nil: a batch of the
// bus, or a test's), held for it until it is written (linkBuf).
type inMsg struct {
	d  []byte
	lb *linkBuf
	// taken is the kind of a frame already taken (session.take) by the
	// goroutine that split it, whose Conn then left it to pumpIn (d its
	// payload); 0: d is the message as it came.
	taken byte
}

// relayStats counts a node's relay traffic.
type relayStats struct {
	opened, framesIn, framesOut, bytesIn, bytesOut atomic.Int64
	// forwarded counts the plain HTTP requests passed to an owner and
	// answered; forwardFailed those it did not answer (Forward).
	forwarded, forwardFailed atomic.Int64
	// frames and bytes by direction (toOwner, toClient); results the
	// sessions opened by side (sideA, sideB) and result (resultOK,
	// resultRefused, resultUnavailable), for the metrics (metrics.go).
	frames, bytes [2]atomic.Int64
	results       [2][3]atomic.Int64
	// batches counts the bus messages the sessions' messages went out in
	// (outbox.go): several frames, closes and acks each.
	batches atomic.Int64
	// linkWrites counts the writes of batches to links, by who made them
	// (bySender, byTurn: a room's goroutine at its turn's end, byPut: the
	// goroutine that put a message that goes alone; turn.go); nowLeft
	// those of the last two that left bytes to the sender.
	linkWrites [3]atomic.Int64
	nowLeft    atomic.Int64
	// turnFrames counts the frames a room's turn put into an outbox on
	// its own goroutine (turn.go).
	turnFrames atomic.Int64
	// direct counts the frames written to a client by the goroutine that
	// split them out of a batch (session.give), directLeft those writes
	// that left part of their bytes to the session's pumpIn; ownerDirect
	// the client's frames the owner's server took on that goroutine
	// (session.writeOwner); directWrites the client's socket writes the
	// direct frames went in (a session's frames of one batch go in one).
	direct, directLeft, ownerDirect, directWrites atomic.Int64
}

// The sides of a session, the directions of its frames and the results of
// its opening, as relayStats indexes them.
const (
	sideA = 0 // the node holding the client
	sideB = 1 // the table's owner

	toOwner  = 0 // the client's frames, from side a to side b
	toClient = 1 // the server's frames, from side b to side a

	resultOK          = 0 // the owner's server took the WebSocket
	resultRefused     = 1 // it answered the handshake with an HTTP error
	resultUnavailable = 2 // the owner did not answer (or the bus failed)
)

// result counts one session's opening on side by result.
func (st *relayStats) result(side, result int) { st.results[side][result].Add(1) }

// RelayStats are a node's relay counters: sessions opened (both sides),
// frames and bytes published to and received from other nodes.
type RelayStats struct {
	Sessions, FramesOut, FramesIn, BytesOut, BytesIn int64
	// Forwarded and ForwardFailed count the plain HTTP requests this node
	// passed to a table's owner: answered, and not answered (Forward).
	Forwarded, ForwardFailed int64
	// Batches counts the bus messages this node's relayed frames, closes
	// and acks went out in: a batch carries every message of its sessions
	// headed to one node that gathered while the last one was sent.
	Batches int64
	// Direct counts the frames this node wrote to its clients as it read
	// them off a link or the bus, with no hand-off to the session's own
	// goroutine; DirectLeft those of its writes the client's socket did
	// not take whole, whose rest the session's goroutine wrote.
	Direct, DirectLeft int64
	// OwnerDirect counts the clients' frames this node's server took on
	// the goroutine that read them off a link or the bus (writeOwner).
	OwnerDirect int64
	// DirectWrites counts the writes to the clients' sockets the direct
	// frames went in: a session's frames of one batch go in one.
	DirectWrites int64
	// TurnFrames counts the owner's frames this node's rooms put into
	// the relay on their own goroutine at their turns' end (turn.go);
	// SenderWrites, TurnWrites and PutWrites the batches' writes to links
	// made by the outboxes' senders, by the rooms' goroutines at their
	// turns' end, and by the goroutines that put an ack or a client's
	// frame.
	TurnFrames, SenderWrites, TurnWrites, PutWrites int64
}

// RelayStats reports the node's relay counters.
func (n *Node) RelayStats() RelayStats {
	return RelayStats{Sessions: n.stats.opened.Load(), FramesOut: n.stats.framesOut.Load(), FramesIn: n.stats.framesIn.Load(),
		BytesOut: n.stats.bytesOut.Load(), BytesIn: n.stats.bytesIn.Load(),
		Forwarded: n.stats.forwarded.Load(), ForwardFailed: n.stats.forwardFailed.Load(), Batches: n.stats.batches.Load(),
		Direct: n.stats.direct.Load(), DirectLeft: n.stats.directLeft.Load(), OwnerDirect: n.stats.ownerDirect.Load(), DirectWrites: n.stats.directWrites.Load(),
		TurnFrames: n.stats.turnFrames.Load(), SenderWrites: n.stats.linkWrites[bySender].Load(), TurnWrites: n.stats.linkWrites[byTurn].Load(), PutWrites: n.stats.linkWrites[byPut].Load()}
}

// session is one side of a relayed WebSocket session: it copies its local
// Conn's frames to the other node and the other node's frames to its Conn,
// in order, at most Window frames unacknowledged each way, and passes a
// close either way with its code and reason.
type session struct {
	n    *Node
	id   string
	side int       // sideA or sideB
	peer string    // the other node's id
	born time.Time // when it opened, by the node's clock
	pub  string    // the subject the other side's node reads (its batches)
	// out is the outbox to the other side's node; mine and theirs are
	// the sides a record names: this one's and the other's ('a', 'b').
	out         *outbox
	mine, their byte

	// in is the other side's messages, opened, as the node splits them
	// out of its batches (takeBatch): pumpIn reads them. Room for two
	// windows of frames, the acks and the close; a sender past its window
	// fills it, and the session ends (relay_error).
	in     chan inMsg
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	conn    Conn // nil until the side has its local connection
	next    uint64
	failed  bool
	ended   chan struct{} // closed when the session is over
	endOnce sync.Once

	sent  uint64 // frames published (the reader's own)
	acked atomic.Uint64
	more  chan struct{} // an ack came

	// direct is the client's WebSocket when the node may write to it
	// from the goroutine that splits the batches (give): nil on the
	// owner's side, and for a Conn with no write that never waits.
	direct directConn
	// owner is the owner's server's Conn when it takes a client's frame
	// on the goroutine that splits the batches (writeOwner): nil on the
	// client's side, and for a Conn that cannot.
	owner tryWriter
	// wmu is held by whoever writes to the local Conn: pumpIn, or give
	// writing directly; delivered, ackedTo, ackSent, ackWaits and ackAt
	// are theirs: ackedTo is the last ack put into the outbox, ackSent
	// the last known to be on its way; ackWaits is true while ackedTo
	// may not be, put when the outbox's taken count was ackAt.
	wmu                         sync.Mutex
	delivered, ackedTo, ackSent uint64
	ackWaits                    bool
	ackAt                       uint64
	// pending counts the messages given to in that pumpIn has not
	// finished with: give writes directly only when it is 0, so that no
	// frame passes one still waiting.
	pending atomic.Int32

	// src is the owner's server's connection when its room hands the
	// session's frames over at its turns' ends (turnSource, turn.go):
	// nil otherwise. omu is held by whoever takes a frame from it and
	// publishes it (pumpOut, or the room's goroutine in turn), so that
	// frames keep their order and numbers; sent is omu's.
	src turnSource
	omu sync.Mutex
}

// newSession makes a side of session id with the peer, subscribed to its
// own subject (mine is "a" or "b"); attach gives it its Conn.
func (n *Node) newSession(id, peer, mine string) (*session, error) {
	other, side := "b", sideA
	if mine == "b" {
		other, side = "a", sideB
	}
	ctx, cancel := context.WithCancel(context.Background())
	if len(id) > 255 {
		cancel()
		return nil, errors.New("cluster: a session id is at most 255 bytes")
	}
	out := n.outboxTo(peer)
	s := &session{n: n, id: id, side: side, peer: peer, born: n.cfg.Now(), pub: out.subject, out: out, mine: mine[0], their: other[0],
		in: make(chan inMsg, 2*n.cfg.Window+8), ctx: ctx, cancel: cancel, ended: make(chan struct{}), more: make(chan struct{}, 1)}
	// The node reads its batches on one subscription of its own, made at
	// its start (Start): the session subscribes to nothing, and is heard
	// once it is in the node's list.
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		cancel()
		return nil, errors.New("cluster: node closed")
	}
	n.sessions[id] = s
	n.mu.Unlock()
	n.stats.opened.Add(1)
	return s, nil
}

// take reads one message of the other side, opened (on pumpIn's
// goroutine): a frame or the close in order is returned to deliver (ok);
// an ack gives the window's credit back; the other side's out-of-band
// close, a broken sequence, anything else ends the session or is dropped.
func (s *session) take(d []byte) (x msg, ok bool) {
	if len(d) < headerLen {
		s.fail(closeRelay, reasonRelay)
		return msg{}, false
	}
	seq := binary.BigEndian.Uint64(d[1:headerLen])
	if d[0] == kindAck {
		for {
			old := s.acked.Load()
			if seq <= old || s.acked.CompareAndSwap(old, seq) {
				break
			}
		}
		select {
		case s.more <- struct{}{}:
		default:
		}
		return msg{}, false
	}
	if d[0] == kindClose && seq == 0 && len(d) >= headerLen+2 {
		// The other node ended the session out of band (its peer gone,
		// it closing): end now, whatever is still on the way.
		s.abort(websocket.StatusCode(binary.BigEndian.Uint16(d[headerLen:])), string(d[headerLen+2:]), false)
		return msg{}, false
	}
	s.mu.Lock()
	if seq <= s.next {
		// A frame already delivered, sealed for this very session: a
		// replay off the wire (NATS itself never repeats one): dropped.
		s.mu.Unlock()
		s.n.dropped.Add(1)
		return msg{}, false
	}
	s.next++
	inOrder := seq == s.next
	s.mu.Unlock()
	s.n.stats.framesIn.Add(1)
	s.n.stats.bytesIn.Add(int64(len(d)))
	s.n.stats.frames[s.inward()].Add(1)
	s.n.stats.bytes[s.inward()].Add(int64(len(d)))
	switch d[0] {
	case kindText, kindBinary:
		x = msg{kind: d[0], data: d[headerLen:]}
	case kindClose:
		if len(d) < headerLen+2 {
			inOrder = false
			break
		}
		x = msg{kind: kindClose, code: websocket.StatusCode(binary.BigEndian.Uint16(d[headerLen:])), reason: string(d[headerLen+2:])}
	default:
		inOrder = false
	}
	if !inOrder {
		s.fail(closeRelay, reasonRelay)
		return msg{}, false
	}
	return x, true
}

// nextNow is the next frame or close already waiting, if any (ok false:
// none is), the acks and strays before it taken on the way.
func (s *session) nextNow() (x msg, ok bool) {
	for {
		select {
		case m := <-s.in:
			if x, ok = s.takeIn(m); ok {
				return x, true
			}
		default:
			return msg{}, false
		}
	}
}

// takeIn takes a message pumpIn read from in: pending counted down, and
// the message opened (take). A message with no bytes (give's, when a
// direct write left part of its batch) is nothing to deliver: the batch's
// End writes what was left.
func (s *session) takeIn(m inMsg) (x msg, ok bool) {
	s.pending.Add(-1)
	if m.taken != 0 {
		return msg{kind: m.taken, data: m.d, lb: m.lb}, true
	}
	if m.d == nil {
		return msg{}, false
	}
	if x, ok = s.take(m.d); ok {
		x.lb = m.lb
		return x, true
	}
	m.lb.release()
	return msg{}, false
}

// give hands the session a message of the other side, as the node splits
// it out of a batch (takeBatch), on the splitting goroutine. An ack is
// taken here. A frame for the client, when nothing for it waits and its
// writer is idle, is written here too (writeDirect, into the batch's
// direct writes b, nil: none): one goroutine hand-off fewer per relayed
// frame. Everything else, and a frame that cannot go at once, goes to
// pumpIn in order. A sender past its window fills in, and the session
// ends (relay_error).
func (s *session) give(m inMsg, b *directBatch) {
	if len(m.d) >= headerLen && m.d[0] == kindAck {
		s.take(m.d)
		m.lb.release()
		return
	}
	if s.pending.Load() == 0 && (s.writeDirect(m, b) || s.writeOwner(m)) {
		return
	}
	s.pending.Add(1)
	select {
	case s.in <- m:
	default:
		s.pending.Add(-1)
		m.lb.release()
		s.fail(closeRelay, reasonRelay)
	}
}

// directBatch is the direct writes the splitting of one batch began
// (takeBatch): each session's frames in the batch go to its client in one
// write, sent when the batch is split (end), with the session's wmu held
// until then. The frames of a reply and a broadcast of one turn cost one
// system call, as on the owner's own socket.
type directBatch struct {
	open []*session
	buf  [8]*session
}

// has reports whether s's direct write is open in the batch.
func (b *directBatch) has(s *session) bool {
	for _, o := range b.open {
		if o == s {
			return true
		}
	}
	return false
}

// end sends each session's write, never waiting (endDirect), in the order
// they began.
func (b *directBatch) end() {
	for i, s := range b.open {
		s.endDirect()
		b.open[i] = nil
	}
	b.open = b.open[:0]
}

// writeDirect writes a frame to the client's WebSocket on the calling
// goroutine, if the session has a direct Conn, nothing of it waits
// (pending), pumpIn is not writing (wmu) and the socket's writer is idle;
// the write never waits for the socket (EndNow): what the socket does not
// take at once is handed to pumpIn, first in line, so that a slow client
// holds up its own frames only. With b, the write stays open (and wmu
// held) for the session's next frames of the batch until b ends. handled
// is false when it wrote nothing and the message must go to pumpIn.
func (s *session) writeDirect(m inMsg, b *directBatch) (handled bool) {
	if len(m.d) < headerLen || (m.d[0] != kindText && m.d[0] != kindBinary) {
		return false
	}
	if b != nil && b.has(s) {
		// Its write is open, wmu held, nothing queued (give checked
		// pending): the frame joins it.
		s.writeFrame(m)
		return true
	}
	s.mu.Lock()
	c, failed := s.direct, s.failed
	s.mu.Unlock()
	if c == nil || failed || !s.wmu.TryLock() {
		return false
	}
	// The batch is opened only if the socket's writer is idle, in one
	// step: a check then a Begin could find the writer taken in between
	// (the library answering a ping to a client that stopped reading) and
	// wait for that socket, holding up every session of the link.
	if s.pending.Load() != 0 || !c.TryBegin() {
		s.wmu.Unlock()
		return false
	}
	s.writeFrame(m)
	if b != nil {
		b.open = append(b.open, s)
		return true
	}
	s.endDirect()
	return true
}

// writeFrame writes m into the session's open direct write (wmu held, a
// batch begun): a message that does not take (dropped, or the session
// failed) writes nothing.
func (s *session) writeFrame(m inMsg) {
	x, ok := s.take(m.d)
	if !ok {
		m.lb.release()
		return
	}
	typ := websocket.MessageText
	if x.kind == kindBinary {
		typ = websocket.MessageBinary
	}
	s.mu.Lock()
	c := s.direct
	s.mu.Unlock()
	var err error
	if c == nil {
		err = net.ErrClosed // an earlier frame of the batch failed the socket
	} else {
		err = c.Write(context.Background(), typ, x.data)
	}
	m.lb.release() // the writer copied the frame
	if err != nil {
		// The client's socket failed: pumpOut's read sees its end and
		// passes it on; what follows goes to pumpIn, which stops.
		s.mu.Lock()
		s.direct = nil
		s.mu.Unlock()
		return
	}
	s.n.stats.direct.Add(1)
	s.deliveredOne()
}

// endDirect sends the session's open direct write with a write that never
// waits (EndNow) and lets wmu go: what the socket does not take at once
// waits in the writer for pumpIn (End), and every frame after it queues
// behind it.
func (s *session) endDirect() {
	defer s.wmu.Unlock()
	s.mu.Lock()
	c := s.direct
	s.mu.Unlock()
	if c == nil {
		return // failed: the writer is shut
	}
	done, err := c.EndNow()
	if err != nil {
		s.mu.Lock()
		s.direct = nil
		s.mu.Unlock()
		return
	}
	s.n.stats.directWrites.Add(1)
	if !done {
		s.n.stats.directLeft.Add(1)
		s.pending.Add(1)
		select {
		case s.in <- inMsg{}:
		default:
			s.pending.Add(-1)
			s.fail(closeRelay, reasonRelay)
		}
	}
}

// tryWriter is the owner's server's Conn taking a client's frame on the
// goroutine that splits the batches, when it can without waiting
// (server.RelayedConn.TryWrite): handled false, it took nothing, and the
// frame goes to its Write on pumpIn.
type tryWriter interface {
	TryWrite(typ websocket.MessageType, p []byte) (handled bool, err error)
}

// writeOwner hands a client's frame to the owner's server on the calling
// goroutine (the link's reader, or the bus's), when the session has a
// tryWriter, nothing of it waits (pending) and pumpIn is not writing
// (wmu): the goroutine hand-off to pumpIn is skipped, as the direct write
// skips it on the client's node. The server takes it only when nothing
// can wait (TryWrite); a frame it leaves goes to pumpIn, already taken,
// first in line. handled is false when it took nothing and the message
// must go to pumpIn.
func (s *session) writeOwner(m inMsg) (handled bool) {
	if len(m.d) < headerLen || (m.d[0] != kindText && m.d[0] != kindBinary) {
		return false
	}
	s.mu.Lock()
	w, failed := s.owner, s.failed
	s.mu.Unlock()
	if w == nil || failed || !s.wmu.TryLock() {
		return false
	}
	defer s.wmu.Unlock()
	if s.pending.Load() != 0 {
		return false
	}
	x, ok := s.take(m.d)
	if !ok {
		m.lb.release()
		return true // dropped, or the session failed
	}
	typ := websocket.MessageText
	if x.kind == kindBinary {
		typ = websocket.MessageBinary
	}
	took, err := w.TryWrite(typ, x.data)
	if !took {
		s.pending.Add(1)
		select {
		case s.in <- inMsg{d: x.data, lb: m.lb, taken: x.kind}:
		default:
			s.pending.Add(-1)
			m.lb.release()
			s.fail(closeRelay, reasonRelay)
		}
		return true
	}
	// The server may keep the frame, as pumpIn's Write: the link's
	// buffer is left to the collector (linkBuf).
	if err != nil {
		// The server ended the session: pumpOut sees the end and passes
		// it on; what follows goes to pumpIn, which stops.
		s.mu.Lock()
		s.owner = nil
		s.mu.Unlock()
		return true
	}
	s.n.stats.ownerDirect.Add(1)
	s.deliveredOne()
	return true
}

// deliveredOne counts a frame written to the local Conn (wmu held) and
// acks the frames delivered every half window. Acks only give credit
// back (latency never waits for one): an ack goes into the outbox to the
// other node without a write of its own, and rides with the next batch
// to that node (a turn's frames, a client's frame, another session's
// ack), which on a busy link comes within milliseconds. Once three
// quarters of a window are delivered past the last ack known to be on
// its way, the outbox is sent at once (flushNow), so the other side
// always knows of all but less than three quarters of a window delivered:
// a sender blocks with a whole window out, and an ack always comes.
func (s *session) deliveredOne() {
	s.delivered++
	window := uint64(s.n.cfg.Window)
	if s.delivered-s.ackedTo >= max(window/2, 1) {
		s.ackedTo = s.delivered
		s.ackAt = s.out.add(s.id, s.their, kindAck, s.delivered, nil)
		s.ackWaits = true
	}
	if !s.ackWaits {
		return
	}
	if !s.out.sentSince(s.ackAt) {
		if s.delivered-s.ackSent < max(window*3/4, 1) {
			return
		}
		s.out.flushNow(byPut)
	}
	s.ackSent, s.ackWaits = s.ackedTo, false
}

// count counts a message the session sends (a frame or its close; not
// an ack) in the node's relay counters.
func (s *session) count(payload []byte) {
	n := int64(headerLen + len(payload))
	s.n.stats.framesOut.Add(1)
	s.n.stats.bytesOut.Add(n)
	s.n.stats.frames[1-s.inward()].Add(1)
	s.n.stats.bytes[1-s.inward()].Add(n)
}

// kindOf is a WebSocket frame's kind on the relay.
func kindOf(typ websocket.MessageType) byte {
	if typ == websocket.MessageBinary {
		return kindBinary
	}
	return kindText
}

// publish sends one frame or close to the other side: it goes into the
// outbox to the other side's node (payload copied once, into the batch),
// which sends it with whatever else gathered for that node (outbox.go).
// (Acks are put by deliveredOne.)
func (s *session) publish(kind byte, seq uint64, payload []byte) {
	s.count(payload)
	if s.side == sideA {
		// A message that goes alone (a client's frame, a close):
		// written to the link now, on this goroutine, when the link
		// takes it at once (flushNow), with no sender woken for it.
		s.out.add(s.id, s.their, kind, seq, payload)
		s.out.flushNow(byPut)
		return
	}
	s.out.put(s.id, s.their, kind, seq, payload)
}

// inward is the direction of the frames this side receives: to the client
// on side a, to the owner on side b.
func (s *session) inward() int {
	if s.side == sideA {
		return toClient
	}
	return toOwner
}

// closePayload is a close's payload: code (0: dropped) and reason.
func closePayload(code websocket.StatusCode, reason string) []byte {
	b := make([]byte, 2+len(reason))
	binary.BigEndian.PutUint16(b, uint16(code))
	copy(b[2:], reason)
	return b
}

// run relays between the session's Conn and the other node until either
// side ends it; it returns when the session is over.
func (s *session) run(c Conn) {
	s.mu.Lock()
	s.conn = c
	if dc, ok := c.(directConn); ok && dc.CanEndNow() {
		s.direct = dc
	}
	if tw, ok := c.(tryWriter); ok {
		s.owner = tw
	}
	failed := s.failed
	s.mu.Unlock()
	if failed {
		c.CloseNow()
		<-s.ended
		return
	}
	if ts, ok := c.(turnSource); ok {
		s.src = ts
		ts.OnTurn(s.turn, s.n.turns)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.pumpOut(c) }()
	go func() { defer wg.Done(); s.pumpIn(c) }()
	wg.Wait()
	s.finish()
}

// pumpOut copies the local Conn's frames to the other side, waiting for
// acks when Window frames are unacknowledged (a frame taken waits for its
// place in the window before it is sent); a close of the Conn goes to
// the other side as its last message. A Conn that hands its frames over
// in place (frameSource: the owner's server in process) has each frame
// copied once, into the batch it is sent in.
func (s *session) pumpOut(c Conn) {
	window := uint64(s.n.cfg.Window)
	src, inPlace := c.(frameSource)
	rd, _ := c.(messageReader)
	send := func(typ websocket.MessageType, data []byte) error {
		for s.sent-s.acked.Load() >= window {
			select {
			case <-s.more:
			case <-s.ctx.Done():
				return s.ctx.Err()
			}
		}
		s.sent++
		s.publish(kindOf(typ), s.sent, data)
		return nil
	}
	for {
		var err error
		if s.src != nil {
			err = s.nextTurned(send)
		} else if inPlace {
			err = src.Next(s.ctx, send)
		} else if rd != nil {
			var typ websocket.MessageType
			var data []byte
			if typ, data, err = rd.Read(s.ctx); err == nil {
				err = send(typ, data)
			}
		} else {
			err = errUnreadable
		}
		if s.ctx.Err() != nil {
			return // the session is over (its own close, or the other side's)
		}
		if err != nil {
			s.omu.Lock() // the close after every frame a turn took
			s.localEnded(err)
			s.omu.Unlock()
			return
		}
	}
}

// errUnreadable ends a session whose Conn offers no way to read it (a
// mistake of the program's, not of a client's).
var errUnreadable = errors.New("cluster: a Conn with no way to read its frames")

// frameSource is a Conn that hands each frame to f in its own memory,
// valid until f returns (server.RelayedConn.Next).
type frameSource interface {
	Next(ctx context.Context, f func(websocket.MessageType, []byte) error) error
}

// localEnded passes the end of the local Conn to the other side, with
// the close's code and reason (0: the connection dropped without one).
func (s *session) localEnded(err error) {
	s.mu.Lock()
	if s.failed {
		s.mu.Unlock()
		return // the session ended already: this is its own close
	}
	s.failed = true
	s.mu.Unlock()
	code := websocket.StatusCode(0)
	reason := ""
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		code, reason = ce.Code, ce.Reason
	}
	s.sent++
	s.publish(kindClose, s.sent, closePayload(code, reason))
	s.cancel()
}

// pumpIn writes the other side's frames to the local Conn in order, acks
// them, and applies its close. On a Conn that batches (a client's
// WebSocket, clientConn), the frames already waiting when it wakes go out
// in one write: none waits for another that has not arrived.
func (s *session) pumpIn(c Conn) {
	bc, batching := c.(batchConn)
	for {
		var m inMsg
		select {
		case m = <-s.in:
		case <-s.ctx.Done():
			return
		}
		s.wmu.Lock()
		stop := s.deliver(c, bc, batching, m)
		s.wmu.Unlock()
		if stop {
			return
		}
	}
}

// deliver writes m and the frames waiting after it (at most maxBatch) to
// the local Conn, in one batch on one that batches; stop is true once the
// session's Conn is closed or failed. wmu is held.
func (s *session) deliver(c Conn, bc batchConn, batching bool, m inMsg) (stop bool) {
	if batching {
		bc.Begin()
	}
	x, ok := s.takeIn(m)
	for n := 0; ; n++ {
		if ok {
			if x.kind == kindClose {
				x.lb.release() // its reason is a copy
				if batching && bc.End() != nil {
					return true
				}
				s.mu.Lock()
				already := s.failed
				s.failed = true
				s.mu.Unlock()
				if !already {
					closeConn(c, x.code, x.reason)
				}
				s.cancel()
				return true
			}
			typ := websocket.MessageText
			if x.kind == kindBinary {
				typ = websocket.MessageBinary
			}
			// In a batch the write only gathers (the batch's end bounds
			// the system call), so it needs no context of its own.
			ctx := s.ctx
			if batching {
				ctx = context.Background()
			}
			err := c.Write(ctx, typ, x.data)
			if batching {
				// The client's writer copied the frame (into its batch,
				// or the socket): the link's buffer may be used again.
				// Another Conn (the owner's server in process) may keep
				// it, and the buffer is left to the collector.
				x.lb.release()
			}
			if err != nil {
				if batching {
					_ = bc.End()
				}
				return true // the reader sees the Conn's end and passes it on
			}
			// Acks go as soon as due, in a batch too (a batch holds at
			// most maxBatch frames, all bound for the client).
			s.deliveredOne()
		}
		if n+1 == maxBatch {
			break
		}
		if x, ok = s.nextNow(); !ok {
			break
		}
	}
	return batching && bc.End() != nil
}

// maxBatch bounds the frames pumpIn gathers into one write.
const maxBatch = 64

// batchConn is a Conn whose writes between Begin and End go out in one
// system call (clientConn).
type batchConn interface {
	Conn
	Begin()
	End() error
}

// directConn is a batchConn the node may write to from the goroutine that
// splits the batches (session.give): the batch's end never waits for the
// socket (EndNow), and TryBegin opens a batch only when no write is under
// way or left, never waiting.
type directConn interface {
	batchConn
	CanEndNow() bool
	TryBegin() bool
	EndNow() (done bool, err error)
}

// closeConn closes a Conn as the other side's Conn was closed: with its
// code and reason, or dropped (code 0, 1006) without a close.
func closeConn(c Conn, code websocket.StatusCode, reason string) {
	switch code {
	case 0, websocket.StatusAbnormalClosure, websocket.StatusTLSHandshake:
		c.CloseNow()
	case websocket.StatusNoStatusRcvd:
		c.Close(websocket.StatusNormalClosure, "")
	default:
		c.Close(code, reason)
	}
}

// fail ends the session from this node (its peer gone, the protocol
// broken, the node closing): the other side and the local Conn are closed
// with code and reason.
func (s *session) fail(code websocket.StatusCode, reason string) { s.abort(code, reason, true) }

// abort ends the session at once, closing the local Conn with code and
// reason and, if tell, the other side too (a close out of band: sequence
// 0, ahead of anything still on the way).
func (s *session) abort(code websocket.StatusCode, reason string, tell bool) {
	s.mu.Lock()
	if s.failed {
		s.mu.Unlock()
		return
	}
	s.failed = true
	c := s.conn
	s.mu.Unlock()
	if tell {
		s.publish(kindClose, 0, closePayload(code, reason))
	}
	if c != nil {
		go func() { closeConn(c, code, reason); s.cancel() }()
	} else {
		s.finish()
	}
}

// finish removes the session from its node and unsubscribes.
func (s *session) finish() {
	s.endOnce.Do(func() {
		s.cancel()
		s.n.mu.Lock()
		delete(s.n.sessions, s.id)
		s.n.mu.Unlock()
		close(s.ended)
	})
}

// sessionCount is how many relayed sessions the node holds.
func (n *Node) sessionCount() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.sessions)
}
