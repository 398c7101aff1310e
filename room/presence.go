package room

// This file watches who is at the table, so that a table its people have
// left costs nothing:
//
//   - a game with no person connected (no connection holding a seat's or
//     the host's token: spectators and the server's bots do not count) for
//     Config.FreezeAfter freezes: its clock stops with the time that was
//     left, no bot acts, nothing is written; the lobby says it is paused
//     for "no_players". The first of its people to connect starts it again
//     with that time (a host's pause stays a pause). Frozen, it is stored
//     as such, and a server does not load it until someone asks for it; a
//     loaded frozen room with nobody connected stops after Config.Linger.
//   - a lobby table with no person connected, and no join, for
//     Config.LobbyExpiry (Config.EmptyLobbyExpiry when no person holds a
//     seat) expires: it is stored as expired, its room stops, and every
//     request for it is refused with CodeExpired.
//
// An ended game's room lingers and stops as before (maybeLinger).

import (
	"time"

	"mafia/store"
)

// isPerson reports whether a connection counts as someone at the table:
// the host's, or a seat's (the server's bots have no connections).
func isPerson(sub *Sub) bool { return sub.Host || sub.Seat != 0 }

// personCame records a person's connection, before its welcome is made: a
// frozen game starts again (it reports whether it did, so that the caller
// lets the bots act once the connection is attached), and any pending
// freeze or expiry is called off.
func (r *Room) personCame() (unfrozen bool) {
	r.persons++
	r.presenceGen++
	stopTimer(&r.absence)
	if r.frozen {
		r.unfreeze()
		return true
	}
	return false
}

// personLeft records that a person's connection is gone.
func (r *Room) personLeft() {
	r.persons--
	if r.persons == 0 {
		r.watchAbsence()
	}
}

// watchAbsence starts the count of a table nobody is at, from now: it is
// called when the last person leaves, when a room starts with nobody (at
// creation and resume), and on every join and leave of a lobby nobody is
// connected to.
func (r *Room) watchAbsence() {
	if r.persons > 0 || r.stopping {
		return
	}
	select {
	case <-r.quit: // the room is being stopped: its connections are dropped
		return
	default:
	}
	r.presenceGen++
	gen := r.presenceGen
	stopTimer(&r.absence) // one watch at a time: the new one counts from now
	switch {
	case r.game == nil && r.set.reserved() && !r.set.StartBy.IsZero():
		// Its StartBy starts it, whoever comes (reserve.go).
	case r.game == nil:
		d := r.cfg.LobbyExpiry
		if !r.anyoneSeated() {
			d = r.cfg.EmptyLobbyExpiry
		}
		if d < 0 {
			return
		}
		r.absence = r.later(d, func() {
			if r.presenceGen == gen && r.persons == 0 && r.game == nil {
				r.expire()
			}
		})
	case !r.game.Ended() && !r.frozen:
		if r.cfg.FreezeAfter < 0 {
			return
		}
		r.absence = r.later(r.cfg.FreezeAfter, func() {
			if r.presenceGen == gen && r.persons == 0 {
				r.freeze()
			}
		})
	}
}

// anyoneSeated reports whether a person (not a bot) holds a seat.
func (r *Room) anyoneSeated() bool {
	for s := 1; s < len(r.seats); s++ {
		if r.seats[s].tokenHash != "" {
			return true
		}
	}
	return false
}

// freeze stops a game nobody is at: its clock with the time left, its
// bots, its writes. The table is stored as frozen (then its clock, so that
// a crash between the two leaves it frozen with the step's full time at
// worst), and the lobby says why.
func (r *Room) freeze() {
	if r.game == nil || r.game.Ended() || r.frozen {
		return
	}
	if !r.paused {
		r.left = max(r.deadline.Sub(r.cfg.Clock.Now()), 0)
	}
	r.frozen, r.paused = true, true
	r.stopTimers()
	r.botQueued = 0 // their turns were timers: unfreezing schedules them again
	r.table.Status = store.StatusFrozen
	r.persist(r.tableWrite(), r.clockWrite())
	if r.moved.Load() {
		return // the table is another node's: it says nothing of a freeze
	}
	r.cfg.Log.Info("no one at the table: the game is frozen", "left", r.left)
	if r.cfg.Metrics.GameFrozen != nil {
		r.cfg.Metrics.GameFrozen()
	}
	r.broadcastLobby()
	r.maybeLinger()
}

// unfreeze starts a frozen game again with the time that was left (unless
// the host had paused it: then it stays paused). The clock is stored before
// the status, so that a crash between the two leaves the game frozen with
// that time.
func (r *Room) unfreeze() {
	r.frozen = false
	if !r.hostPaused {
		r.paused = false
		r.schedule(r.left)
	}
	r.table.Status = store.StatusPlaying
	r.persist(r.clockWrite(), r.tableWrite())
	if r.moved.Load() {
		return
	}
	if r.cfg.Metrics.GameThawed != nil {
		r.cfg.Metrics.GameThawed()
	}
	r.publishLobby()
}

// expire closes a lobby everyone has left: stored as expired, every
// connection (spectators') closed, the room stopped.
func (r *Room) expire() {
	r.table.Status = store.StatusExpired
	r.persist(r.tableWrite())
	if r.moved.Load() {
		return // not expired: the table is another node's (its connections get CodeMoved)
	}
	r.expired.Store(true)
	r.cfg.Log.Info("a lobby nobody is at has expired")
	for sub := range r.subs {
		r.drop(sub, CodeExpired)
	}
	r.stopping = true
}

// pauseReason is what the lobby says of a stopped clock.
func (r *Room) pauseReason() string {
	switch {
	case !r.paused:
		return ""
	case r.frozen:
		return "no_players"
	}
	return "host"
}

// lobbyStatus is the status the lobby shows: a frozen game is still a game
// being played (its clock is paused, and pause_reason says why).
func (r *Room) lobbyStatus() string {
	if r.table.Status == store.StatusFrozen {
		return string(store.StatusPlaying)
	}
	return string(r.table.Status)
}

// frozenLeft is the time left of a stored frozen game's step: what its
// clock kept (at most the step's length dur), or the whole step if the
// clock is not that step's.
func frozenLeft(clk store.Clock, step int, dur time.Duration) time.Duration {
	if clk.Step != step {
		return dur
	}
	return min(max(clk.Left, 0), dur)
}
