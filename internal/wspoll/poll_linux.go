//go:build linux

package wspoll

import "syscall"

// pollSys is an epoll instance, and a pipe whose read end wakes its wait
// when the Poller closes.
type pollSys struct {
	ep     int
	wake   [2]int
	events [128]syscall.EpollEvent
	ids    []uint64
}

// wakeID is the pipe's id in the set (connections' ids start at 1).
const wakeID = 0

func (s *pollSys) open() error {
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return err
	}
	if err := syscall.Pipe2(s.wake[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		syscall.Close(ep)
		return err
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN}
	setID(&ev, wakeID)
	if err := syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, s.wake[0], &ev); err != nil {
		syscall.Close(ep)
		syscall.Close(s.wake[0])
		syscall.Close(s.wake[1])
		return err
	}
	s.ep = ep
	return nil
}

func setID(ev *syscall.EpollEvent, id uint64) {
	ev.Fd, ev.Pad = int32(uint32(id)), int32(uint32(id>>32))
}

func idOf(ev *syscall.EpollEvent) uint64 {
	return uint64(uint32(ev.Fd)) | uint64(uint32(ev.Pad))<<32
}

// arm asks for one event (EPOLLONESHOT) when fd can be read or its peer
// has closed: level-triggered, so bytes that came before it still count.
func (s *pollSys) arm(fd int, id uint64, add bool) error {
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLONESHOT}
	setID(&ev, id)
	op := syscall.EPOLL_CTL_MOD
	if add {
		op = syscall.EPOLL_CTL_ADD
	}
	return syscall.EpollCtl(s.ep, op, fd, &ev)
}

func (s *pollSys) remove(fd int) error {
	return syscall.EpollCtl(s.ep, syscall.EPOLL_CTL_DEL, fd, nil)
}

func (s *pollSys) wakeLoop() { _, _ = syscall.Write(s.wake[1], []byte{0}) }

func (s *pollSys) close() {
	syscall.Close(s.ep)
	syscall.Close(s.wake[0])
	syscall.Close(s.wake[1])
}

// loop waits for events until the Poller closes, starting a burst for
// each connection ready.
func (p *Poller) loop() {
	defer close(p.done)
	s := &p.sys
	for {
		n, err := syscall.EpollWait(s.ep, s.events[:], -1)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return
		}
		s.ids = s.ids[:0]
		stop := false
		for i := range n {
			id := idOf(&s.events[i])
			if id == wakeID {
				stop = true
				continue
			}
			s.ids = append(s.ids, id)
		}
		p.ready(s.ids)
		if stop {
			return
		}
	}
}

// rawRead is one read of the descriptor: an empty socket waits (false),
// or, with rnowait, ends the read with ErrWouldBlock.
func (c *Conn) rawRead(fd uintptr) bool {
	for {
		n, err := syscall.Read(int(fd), c.rp)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			if c.rnowait {
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
