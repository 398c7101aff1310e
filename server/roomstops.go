package server

// This file counts the rooms whose goroutines run, so that Close waits for
// each room's OnStop to have returned, not only for its goroutine to be
// done: a room closes Done before it calls OnStop (room.Config), and a
// clustered server's OnStop starts letting the table's lease go
// (stopped): without this wait Close could pass that point, and close its
// store, before the lease was let go (and count it as letting too late:
// the race detector's "WaitGroup is reused before previous Wait has
// returned").

import (
	"sync"
	"time"
)

// roomStops counts the rooms started (a Create or Resume that returned a
// room: its goroutine runs, and OnStop will be called once) and not yet
// through OnStop. The count may dip below zero for a moment (a room that
// stops before its start is counted).
type roomStops struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int
}

func newRoomStops() *roomStops {
	rs := &roomStops{}
	rs.cond = sync.NewCond(&rs.mu)
	return rs
}

// started counts a room whose goroutine runs.
func (rs *roomStops) started() {
	rs.mu.Lock()
	rs.n++
	rs.mu.Unlock()
}

// ended is called at the end of a room's OnStop.
func (rs *roomStops) ended() {
	rs.mu.Lock()
	rs.n--
	rs.cond.Broadcast()
	rs.mu.Unlock()
}

// wait waits until every started room is through OnStop, or d has passed
// (it reports whether they all were).
func (rs *roomStops) wait(d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		rs.mu.Lock()
		for rs.n > 0 {
			rs.cond.Wait()
		}
		rs.mu.Unlock()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}
