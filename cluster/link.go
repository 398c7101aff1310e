package cluster

// This file carries the relayed sessions' batches between two nodes on a
// TCP connection of their own (a link), off NATS: the batch an outbox
// seals (outbox.go) is written to the peer's link address as it is, with
// its length before it, and the peer's reader splits it into its sessions
// as it splits one from the bus. NATS stays for everything else (presence,
// the lobby, the handshakes, forwarded requests) and carries the batches
// to a peer that announces no link. A link skips what a batch costs on
// the bus: the two embedded NATS servers' reads, parses, queues and writes
// (their route and in-process connections) and the client's delivery
// goroutine, on both nodes (issue 27; docs/performance.md).
//
// A link opens with a challenge: the listener sends linkChallenge random
// bytes first, and the dialler's hello is those bytes sealed for the
// listener's batch subject, so a hello captured off the wire opens no
// other link (relay_link_refused stale).
//
// The link keeps the bus's rules: each batch is sealed for the receiving
// node's batch subject (a stranger's bytes, or a batch for another node,
// do not open, and the link is dropped and counted); the sessions' own
// sequence numbers order their records and drop a replay, as on the bus;
// a batch the link does not take ends the sessions with that peer
// (node_gone), and the next batch dials it again.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"mafia/internal/wsbatch"
)

// linkHeader is the length before each batch on a link (4 bytes,
// big-endian); the outbox keeps room for it before every batch.
const linkHeader = 4

// linkReadBuffer is a link reader's buffer: the batches that came
// together are read with one system call.
const linkReadBuffer = 32 << 10

// linkChallenge is the length of the random challenge a link listener
// sends first, which the dialler's hello must carry, sealed.
const linkChallenge = 16

// Limits of a node's link listener: the largest batch it reads (NATS's
// payload bound here), the first message's (the dialler's hello: an empty
// batch, sealed), how many links it holds at once, and how long a new
// link has to send its hello.
const (
	maxLinkMessage = 8 << 20
	maxLinkHello   = 64
	maxLinks       = 64
)

// linkWriteTimeout bounds each write to a link; like the client's
// WebSocket (wsbatch), the deadline is moved only once half of it is
// gone.
const linkWriteTimeout = 10 * time.Second

// The codes a link listener refuses a connection with (one line, then
// the close; each refusal is counted with the bus's dropped messages).
const (
	refuseLinkTooMany  = "relay_link_refused too_many"
	refuseLinkUnsealed = "relay_link_refused unsealed"
	refuseLinkTooLarge = "relay_link_refused too_large"
	refuseLinkStale    = "relay_link_refused stale"
)

// listenLink opens the node's link listener (Config.LinkListen) and
// starts taking links; the address it announces is the listener's (one on
// every interface is refused: the other nodes need the host).
func (n *Node) listenLink() error {
	ln, err := net.Listen("tcp", n.cfg.LinkListen)
	if err != nil {
		return err
	}
	addr := ln.Addr().(*net.TCPAddr)
	if addr.IP.IsUnspecified() {
		ln.Close()
		return errors.New("cluster: a link listener needs the host the other nodes reach it at, not every interface")
	}
	if n.cfg.RouteTLS != nil {
		ln = tls.NewListener(ln, n.cfg.RouteTLS)
	}
	n.linkLn = ln
	n.linkAddr = net.JoinHostPort(addr.IP.String(), strconv.Itoa(addr.Port))
	n.wg.Add(1)
	go n.acceptLinks(ln)
	return nil
}

// acceptLinks takes the other nodes' links until the listener closes.
func (n *Node) acceptLinks(ln net.Listener) {
	defer n.wg.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		n.mu.Lock()
		full := len(n.links) >= maxLinks || n.closed
		if !full {
			n.links[c] = struct{}{}
			n.wg.Add(1)
		}
		n.mu.Unlock()
		if full {
			n.refuseLink(c, refuseLinkTooMany)
			continue
		}
		go n.readLink(c)
	}
}

// refuseLink answers a link with a refusal's code and closes it.
func (n *Node) refuseLink(c net.Conn, code string) {
	n.dropped.Add(1)
	n.cfg.Log.Warn("cluster: a relay link refused", "from", c.RemoteAddr().String(), "code", code)
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = io.WriteString(c, code+"\n")
	_ = c.Close()
}

// readLink sends a link its challenge, then reads its batches until it
// ends: each opened for this node's batch subject and split into the
// sessions (takeBatch). The first must be the hello, small, within
// OpenWait and carrying the challenge; a batch that does not open ends
// the link.
func (n *Node) readLink(c net.Conn) {
	defer n.wg.Done()
	defer func() {
		n.mu.Lock()
		delete(n.links, c)
		n.mu.Unlock()
		c.Close()
	}()
	subject := subjectBatch + n.cfg.ID
	var challenge [linkChallenge]byte
	_, _ = rand.Read(challenge[:]) // crypto/rand does not fail (Go 1.24+)
	_ = c.SetDeadline(time.Now().Add(n.cfg.OpenWait))
	if _, err := c.Write(challenge[:]); err != nil {
		return
	}
	r := bufio.NewReaderSize(c, linkReadBuffer)
	ad := []byte(subject)
	var h [linkHeader]byte
	for first := true; ; first = false {
		if _, err := io.ReadFull(r, h[:]); err != nil {
			return
		}
		l := binary.BigEndian.Uint32(h[:])
		if l > maxLinkMessage || (first && l > maxLinkHello) {
			n.refuseLink(c, refuseLinkTooLarge)
			return
		}
		// The sessions' queues keep slices of the batch: its buffer is
		// used again once each record is written or dropped (linkBuf).
		lb := getLinkBuf(int(l))
		if _, err := io.ReadFull(r, lb.b); err != nil {
			return
		}
		p, ok := n.keys.openFor(ad, lb.b)
		if !ok {
			n.refuseLink(c, refuseLinkUnsealed)
			return
		}
		if first {
			if !bytes.Equal(p, challenge[:]) {
				n.refuseLink(c, refuseLinkStale)
				return
			}
			_ = c.SetDeadline(time.Time{})
			lb.release()
			if raw := wsbatch.RawConnOf(c); raw != nil {
				// The rest straight off the descriptor (linkread_unix.go).
				early, _ := r.Peek(r.Buffered())
				if code := n.readLinkRaw(raw, ad, early); code != "" {
					n.refuseLink(c, code)
				}
				return
			}
			continue
		}
		n.takeBatch(p, lb)
		lb.release() // the reader's own hold
	}
}

// linkBuf is a batch read off a link, shared by the records the node
// hands to its sessions: the reader holds it once, and each record once
// more until its session's reader has written it to a Conn that copies it
// (the client's WebSocket) or dropped it; the last release puts it back
// in linkBufs. A record given to a Conn that may keep it (the owner's
// server in process) is never released, and its buffer is left to the
// collector, as every batch's was before. So a batch read costs no
// allocation (nor the clearing of a new one) on the relaying node.
type linkBuf struct {
	b    []byte
	refs atomic.Int32
}

// linkBufs are free link buffers, each of at most maxKeptChunk bytes of
// capacity (a new one has none: it is made the size of its first batch,
// so a batch whose buffer is never released costs what it did before).
var linkBufs = sync.Pool{New: func() any { return &linkBuf{} }}

// linkBufsMade counts the link buffers' memory made (the tests' measure
// of reuse).
var linkBufsMade atomic.Int64

// getLinkBuf is a link buffer of l bytes, held once (by the reader): a
// free one, its memory made anew only where it is too small.
func getLinkBuf(l int) *linkBuf {
	lb := linkBufs.Get().(*linkBuf)
	if cap(lb.b) < l {
		linkBufsMade.Add(1)
		lb.b = make([]byte, l)
	}
	lb.b = lb.b[:l]
	lb.refs.Store(1)
	return lb
}

// hold adds a holder (nil: nothing to hold).
func (lb *linkBuf) hold() {
	if lb != nil {
		lb.refs.Add(1)
	}
}

// release drops a holder; the last puts the buffer back (nil: nothing).
func (lb *linkBuf) release() {
	if lb == nil {
		return
	}
	if lb.refs.Add(-1) == 0 && cap(lb.b) <= maxKeptChunk {
		linkBufs.Put(lb)
	}
}

// closeLinks closes the link listener and every link the node holds, so
// that their readers return (Close). The links are closed outside n.mu:
// a link's Close waits for a read under way (readLinkRaw splits its
// batches inside the read), which may be waiting for n.mu.
func (n *Node) closeLinks() {
	if n.linkLn != nil {
		n.linkLn.Close()
	}
	n.mu.Lock()
	links := make([]net.Conn, 0, len(n.links))
	for c := range n.links {
		links = append(links, c)
	}
	n.mu.Unlock()
	for _, c := range links {
		c.Close()
	}
}

// learnLink records peer's link address (heard in its announcement, or
// in a session's open request); an outbox made for peer later sends on
// it, and one already on a link dials it next time.
func (n *Node) learnLink(peer, addr string) {
	n.mu.Lock()
	n.learnLinkLocked(peer, addr)
	n.mu.Unlock()
}

// learnLinkLocked is learnLink with n.mu held (an outbox's lock is taken
// under it, never the other way round).
func (n *Node) learnLinkLocked(peer, addr string) {
	if addr == "" || n.linkAddrs[peer] == addr {
		return
	}
	n.linkAddrs[peer] = addr
	if o := n.outboxes[peer]; o != nil {
		o.mu.Lock()
		if o.link != "" {
			o.link = addr
		}
		o.mu.Unlock()
	}
}

// linkConn is a link an outbox dialled. The peer writes nothing on it
// but its challenge (read before the watcher starts) and a refusal's
// line, so its watcher's read ends only when the link does:
// dead is then set, and no batch may follow on it.
type linkConn struct {
	net.Conn
	// raw is its descriptor for writes that never wait (nil: TLS).
	raw     syscall.RawConn
	dead    atomic.Bool
	closing atomic.Bool // this node closed it (a failed write, its Close)
}

// close closes the link from this node's side: its watcher ends the
// sessions with the peer no more (the caller does, if it must).
func (c *linkConn) close() {
	c.closing.Store(true)
	c.Close()
}

// watch waits for the end of a link the outbox dialled. A link that ends
// without this node closing it (the peer's process gone, a reset, a
// refusal) may have lost batches in flight: the sessions with the peer
// end 1012 node_gone at once, before any new session with a restarted
// peer could be hurt by it, and the next batch dials a new link.
func (o *outbox) watch(c *linkConn) {
	defer o.n.linkWG.Done()
	buf := make([]byte, 128)
	for {
		if _, err := c.Read(buf); err != nil {
			break
		}
	}
	c.dead.Store(true)
	if !c.closing.Load() {
		o.n.cfg.Log.Warn("cluster: relay link ended", "peer", o.peer)
		o.n.failPeer(o.peer)
	}
}

// dialLink opens the outbox's link to its peer, sends the hello and starts
// its watcher.
func (o *outbox) dialLink(addr string) (*linkConn, error) {
	dial := o.n.cfg.DialLink
	if dial == nil {
		d := net.Dialer{Timeout: o.n.cfg.OpenWait}
		dial = d.DialContext
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.n.cfg.OpenWait)
	c, err := dial(ctx, "tcp", addr)
	cancel()
	if err != nil {
		return nil, err
	}
	if o.n.cfg.RouteTLS != nil {
		cfg := o.n.cfg.RouteTLS.Clone()
		if host, _, err := net.SplitHostPort(addr); err == nil {
			cfg.ServerName = host
		}
		tc := tls.Client(c, cfg)
		_ = tc.SetDeadline(time.Now().Add(o.n.cfg.OpenWait))
		if err := tc.Handshake(); err != nil {
			c.Close()
			return nil, err
		}
		_ = tc.SetDeadline(time.Time{})
		c = tc
	}
	// The hello: the listener's challenge, sealed, that it opens first.
	hello := make([]byte, o.pre(), o.pre()+linkChallenge+o.n.keys.suffix())
	_ = c.SetReadDeadline(time.Now().Add(o.n.cfg.OpenWait))
	hello = hello[:o.pre()+linkChallenge]
	if _, err := io.ReadFull(c, hello[o.pre():]); err != nil {
		c.Close()
		return nil, err
	}
	_ = c.SetReadDeadline(time.Time{})
	sealed := o.n.keys.sealIn(o.ad, hello[linkHeader:])
	binary.BigEndian.PutUint32(hello, uint32(len(sealed)))
	o.deadline = time.Now().Add(linkWriteTimeout)
	_ = c.SetWriteDeadline(o.deadline)
	if _, err := c.Write(hello[:linkHeader+len(sealed)]); err != nil {
		c.Close()
		return nil, err
	}
	lc := &linkConn{Conn: c, raw: wsbatch.RawConnOf(c)} // nil (TLS, or not unix): the batches go by the sender's writes
	o.n.linkWG.Add(1)
	go o.watch(lc)
	return lc, nil
}

// writeLink writes sealed batches (each its length and its bytes) on the
// outbox's link in one system call, dialling it first when it has none.
// A write that fails drops the link: the next batch dials again.
func (o *outbox) writeLink(bufs [][]byte) error {
	o.mu.Lock()
	addr := o.link
	o.mu.Unlock()
	if o.conn != nil && o.conn.dead.Load() {
		o.conn.close() // its sessions were ended when it died (watch)
		o.conn = nil
	}
	if o.conn == nil {
		c, err := o.dialLink(addr)
		if err != nil {
			o.n.cfg.Log.Warn("cluster: relay link", "peer", o.peer, "addr", addr, "err", err)
			return err
		}
		o.conn = c
	}
	if now := time.Now(); o.deadline.Sub(now) < linkWriteTimeout/2 {
		o.deadline = now.Add(linkWriteTimeout)
		_ = o.conn.SetWriteDeadline(o.deadline)
	}
	var err error
	if len(bufs) == 1 {
		_, err = o.conn.Write(bufs[0])
	} else {
		o.vec = append(o.vec[:0], bufs...)
		v := net.Buffers(o.vec) // writev; it consumes v, not o.vec
		_, err = v.WriteTo(o.conn)
	}
	if err != nil {
		o.n.cfg.Log.Warn("cluster: relay link", "peer", o.peer, "err", err)
		o.conn.close()
		o.conn = nil
	}
	return err
}
