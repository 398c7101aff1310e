package bench

// This file is failover (Config.Failover): a seat whose connection breaks
// takes its seat back on the next server of the run, with its token and
// the number of the last event it saw, and plays on; and the record of what
// each seat was told, by event number, that finds what a failover lost.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/engine"
)

// A failover's attempts are spaced from backoffFirst, doubling to
// backoffMax; one attempt waits at most attemptMax for its server.
const (
	backoffFirst = 100 * time.Millisecond
	backoffMax   = time.Second
	attemptMax   = 3 * time.Second
)

var (
	// errFailover ends a seat whose failover found no server in time.
	errFailover = errors.New("bench: failover: no server took the seat back in time")
	// errReconnected answers a host action in flight when its connection
	// broke: the seat decides again once it is back.
	errReconnected = errors.New("bench: the connection broke while the request was on its way")
)

// againCodes are the codes after which a client reconnects
// (docs/protocol.md, "Closes from the server"): as an error frame with no
// id before a close, as the reason of a 1008 close, or as the refusal of a
// connection after its upgrade; "dropped" is what servers before December
// 2026 closed every drop with.
var againCodes = map[string]bool{
	"too_slow": true, "stopped": true, "dropped": true, "busy": true, "shutdown": true,
	"node_gone": true, "table_moved": true, "table_moving": true, "relay_error": true, "relay_unavailable": true,
	"draining": true, "server_full": true,
}

// breakCause names why a connection ended, for Result.ReconnectCauses,
// and says whether the protocol asks the client to reconnect after it: a
// broken connection (EOF, reset), 1001, 1011, 1012, 1013 or 1014, or a 1008
// of againCodes. Another close (kicked, seat_left, expired, flood, a frame
// too large, a normal close) is for good.
func breakCause(err error) (cause string, again bool) {
	var ce websocket.CloseError
	if !errors.As(err, &ce) {
		return "broken", true
	}
	cause = fmt.Sprintf("%d/%s", int(ce.Code), ce.Reason)
	switch ce.Code {
	case websocket.StatusGoingAway, websocket.StatusInternalError, websocket.StatusServiceRestart,
		websocket.StatusTryAgainLater, websocket.StatusBadGateway:
		return cause, true
	case websocket.StatusPolicyViolation:
		return cause, againCodes[ce.Reason]
	}
	return cause, false
}

// retriable reports whether an attempt's error may pass on another try,
// here or on another server: the network (refused, reset, a timeout), a
// server that is busy, draining, starting or taking the table over (a 5xx,
// 404 while it does not know the table yet, 429), a close or refusal the
// protocol says to reconnect after. Another refusal (a bad token, a full
// table, a kick) is for good.
func retriable(err error) bool {
	var he *client.HandshakeError
	if errors.As(err, &he) {
		return againStatus(he.Status)
	}
	var ae *client.Error
	if errors.As(err, &ae) {
		if ae.Status == 0 { // refused after the upgrade
			return againCodes[ae.Code]
		}
		return againStatus(ae.Status)
	}
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		_, again := breakCause(err)
		return again
	}
	return true
}

func againStatus(status int) bool {
	return status == http.StatusNotFound || status == http.StatusRequestTimeout ||
		status == http.StatusTooManyRequests || status >= 500
}

// retryAfter is the Retry-After a refused handshake or API request asked
// for (0: none).
func retryAfter(err error) time.Duration {
	var he *client.HandshakeError
	if errors.As(err, &he) {
		return he.RetryAfter
	}
	var ae *client.Error
	if errors.As(err, &ae) {
		return ae.RetryAfter
	}
	return 0
}

// onServers runs try on the run's servers in turn, from start, until it
// succeeds, fails for good, ctx ends or deadline passes; the attempts after
// the first are spaced by the backoff, and a server that asked for time
// (Retry-After) is passed over until then. Each attempt gets a context of
// its own, bounded by attemptMax (a server that stopped without closing its
// socket does not hold the seat for the whole wait). It returns the index
// of the server of the last attempt.
func (r *run) onServers(ctx context.Context, deadline time.Time, start int, try func(ctx context.Context, sv *serverRun) error) (int, error) {
	n := len(r.srvs)
	notBefore := make([]time.Time, n)
	wait := backoffFirst
	next := ((start % n) + n) % n
	var err error
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			if !sleepCtx(ctx, min(wait, time.Until(deadline))) {
				return next, ctx.Err()
			}
			wait = min(2*wait, backoffMax)
		}
		i := -1
		now := time.Now()
		for j := 0; j < n && i < 0; j++ {
			if c := (next + j) % n; !now.Before(notBefore[c]) {
				i = c
			}
		}
		if i < 0 { // every server asked for time: the one that asked for least
			i = next
			for c := range notBefore {
				if notBefore[c].Before(notBefore[i]) {
					i = c
				}
			}
			if notBefore[i].After(deadline) {
				return i, err
			}
			if !sleepCtx(ctx, time.Until(notBefore[i])) {
				return i, ctx.Err()
			}
		}
		next = (i + 1) % n
		actx, cancel := context.WithTimeout(ctx, attemptMax)
		err = try(actx, r.srvs[i])
		cancel()
		if err == nil {
			return i, nil
		}
		if ctx.Err() != nil {
			return i, ctx.Err()
		}
		if !retriable(err) || !time.Now().Before(deadline) {
			return i, err
		}
		if ra := retryAfter(err); ra > 0 {
			notBefore[i] = time.Now().Add(ra)
		}
	}
}

// sleepCtx waits d, or less if ctx ends first (then false).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// reconnected counts one failover that took its seat back through sv after
// gap, for a cause.
func (r *run) reconnected(sv *serverRun, gap time.Duration, cause string) {
	r.reconnects.Add(1)
	sv.reconnects.Add(1)
	r.gaps.Record(gap)
	r.mu.Lock()
	r.causes[cause]++
	r.mu.Unlock()
}

// seatLog is what one seat was told, by event number (from 1): the kinds
// of the events, "" for a number it never got. A failover may resend what
// the seat had (a welcome from 0), never change it; a live stream goes on
// from the last number, one by one.
type seatLog struct {
	kinds []string
}

// seq is the number of the last event the seat was told: a reconnect's
// since.
func (l *seatLog) seq() int { return len(l.kinds) }

// told takes a frame's events, numbered seq-len(kinds)+1 … seq, and returns
// how many it finds lost: an event number the seat had whose kind is now
// another; in a live frame (not welcome), any number it had already
// (numbers went backwards); numbers it had past seq (the server says they
// are not there); and numbers skipped past the last it had (a gap). A
// welcome, after a reconnect, may resend what the seat had: that costs
// nothing when the kinds agree.
func (l *seatLog) told(seq int, kinds []string, welcome bool) (lost int) {
	first := seq - len(kinds) + 1
	if first < 1 { // more events than numbers: the extra are nobody's
		lost += 1 - first
		kinds = kinds[1-first:]
		first = 1
	}
	n := len(l.kinds)
	for j, k := range kinds {
		num := first + j
		if num > n {
			break
		}
		if had := l.kinds[num-1]; !welcome || (had != "" && had != k) {
			lost++
		}
		l.kinds[num-1] = k
	}
	if seq < n {
		lost += n - seq
		l.kinds = l.kinds[:seq]
	}
	for len(l.kinds) < first-1 {
		l.kinds = append(l.kinds, "")
		lost++
	}
	for j, k := range kinds {
		if first+j > len(l.kinds) {
			l.kinds = append(l.kinds, k)
		}
	}
	return lost
}

// privateKinds are the kinds of the events only some seats see (an
// actor's own, the mafia's): every other event reaches every seat, in the
// order of the table's log (engine.Event.Audience).
var privateKinds = func() map[string]bool {
	m := map[string]bool{}
	for k := 0; k < 256; k++ {
		e := engine.Event{Kind: engine.EventKind(k)}
		if a := e.Audience(); a == engine.AudActor || a == engine.AudMafia {
			m[e.Kind.String()] = true
		}
	}
	return m
}()

// seatConflicts counts where the seats of one game disagree about the
// events every seat sees: each seat's shared events against the first
// complete seat's, number by number over what both have. A seat with a gap
// (already counted lost) is left out.
func seatConflicts(logs [][]string) int {
	var ref []string
	have, n := false, 0
	for _, l := range logs {
		var shared []string
		gap := false
		for _, k := range l {
			gap = gap || k == ""
			if !privateKinds[k] {
				shared = append(shared, k)
			}
		}
		switch {
		case gap:
		case !have:
			ref, have = shared, true
		default:
			for i := 0; i < min(len(ref), len(shared)); i++ {
				if ref[i] != shared[i] {
					n++
				}
			}
		}
	}
	return n
}

// TableSeen is one game of a run that began, as its seats saw it
// (Config.KeepTables): to compare with the store's log after a cluster lost
// a node.
type TableSeen struct {
	// Table is the table's id, Server the URL it was made on.
	Table  string `json:"table"`
	Server string `json:"server"`
	// Ended says a seat saw the game end.
	Ended bool `json:"ended"`
	// Events are the kinds of the events the first seat (the host's) was
	// told, by event number from 1 ("" for a number it never got): each
	// seat has a count of its own (docs/protocol.md, "Reconnecting").
	Events []string `json:"events"`
	// Seats are every seat's copy, the first seat's first.
	Seats []SeatSeen `json:"seats"`
}

// SeatSeen is what one seat was told.
type SeatSeen struct {
	Seat       int      `json:"seat"`
	Events     []string `json:"events"`
	Reconnects int      `json:"reconnects"`
}
