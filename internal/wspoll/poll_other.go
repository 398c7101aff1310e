//go:build !linux

package wspoll

// pollSys is none: New returns ErrUnsupported.
type pollSys struct{}

func (s *pollSys) open() error                 { return ErrUnsupported }
func (s *pollSys) arm(fd int, id uint64) error { return ErrUnsupported }
func (s *pollSys) remove(fd int) error         { return ErrUnsupported }
func (s *pollSys) wakeLoop()                   {}
func (s *pollSys) close()                      {}

func (p *Poller) loop() { close(p.done) }

// rawRead is never called: no Conn is made without a Poller.
func (c *Conn) rawRead(fd uintptr) bool { return true }
