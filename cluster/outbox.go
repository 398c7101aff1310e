package cluster

// This file carries the relayed sessions' messages between two nodes: every
// session's frames, closes and acks headed to one node go into that node's
// outbox, and what gathered there while its sender was away goes in one
// sealed NATS message (a batch) to the node's own subject, which the node
// splits into its sessions' queues. So a room's broadcast to its seats
// relayed through one node crosses the bus as one message, not one a seat
// (issue 27: the NATS servers' work is per message).

import (
	"encoding/binary"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// A batch, once opened, is records one after another, each:
//
//	1 byte    the session id's length L
//	L bytes   the session id
//	1 byte    the side it is for: 'a' (the client's) or 'b' (the owner's)
//	4 bytes   the message's length M, big-endian
//	M bytes   the message: kind, sequence and payload (session.go)
const recordFixed = 1 + 1 + 4

// maxChunk bounds a batch's records (a larger message, a long game's
// welcome, goes in a batch of its own); maxKeptChunk bounds the buffer an
// outbox keeps for the next batch.
const (
	maxChunk     = 32 << 10
	maxKeptChunk = 64 << 10
)

// maxYields bounds the passes a woken outbox gives the senders already
// runnable before it sends what they added.
const maxYields = 4

// outbox gathers the messages of this node's sessions with one peer node
// and sends them in batches, in the order they were put.
type outbox struct {
	n    *Node
	peer string
	// subject is the peer's batch subject; ad its bytes, what each batch
	// is sealed for (made once).
	subject string
	ad      []byte
	// send puts a sealed batch on the bus (the node's connection's
	// Publish, which copies it before it returns).
	send func(subject string, data []byte) error
	// wmu is held by whoever writes to the link: the sender, or a room's
	// goroutine at its turn's end (flushNow, turn.go), which only tries.
	wmu sync.Mutex
	// conn is the link to the peer (link.go), dialled at the first batch
	// for it and again after one failed; deadline its write deadline;
	// vec the batches of one write. left is what a turn's write did not
	// get onto conn (the end of its batches), which goes before anything
	// else, on that conn; leftBufs the batches it is in. wmu's.
	conn     *linkConn
	deadline time.Time
	vec      [][]byte
	left     [][]byte
	leftBufs [][]byte
	hasLeft  atomic.Bool // left is not empty (read without wmu)

	mu sync.Mutex
	// link is the peer's link address: the batches go there, not on the
	// bus ("": on the bus). Chosen when the outbox is made, for good (a
	// session's records must not take two paths); the address is kept
	// up to date (learnLink).
	link   string
	chunks [][]byte // the batches waiting, each pre() bytes of room and its records
	spare  [][]byte // sent batches' buffers, for the next
	count  int      // messages put so far (the flusher's measure of progress)
	// taken counts the times the batches waiting were taken to be sent
	// (flush, flushNow): a message added when it was g is on its way
	// once it is past g (sentSince).
	taken atomic.Uint64
	wake  chan struct{}
	quit  chan struct{}
}

// outboxTo is the node's outbox to peer, made (and its sender started) at
// its first use.
func (n *Node) outboxTo(peer string) *outbox {
	n.mu.Lock()
	defer n.mu.Unlock()
	if o := n.outboxes[peer]; o != nil {
		return o
	}
	subj := subjectBatch + peer
	o := &outbox{n: n, peer: peer, subject: subj, ad: []byte(subj), wake: make(chan struct{}, 1), quit: n.quitOut}
	if n.linkLn != nil {
		// Both nodes have links: the batches go on this one's.
		o.link = n.linkAddrs[peer]
	}
	if n.nc != nil {
		o.send = n.nc.Publish
	}
	n.outboxes[peer] = o
	if n.nc != nil && !n.closed {
		n.wg.Add(1)
		go o.run()
	}
	return o
}

// put adds session id's message for side (kind, seq, payload) to the
// outbox, copied once, and wakes the sender. It never waits for the bus.
func (o *outbox) put(id string, side byte, kind byte, seq uint64, payload []byte) {
	o.add(id, side, kind, seq, payload)
	o.wakeSender()
}

// wakeSender wakes the outbox's sender (never blocks).
func (o *outbox) wakeSender() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// add is put without the sender woken: the caller has the batch sent
// (a room's turn, flushNow in turn.go), or leaves the message to the
// next batch that goes (an ack, session.deliveredOne). g is taken's
// count when it was added (sentSince).
func (o *outbox) add(id string, side byte, kind byte, seq uint64, payload []byte) (g uint64) {
	m := headerLen + len(payload)
	size := recordFixed + len(id) + m
	pre := o.pre()
	o.mu.Lock()
	var b []byte
	if k := len(o.chunks); k > 0 && len(o.chunks[k-1])+size <= pre+maxChunk {
		b = o.chunks[k-1]
	} else {
		b = o.fresh(pre, size)
		o.chunks = append(o.chunks, b)
	}
	b = append(b, byte(len(id)))
	b = append(b, id...)
	b = append(b, side)
	b = binary.BigEndian.AppendUint32(b, uint32(m))
	b = append(b, kind)
	b = binary.BigEndian.AppendUint64(b, seq)
	b = append(b, payload...)
	o.chunks[len(o.chunks)-1] = b
	o.count++
	g = o.taken.Load()
	o.mu.Unlock()
	return g
}

// sentSince reports whether what was added when taken's count was g has
// been taken to be sent: the writer that took it sends it, or fails the
// peer's sessions.
func (o *outbox) sentSince(g uint64) bool { return o.taken.Load() > g }

// pre is the room a batch's buffer keeps before its records: a link's
// length (link.go) and the seal's nonce.
func (o *outbox) pre() int { return linkHeader + o.n.keys.prefix() }

// fresh is an empty batch buffer with room for pre and a record of size
// (o.mu held): a spare one when it fits.
func (o *outbox) fresh(pre, size int) []byte {
	suf := o.n.keys.suffix()
	if k := len(o.spare); k > 0 && cap(o.spare[k-1]) >= pre+size+suf {
		b := o.spare[k-1][:pre]
		o.spare = o.spare[:k-1]
		return b
	}
	return make([]byte, pre, pre+max(size, maxChunk)+suf)
}

// run sends the outbox's batches until the node closes. Woken by a put,
// it first lets the senders already runnable (the other seats of the same
// broadcast) add theirs: it yields while a pass adds a message, at most
// maxYields passes. No message waits for one that is not already on its
// way, so each frame's moment stays the owner's.
func (o *outbox) run() {
	defer o.n.wg.Done()
	for {
		select {
		case <-o.wake:
		case <-o.quit:
			o.flush()
			return
		}
		for range maxYields {
			o.mu.Lock()
			before := o.count
			o.mu.Unlock()
			runtime.Gosched()
			o.mu.Lock()
			same := o.count == before
			o.mu.Unlock()
			if same {
				break
			}
		}
		o.flush()
	}
}

// flush sends every batch waiting, in order, each sealed in its own
// buffer: on the peer's link in one write, or one bus message each. A
// batch the link or the bus does not take ends the sessions with the peer
// (1012 node_gone), as a frame it did not take did.
func (o *outbox) flush() {
	o.mu.Lock()
	idle := len(o.chunks) == 0
	o.mu.Unlock()
	if idle && !o.hasLeft.Load() {
		return // nothing to write: the link is left to the rooms' turns
	}
	o.wmu.Lock()
	defer o.wmu.Unlock()
	failed := !o.writeLeft()
	o.mu.Lock()
	chunks := o.chunks
	o.chunks = nil
	o.taken.Add(1)
	link := o.link != ""
	o.mu.Unlock()
	switch {
	case failed:
		// The link broke in the middle of a turn's batch: what follows
		// is lost with it, as the batches of a failed write are.
		link = true
	case link && len(chunks) > 0:
		o.seal(chunks)
		o.n.stats.linkWrites[bySender].Add(1)
		failed = o.writeLink(chunks) != nil
	}
	for _, b := range chunks {
		if link {
			break
		}
		o.n.stats.batches.Add(1)
		if o.send == nil || o.send(o.subject, o.n.keys.sealIn(o.ad, b[linkHeader:])) != nil {
			failed = true
		}
	}
	o.recycle(chunks)
	if failed {
		o.n.failPeer(o.peer)
	}
}

// seal seals each batch of chunks in place for the link: its length,
// then its sealed records.
func (o *outbox) seal(chunks [][]byte) {
	for i, b := range chunks {
		o.n.stats.batches.Add(1)
		sealed := o.n.keys.sealIn(o.ad, b[linkHeader:])
		binary.BigEndian.PutUint32(b, uint32(len(sealed)))
		chunks[i] = b[:linkHeader+len(sealed)]
	}
}

// recycle keeps sent batches' buffers for the next ones.
func (o *outbox) recycle(chunks [][]byte) {
	o.mu.Lock()
	pre := o.pre()
	for i, b := range chunks {
		if cap(b) <= maxKeptChunk && len(o.spare) < 4 {
			o.spare = append(o.spare, b[:pre])
		}
		chunks[i] = nil
	}
	if o.chunks == nil {
		o.chunks = chunks[:0] // the list's memory too, for the next
	}
	o.mu.Unlock()
}

// failPeer ends this node's sessions with peer: the bus did not take
// their messages.
func (n *Node) failPeer(peer string) {
	var gone []*session
	n.mu.Lock()
	for _, s := range n.sessions {
		if s.peer == peer {
			gone = append(gone, s)
		}
	}
	n.mu.Unlock()
	for _, s := range gone {
		s.fail(closeNodeGone, reasonNodeGone)
	}
}

// takeBatch splits a batch from another node into its sessions' queues
// (on the subscription's goroutine): each record goes to the session of
// its id and side, which checks it (session.take). A record for no
// session here (one ended) is dropped; a batch that does not open or
// parse is dropped whole and counted. A session whose queue is full (its
// sender went past the window) ends with 1011 relay_error.
//
// lb is the link buffer d is in (nil: none): each record handed to a
// session holds it (linkBuf), released when the record is written or
// dropped.
func (n *Node) takeBatch(d []byte, lb *linkBuf) {
	var direct directBatch
	direct.open = direct.buf[:0]
	defer direct.end()
	for len(d) > 0 {
		l := int(d[0])
		if len(d) < recordFixed+l {
			n.dropped.Add(1)
			return
		}
		id := d[1 : 1+l]
		side := d[1+l]
		m := int(binary.BigEndian.Uint32(d[2+l : recordFixed+l]))
		d = d[recordFixed+l:]
		if m > len(d) {
			n.dropped.Add(1)
			return
		}
		msg := d[:m:m]
		d = d[m:]
		n.mu.Lock()
		s := n.sessions[string(id)]
		n.mu.Unlock()
		if s == nil || s.mine != side {
			continue
		}
		lb.hold()
		s.give(inMsg{d: msg, lb: lb}, &direct)
	}
}

// batch takes a batch from the bus: opened, it is split (takeBatch);
// one not sealed for this node's subject is dropped and counted.
func (n *Node) batch(m *nats.Msg) {
	if d, ok := n.unseal(m); ok {
		n.takeBatch(d, nil)
	}
}
