package room

import (
	"time"

	"mafia/internal/secret"
	"mafia/rng"
)

// A background transition (a game frozen for lack of players, thawed, a
// lobby expired, a status repaired on load) has no request to refuse when
// the store fails: nobody asked for it. Its writes are kept instead and
// tried again, in the order they were made, until they commit or the room
// stops, so that the store catches up with what the room did (and a
// restart finds the table as it was left) as soon as the store is back.
// While they wait, the store's own health (store.WriteMonitor) tells the
// operator that writes fail.

// rewriteEvery is how often kept writes are tried again, on average: each
// wait is drawn by retryWait.
const rewriteEvery = time.Second

// retryWait is how long the room waits before it tries a failed write
// again (kept writes, a step's end): every from half of every to one and a
// half, drawn from the room's own seeded source (retrySrc), so that a
// thousand rooms whose writes failed together (the database went away) do
// not all try again in the same instant when it comes back.
func (r *Room) retryWait(every time.Duration) time.Duration {
	return every/2 + time.Duration(r.retrySrc.Uint64()%uint64(every))
}

// newRetrySource is a room's source of retry waits: seeded once, from a
// secret seed (no global random source; nothing it draws is a secret).
func newRetrySource() rng.Source { return rng.New(secret.Seed()) }

// write is one kept write: it stores the room's state of its kind as it is
// when it runs (the table's status, the clock), so a later try writes what
// is current, not what was current when it first failed.
type write struct {
	what string
	do   func() error
}

// persist makes the writes in order; from the first that fails, it and the
// ones after it are kept and tried again later. If writes are kept
// already, these wait behind them (order holds).
//
// A write fenced out (the table passed to another node, fence.go) is not
// kept, nor is any after it: the room writes nothing more.
func (r *Room) persist(ws ...write) {
	if r.moved.Load() {
		return
	}
	if len(r.unsaved) > 0 {
		r.unsaved = append(r.unsaved, ws...)
		return
	}
	for i, w := range ws {
		if err := w.do(); err != nil {
			if r.moved.Load() {
				return // lose has forgotten what was kept
			}
			r.cfg.Log.Error("store write failed; kept to try again", "write", w.what, "err", err)
			r.unsaved = append(r.unsaved, ws[i:]...)
			r.scheduleRewrite()
			return
		}
	}
}

// scheduleRewrite tries the kept writes again after rewriteEvery (one
// timer at a time).
func (r *Room) scheduleRewrite() {
	stopTimer(&r.rewrite)
	r.rewrite = r.later(r.retryWait(rewriteEvery), func() {
		r.rewrite = nil
		r.flushUnsaved()
		if len(r.unsaved) > 0 {
			r.scheduleRewrite()
		}
	})
}

// flushUnsaved makes the kept writes in order, stopping at the first that
// fails; it reports whether none is left. One fenced out forgets them all
// (lose): they are never tried again.
func (r *Room) flushUnsaved() bool {
	for len(r.unsaved) > 0 {
		w := r.unsaved[0]
		if err := w.do(); err != nil {
			return false
		}
		r.cfg.Log.Info("kept store write committed", "write", w.what)
		r.unsaved[0] = write{}
		r.unsaved = r.unsaved[1:]
	}
	r.unsaved = nil
	return true
}

// tableWrite stores the table (its status, seed, winner and config) as it
// is when the write runs.
func (r *Room) tableWrite() write {
	return write{what: "table", do: r.saveTable}
}

// clockWrite stores the game's clock as it is when the write runs.
func (r *Room) clockWrite() write {
	return write{what: "clock", do: r.saveClock}
}
