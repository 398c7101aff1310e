package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultSilence is how long a connection may hear nothing from its server
// while it is being read (no frame, no WebSocket ping) before it is taken
// as lost: the server pings every 2 s (docs/protocol.md), so 4.5 s of
// silence is two pings missed, a stalled server (a paused process, a
// frozen host or network), not a quiet game. With the watchdog's look
// every tenth of it, a stalled server is found within 5 s.
const DefaultSilence = 4500 * time.Millisecond

// ErrSilent is the error of a read on a connection that heard nothing from
// its server for its silence (API.Silence): the connection is closed, and
// the seat reconnects (with since, as after any lost connection),
// through another node of a cluster if the balancer sends it there.
var ErrSilent = errors.New("client: the server has been silent too long: the connection is taken as lost")

// watchdog closes a connection whose server falls silent while a read waits
// on it. Time spent not reading does not count: a caller that reads late
// has not heard the pings meanwhile (the library answers them only while
// it reads).
type watchdog struct {
	silence time.Duration
	last    atomic.Int64 // when the server was last heard, or a read began after none waited (Unix ns)
	reading atomic.Int32 // reads waiting now
	silent  atomic.Bool  // the watchdog closed the connection
	mu      sync.Mutex
	timer   *time.Timer // nil once stopped
	close   func()
}

// start watches a connection that close drops; silence <= 0 watches
// nothing.
func (w *watchdog) start(silence time.Duration, close func()) {
	if silence <= 0 {
		return
	}
	w.silence, w.close = silence, close
	w.heard()
	w.mu.Lock()
	w.timer = time.AfterFunc(w.every(), w.check)
	w.mu.Unlock()
}

// every is how often the watchdog looks: a tenth of the silence, so that a
// silent server is found within 1.1 silences.
func (w *watchdog) every() time.Duration { return max(w.silence/10, 10*time.Millisecond) }

// heard notes that the server was heard now (a frame, a ping).
func (w *watchdog) heard() { w.last.Store(time.Now().UnixNano()) }

// begin notes a read starting; end, one ending (with its frame, if any).
func (w *watchdog) begin() {
	if w.reading.Add(1) == 1 {
		// Silence counts from now, not from before the caller read.
		w.heard()
	}
}

func (w *watchdog) end(got bool) {
	if got {
		w.heard()
	}
	w.reading.Add(-1)
}

func (w *watchdog) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer == nil {
		return
	}
	if w.reading.Load() > 0 && time.Since(time.Unix(0, w.last.Load())) > w.silence {
		w.silent.Store(true)
		w.timer = nil
		go w.close()
		return
	}
	w.timer.Reset(w.every())
}

// stop ends the watch.
func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
}

// readErr is what a failed read returns: ErrSilent (wrapping the read's
// own error) when the watchdog closed the connection.
func (w *watchdog) readErr(err error) error {
	if err == nil {
		return nil
	}
	w.stop()
	if w.silent.Load() {
		return fmt.Errorf("%w (%v)", ErrSilent, err)
	}
	return err
}

// pinged is the WebSocket library's hook for a ping from the server.
func (w *watchdog) pinged(context.Context, []byte) bool {
	w.heard()
	return true
}
