// Package wspoll lets a server's WebSockets be read without a goroutine
// per idle connection. A Poller (Linux: one epoll instance and one
// goroutine for all connections) waits for connections that have bytes to
// read; a connection that has some gets a goroutine, which reads what is
// there with the WebSocket library's usual read path and, once the
// connection has nothing more at a frame's boundary, parks it with the
// Poller again and ends. An idle connection then costs no goroutine and no
// stack, only its buffers and its place in the Poller.
//
// A Conn sits under the WebSocket library's read buffer (see
// wsbatch.ResponseWriter.Read): a read of it, while the reading goroutine
// asks for it (Stop), returns ErrWouldBlock instead of waiting when the
// socket is empty and the bytes read so far end at a frame's boundary, so
// that the library's Reader returns with nothing of the next frame read.
// Anywhere else (a frame's header or payload half received) it waits for
// the socket as a connection's read always has. Closing a Conn takes it
// out of the Poller before its descriptor is closed, and gives its reader
// a goroutine to find the close on.
//
// Elsewhere than Linux, New returns ErrUnsupported, and a server keeps a
// goroutine per connection.
package wspoll

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
)

// ErrWouldBlock is a Conn's read that stopped at a frame's boundary with
// nothing more to read (Stop): not a failure of the connection.
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
// WebSocket library's; its Close closes the connection (out of the Poller
// first). Its other methods are the wrapped connection's.
type Conn struct {
	net.Conn
	p   *Poller
	rc  syscall.RawConn
	id  uint64
	run func() // the connection's reader, started for each burst

	state  atomic.Int32
	closed atomic.Bool
	added  atomic.Bool // in the Poller's set
	// fallback is set when the Poller could not take the connection: its
	// reader then reads as a goroutine per connection does, never parked.
	fallback atomic.Bool

	// stop is set by the reader around a read that may end at a frame's
	// boundary (Stop); pre are bytes read before the connection was
	// handed over (read first).
	stop atomic.Bool
	pre  []byte
	f    frames
	// short is set when the last read of the socket took fewer bytes than
	// asked for: it had nothing more then, so a read that may stop there
	// stops without asking the socket again (a byte come since wakes the
	// Poller as soon as the connection is parked: its wait is
	// level-triggered).
	short bool

	// The raw read's argument and results (Read; the read side is one
	// goroutine's at a time, under the WebSocket library's read lock).
	rfn     func(uintptr) bool
	rp      []byte
	rn      int
	rerr    error
	rnowait bool
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
// the connection is parked: run reads until its read stops (Stop,
// ErrWouldBlock), then calls Park and returns if Park says so.
func (c *Conn) Start(run func()) {
	c.run = run
	c.state.Store(running)
	c.p.goRun(run)
}

// Stop says whether the reader's next reads may stop at a frame's
// boundary with ErrWouldBlock (true) rather than wait for the socket.
// The reader sets it only around the call that reads up to the next data
// message (the WebSocket library's Reader), never while it reads one.
func (c *Conn) Stop(on bool) { c.stop.Store(on) }

// Park hands the connection to the Poller after a read stopped with
// ErrWouldBlock: true when the reader's goroutine must now return (the
// connection is parked, or another burst has started or will start);
// false when it must read on: the connection is closed (its next read
// fails) or the Poller could not take it (reads never stop from then on).
func (c *Conn) Park() bool {
	if c.fallback.Load() {
		return false
	}
	c.state.Store(parked)
	if c.closed.Load() {
		return !c.state.CompareAndSwap(parked, running)
	}
	var err error
	if cerr := c.rc.Control(func(fd uintptr) { err = c.p.arm(c, int(fd), !c.added.Load()) }); cerr != nil {
		err = cerr
	}
	if err == nil {
		c.added.Store(true)
		return true
	}
	if !c.state.CompareAndSwap(parked, running) {
		return true // the close (or an event) took it meanwhile
	}
	if !c.closed.Load() {
		c.fallback.Store(true)
		c.stop.Store(false)
	}
	return false
}

// Parked reports whether the connection waits in the Poller with no
// goroutine reading it.
func (c *Conn) Parked() bool { return c.state.Load() == parked }

// wake starts a burst on a parked connection (the Poller's event, or its
// close).
func (c *Conn) wake() {
	if c.state.CompareAndSwap(parked, running) {
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

// Read reads as the wrapped connection does, except that with Stop set
// and the bytes read so far ending at a frame's boundary it returns
// ErrWouldBlock rather than wait for an empty socket.
func (c *Conn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(c.pre) > 0 {
		n := copy(p, c.pre)
		c.pre = c.pre[n:]
		c.f.feed(p[:n])
		return n, nil
	}
	c.rnowait = c.stop.Load() && c.f.between() && !c.fallback.Load()
	if c.rnowait && c.short {
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
	c.f.feed(p[:n])
	return n, nil
}

// frames follows a client's WebSocket frames through the bytes read, so
// that a read stops only between two frames: never inside a header or a
// payload, whose rest the library would then read as a new frame.
type frames struct {
	state uint8  // 0: a frame's first byte next; 1: its second; 2: its extended length
	ext   uint8  // extended length bytes still to come
	mask  uint8  // the mask's bytes, after the extended length
	n     uint64 // the extended length so far
	skip  uint64 // bytes of the frame still to come (mask and payload)
}

// between reports whether the bytes fed so far end a frame.
func (f *frames) between() bool { return f.state == 0 && f.skip == 0 }

// feed follows b, the next bytes read.
func (f *frames) feed(b []byte) {
	for len(b) > 0 {
		if f.skip > 0 {
			k := uint64(len(b))
			if k > f.skip {
				k = f.skip
			}
			f.skip -= k
			b = b[k:]
			continue
		}
		switch f.state {
		case 0:
			f.state = 1
		case 1:
			f.mask = 0
			if b[0]&0x80 != 0 {
				f.mask = 4
			}
			switch l := b[0] & 0x7f; l {
			case 126:
				f.state, f.ext, f.n = 2, 2, 0
			case 127:
				f.state, f.ext, f.n = 2, 8, 0
			default:
				f.state, f.skip = 0, uint64(f.mask)+uint64(l)
			}
		case 2:
			f.n = f.n<<8 | uint64(b[0])
			if f.ext--; f.ext == 0 {
				f.state, f.skip = 0, uint64(f.mask)+f.n
				if f.skip < f.n { // past any frame anyone reads
					f.skip = ^uint64(0)
				}
			}
		}
		b = b[1:]
	}
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

// arm parks c's descriptor fd (add: for the first time), for one event.
// A connection closed meanwhile is not added (its Close has forgotten it).
func (p *Poller) arm(c *Conn, fd int, add bool) error {
	if add {
		p.mu.Lock()
		if c.closed.Load() {
			p.mu.Unlock()
			return net.ErrClosed
		}
		p.conns[c.id] = c
		p.mu.Unlock()
	}
	return p.sys.arm(fd, c.id, add)
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
