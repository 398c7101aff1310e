// Package wspoll lets a server's WebSockets be read without a goroutine
// per idle connection. A Poller (Linux: one epoll instance and one
// goroutine for all connections) waits for connections that have bytes to
// read; a connection that has some gets a goroutine (a burst), which reads
// what is there and, once the socket is empty, parks the connection with
// the Poller again and ends. An idle connection then costs no goroutine
// and no stack, only its place in the Poller.
//
// A Conn's Read never waits for an empty socket: it returns
// ErrWouldBlock, wherever the bytes read so far end (the reader keeps a
// frame received in part, internal/wsconn). Closing a Conn takes it out
// of the Poller before its descriptor is closed, and gives its reader a
// burst to find the close in.
//
// Elsewhere than Linux, New returns ErrUnsupported, and a server keeps a
// goroutine per connection. It does not own the WebSocket protocol
// (internal/wsconn) nor the writes (internal/wsbatch).
package wspoll

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
)

// ErrWouldBlock is a Conn's read of an empty socket: not a failure of the
// connection; the reader parks it (Park).
var ErrWouldBlock = errors.New("wspoll: nothing to read now")

// ErrUnsupported is New's on a system without a Poller.
var ErrUnsupported = errors.ErrUnsupported

// A Conn's states: running (a goroutine reads it, or is about to),
// parked (in the Poller, no goroutine), and ended (closed, or its reader
// told to find the close).
const (
	running int32 = iota
	parked
)

// Conn is one connection's read side under a Poller. Its Read is the
// WebSocket reader's (internal/wsconn); its Close closes the connection
// (out of the Poller first). Its other methods are the wrapped
// connection's.
type Conn struct {
	net.Conn
	p   *Poller
	rc  syscall.RawConn
	id  uint64
	run func() // the connection's reader, started for each burst

	state  atomic.Int32
	closed atomic.Bool
	added  atomic.Bool // in the Poller's set
	// pending is set by each event of the connection (wake): bytes came,
	// perhaps while a burst ran; Park reads on rather than park when it
	// finds it set, since the Poller's wait is edge-triggered and tells
	// of bytes only as they come.
	pending atomic.Bool
	// fallback is set when the Poller could not take the connection: its
	// reader then reads as a goroutine per connection does, never parked.
	fallback atomic.Bool

	// pre are bytes read before the connection was handed over (read
	// first).
	pre []byte
	// short is set when the last read of the socket took fewer bytes than
	// asked for: it had nothing more then, so the next read returns
	// ErrWouldBlock without asking the socket again (a byte come since
	// wakes the Poller as soon as the connection is parked: its wait is
	// level-triggered).
	short bool

	// The raw read's argument and results (Read; the read side is one
	// goroutine's at a time: a burst's).
	rfn  func(uintptr) bool
	rp   []byte
	rn   int
	rerr error
}

// Wrap gives conn's read side to p, with pre (bytes already read from it)
// to be read first: nil when conn offers no descriptor (syscall.Conn: a TLS
// connection) or p is nil. Nothing is read until Start.
func (p *Poller) Wrap(conn net.Conn, pre []byte) *Conn {
	if p == nil {
		return nil
	}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil || rc == nil {
		return nil
	}
	c := &Conn{Conn: conn, p: p, rc: rc, id: p.nextID.Add(1)}
	if len(pre) > 0 {
		c.pre = append([]byte(nil), pre...)
	}
	c.rfn = c.rawRead
	return c
}

// Start runs run on a goroutine of its own, now and at every burst after
// the connection is parked: run reads until a read returns ErrWouldBlock,
// then calls Park and returns if Park says so.
func (c *Conn) Start(run func()) {
	c.run = run
	c.state.Store(running)
	c.p.goRun(run)
}

// Park hands the connection to the Poller after a read returned
// ErrWouldBlock: true when the reader's goroutine must now return (the
// connection is parked, or another burst has started or will start);
// false when it must read on: bytes came since the burst began (an event
// while it ran), the connection is closed (its next read fails), or the
// Poller could not take it (reads never stop from then on).
//
// The Poller's watch is edge-triggered, taken at the first Park and kept
// (no system call at the next ones): an event comes as bytes arrive,
// whatever the connection's state, and one that comes while a burst runs
// is kept (pending) for its Park to find.
func (c *Conn) Park() bool {
	if c.fallback.Load() {
		return false
	}
	c.state.Store(parked)
	if c.closed.Load() {
		return !c.state.CompareAndSwap(parked, running)
	}
	if c.added.Load() {
		// The event's wake sets pending before it tries the state: either
		// it finds the connection parked and starts a burst, or this finds
		// pending set.
		if c.pending.Swap(false) && c.state.CompareAndSwap(parked, running) {
			return false
		}
		return true
	}
	var err error
	if cerr := c.rc.Control(func(fd uintptr) { err = c.p.arm(c, int(fd)) }); cerr != nil {
		err = cerr
	}
	if err == nil {
		c.added.Store(true) // bytes there before the watch fire it at once
		return true
	}
	if !c.state.CompareAndSwap(parked, running) {
		return true // the close (or an event) took it meanwhile
	}
	if !c.closed.Load() {
		c.fallback.Store(true)
	}
	return false
}

// Parked reports whether the connection waits in the Poller with no
// goroutine reading it.
func (c *Conn) Parked() bool { return c.state.Load() == parked }

// wake starts a burst on a parked connection (the Poller's event, or its
// close).
func (c *Conn) wake() {
	c.pending.Store(true)
	if c.state.CompareAndSwap(parked, running) {
		c.pending.Store(false) // the burst reads them
		c.p.goRun(c.run)
	}
}

// Close takes the connection out of the Poller while its descriptor is
// still open (a number the system may give to the next connection), closes
// it, and starts a burst if it was parked, whose read finds the close.
func (c *Conn) Close() error {
	if c.closed.Swap(true) {
		return c.Conn.Close()
	}
	_ = c.rc.Control(func(fd uintptr) { c.p.remove(c, int(fd)) })
	c.p.forget(c)
	err := c.Conn.Close()
	c.wake()
	return err
}

// Read reads as the wrapped connection does, except that it returns
// ErrWouldBlock rather than wait for an empty socket (unless the Poller
// could not take the connection: then it waits, see Park).
func (c *Conn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(c.pre) > 0 {
		n := copy(p, c.pre)
		if c.pre = c.pre[n:]; len(c.pre) == 0 {
			c.pre = nil
		}
		return n, nil
	}
	if c.short && !c.fallback.Load() {
		c.short = false
		return 0, ErrWouldBlock
	}
	c.rp, c.rn, c.rerr = p, 0, nil
	err := c.rc.Read(c.rfn)
	n, rerr := c.rn, c.rerr
	c.rp = nil
	if err != nil {
		return 0, err
	}
	if rerr != nil {
		return 0, rerr
	}
	if n == 0 {
		return 0, io.EOF
	}
	c.short = n < len(p)
	return n, nil
}

// Poller is the set of parked connections, and the goroutine that starts
// a burst for each that becomes readable.
type Poller struct {
	nextID atomic.Uint64
	mu     sync.Mutex
	conns  map[uint64]*Conn
	sys    pollSys
	done   chan struct{}
	close  sync.Once
	// Bursts run on workers: one idle takes the next burst (jobs), so
	// that a burst seldom starts a goroutine and grows its stack; past
	// maxIdle idle, a worker ends.
	jobs    chan func()
	quit    chan struct{}
	idle    atomic.Int32
	workers sync.WaitGroup
}

// maxIdle is how many workers may wait for a burst.
const maxIdle = 8

// goRun runs f on an idle worker, or a new one.
func (p *Poller) goRun(f func()) {
	select {
	case p.jobs <- f:
	default:
		p.workers.Add(1)
		go p.work(f)
	}
}

// work runs f, then the bursts it is handed while it is one of the
// maxIdle idle workers, until the Poller closes.
func (p *Poller) work(f func()) {
	defer p.workers.Done()
	for {
		f()
		f = nil
		if p.idle.Add(1) > maxIdle {
			p.idle.Add(-1)
			return
		}
		select {
		case f = <-p.jobs:
			p.idle.Add(-1)
		case <-p.quit:
			p.idle.Add(-1)
			return
		}
	}
}

// New starts a Poller: ErrUnsupported where there is none (see package
// doc).
func New() (*Poller, error) {
	p := &Poller{conns: map[uint64]*Conn{}, done: make(chan struct{}), jobs: make(chan func()), quit: make(chan struct{})}
	if err := p.sys.open(); err != nil {
		return nil, err
	}
	go p.loop()
	return p, nil
}

// Close stops the Poller's goroutine and its workers, and waits for them
// (a burst under way too). Connections still parked are never woken
// again: close them first.
func (p *Poller) Close() {
	if p == nil {
		return
	}
	p.close.Do(func() {
		p.sys.wakeLoop()
		<-p.done
		p.sys.close()
		close(p.quit)
		p.workers.Wait()
	})
}

// Parked is how many connections the Poller holds (parked or reading).
func (p *Poller) Parked() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.conns)
}

// arm adds c's descriptor fd to the Poller's watch, for good. A
// connection closed meanwhile is not added (its Close has forgotten it).
func (p *Poller) arm(c *Conn, fd int) error {
	p.mu.Lock()
	if c.closed.Load() {
		p.mu.Unlock()
		return net.ErrClosed
	}
	p.conns[c.id] = c
	p.mu.Unlock()
	return p.sys.arm(fd, c.id)
}

// remove takes fd out of the Poller's set (its descriptor still open).
func (p *Poller) remove(c *Conn, fd int) {
	if c.added.Load() {
		_ = p.sys.remove(fd)
	}
}

// forget drops c from the Poller's table: an event of it still on the
// way finds nothing.
func (p *Poller) forget(c *Conn) {
	p.mu.Lock()
	delete(p.conns, c.id)
	p.mu.Unlock()
}

// ready starts a burst for each of ids, events the Poller's goroutine got.
func (p *Poller) ready(ids []uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range ids {
		if c := p.conns[id]; c != nil {
			c.wake()
		}
	}
}
