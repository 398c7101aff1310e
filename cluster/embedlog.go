package cluster

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
)

// embedWait is how long a node waits for its embedded NATS server to
// listen before it gives up.
const embedWait = 10 * time.Second

// embedLog is the embedded NATS server's logger: the server runs with
// NoLog (its notices are not the operator's business), but a fatal error
// (its client or route port taken, a listener refused) is what the node
// must report, so it is kept for the node's error and written to the
// node's log. NATS's own Fatalf exits the process; this one does not, so
// that the node can say why it did not start and close what it opened.
type embedLog struct {
	log   *slog.Logger
	fatal chan struct{} // closed with the first fatal error
	mu    sync.Mutex
	first string
}

func newEmbedLog(l *slog.Logger) *embedLog {
	return &embedLog{log: l, fatal: make(chan struct{})}
}

// Fatalf keeps the server's first fatal error and signals it.
func (e *embedLog) Fatalf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	e.log.Error("cluster: the embedded NATS server failed", "error", msg)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.first == "" {
		e.first = msg
		close(e.fatal)
	}
}

// Errorf writes the server's errors to the node's log at debug level
// (a route to a peer that is down is retried, and says so every second).
func (e *embedLog) Errorf(format string, v ...any) {
	e.log.Debug("cluster: embedded NATS", "error", fmt.Sprintf(format, v...))
}

// Warnf writes the server's warnings to the node's log at debug level.
func (e *embedLog) Warnf(format string, v ...any) {
	e.log.Debug("cluster: embedded NATS", "warning", fmt.Sprintf(format, v...))
}

// Noticef drops the server's notices.
func (e *embedLog) Noticef(string, ...any) {}

// Debugf drops the server's debug lines.
func (e *embedLog) Debugf(string, ...any) {}

// Tracef drops the server's traces.
func (e *embedLog) Tracef(string, ...any) {}

// failure is the server's first fatal error ("" if none).
func (e *embedLog) failure() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.first
}

// awaitEmbedded waits until ns listens, it reports a fatal error, or wait
// passes, and says which: the listen error itself when there is one
// ("Error listening on router port: 6222 - listen tcp ...: address
// already in use"), so that an operator with a port conflict reads it.
func awaitEmbedded(ns *natsserver.Server, el *embedLog, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		select {
		case <-el.fatal:
			return fmt.Errorf("cluster: the embedded NATS server did not start: %s", el.failure())
		default:
		}
		left := time.Until(deadline)
		if left <= 0 {
			return errors.New("cluster: the embedded NATS server did not start in " + wait.String() + " (it reported no error)")
		}
		if ns.ReadyForConnections(min(left, 50*time.Millisecond)) {
			return nil
		}
	}
}
