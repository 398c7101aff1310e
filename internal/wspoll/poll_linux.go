//go:build linux

package wspoll

import (
	"os"
	"syscall"
	"unsafe"

	"mafia/internal/wsbatch"
)

// pollSys is an epoll instance, itself waited on by the Go runtime's own
// poller (an epoll descriptor is readable while it has events): the
// Poller's goroutine parks there like any reader of a socket, with no
// system thread of its own blocked in epoll_wait.
type pollSys struct {
	f      *os.File
	rc     syscall.RawConn
	events [128]syscall.EpollEvent
	ids    []uint64
	n      int
	err    error
	wait   func(uintptr) bool
}

func (s *pollSys) open() error {
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return err
	}
	if err := syscall.SetNonblock(ep, true); err != nil {
		syscall.Close(ep)
		return err
	}
	s.f = os.NewFile(uintptr(ep), "wspoll")
	if s.rc, err = s.f.SyscallConn(); err != nil {
		s.f.Close()
		return err
	}
	s.wait = s.take
	return nil
}

func setID(ev *syscall.EpollEvent, id uint64) {
	ev.Fd, ev.Pad = int32(uint32(id)), int32(uint32(id>>32))
}

func idOf(ev *syscall.EpollEvent) uint64 {
	return uint64(uint32(ev.Fd)) | uint64(uint32(ev.Pad))<<32
}

// epollET is EPOLLET as the event's mask holds it (syscall's constant is
// a negative int).
const epollET = 1 << 31

// arm watches fd for good, edge-triggered: an event each time bytes come
// or the peer closes, and one at once for bytes there already.
func (s *pollSys) arm(fd int, id uint64) error {
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP | epollET}
	setID(&ev, id)
	return s.ctl(syscall.EPOLL_CTL_ADD, fd, &ev)
}

func (s *pollSys) remove(fd int) error {
	return s.ctl(syscall.EPOLL_CTL_DEL, fd, &syscall.EpollEvent{})
}

func (s *pollSys) ctl(op, fd int, ev *syscall.EpollEvent) error {
	var err error
	if cerr := s.rc.Control(func(ep uintptr) { err = syscall.EpollCtl(int(ep), op, fd, ev) }); cerr != nil {
		return cerr
	}
	return err
}

// wakeLoop ends the loop's wait: the instance closes.
func (s *pollSys) wakeLoop() { s.f.Close() }

func (s *pollSys) close() {}

// take is one look at the instance's events, never waiting: none, and
// the runtime waits until it has some.
func (s *pollSys) take(ep uintptr) bool {
	for {
		s.n, s.err = epollNow(ep, s.events[:])
		if s.err == syscall.EINTR {
			continue
		}
		return s.n > 0 || s.err != nil
	}
}

// loop waits for events until the Poller closes, starting a burst for
// each connection ready.
func (p *Poller) loop() {
	defer close(p.done)
	s := &p.sys
	for {
		if err := s.rc.Read(s.wait); err != nil || s.err != nil {
			return // closed
		}
		s.ids = s.ids[:0]
		for i := range s.n {
			s.ids = append(s.ids, idOf(&s.events[i]))
		}
		p.ready(s.ids)
	}
}

// rawRead is one read of the descriptor: an empty socket waits (false),
// or, unless the Poller could not take the connection (fallback), ends
// the read with ErrWouldBlock.
func (c *Conn) rawRead(fd uintptr) bool {
	for {
		n, err := wsbatch.RawRead(fd, c.rp)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			if !c.fallback.Load() {
				c.rerr = ErrWouldBlock
				return true
			}
			return false
		case err != nil:
			c.rerr = err
		case n > 0:
			c.rn = n
		}
		return true
	}
}

// epollNow is epoll_wait(2) with no wait, without telling the scheduler,
// as wsbatch.RawRead.
func epollNow(ep uintptr, events []syscall.EpollEvent) (int, error) {
	r, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, ep, uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), 0, 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}
