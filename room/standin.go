package room

// This file lets a bot stand in for a person who dropped.
//
// During a game, a person's seat with no connection for the table's grace
// period (Settings.StandIn; 0: never) is played by a bot of the table's
// level for its card's side (Settings.Bots), from that seat's view and the
// events that seat may see (bot.Table.Add shows it the game so far, as the
// seat saw it), at the table's pace, until a connection of the seat comes
// back. It makes no statements and says no lines (botlines.go): what a
// seat says is its person's, and a bot must not put words in their mouth.
// The person then takes the seat back at once: before their welcome
// is made the bot is taken away and any turn of it already scheduled is
// cancelled, so that it makes no move after they are back. Every seat and
// spectator sees the seat marked in the lobby (SeatInfo.StandIn).
//
// What others may learn of it is that flag alone. When it is set depends on
// the seat's connections only (the grace period starts when its last
// connection goes, at the start of the game for a seat nobody is connected
// to, and at a restart for every seat), never on its card; the bot moves at
// the table's pace, and at night its moves wait for the night's ticks as
// anyone's do.
//
// The presence watch (presence.go) counts people's connections, and a
// stand-in has none: a game nobody is at still freezes after
// Config.FreezeAfter, stand-ins and all, and goes on as before when one of
// its people comes back (their seat theirs again at once). An in-person
// game (the host's assistant, assist/) has no room, no connections and no
// server's bots: nothing ever stands in there.

import (
	"time"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// DefaultStandIn is the grace period a table made online gets unless its
// creator chooses another: a reload or a tunnel is shorter, a player who
// has gone is not kept waiting for long.
const DefaultStandIn = 20 * time.Second

// MaxStandIn is the longest grace period a table may have.
const MaxStandIn = 10 * time.Minute

// standInStream is the stream of the bots' seed the stand-ins' seeds come
// from (the n-th stand-in's is standInStream+n).
const standInStream = 2 << 32

// StandInFromMillis converts a grace period in milliseconds, refusing one
// outside 0..MaxStandIn with CodeBadStandIn (naming the number as given)
// before it becomes a Duration.
func StandInFromMillis(ms int64) (time.Duration, error) {
	return millisUpTo(ms, MaxStandIn, CodeBadStandIn)
}

// standInState is the bots standing in for people who dropped: each seat's
// grace period running, by seat, with its number (a grace period that is
// not its seat's latest does nothing), and how many stand-ins were made.
type standInState struct {
	graces   []Timer
	graceGen []uint32
	standIns uint64
}

// seatAway starts the grace period of person's seat s that no connection
// holds, during a game: when it is over, a bot stands in (standIn).
func (r *Room) seatAway(s engine.Seat) {
	st := &r.seats[s]
	if r.set.StandIn <= 0 || r.game == nil || r.game.Ended() || st.bot || st.tokenHash == "" || st.conns > 0 || st.standIn || r.stopping {
		return
	}
	select {
	case <-r.quit: // the room is being stopped: its connections are dropped
		return
	default:
	}
	if r.graces == nil {
		r.graces, r.graceGen = make([]Timer, len(r.seats)), make([]uint32, len(r.seats))
	}
	r.graceGen[s]++
	gen := r.graceGen[s]
	stopTimer(&r.graces[s])
	r.graces[s] = r.later(r.set.StandIn, func() {
		if r.graceGen[s] == gen {
			r.graces[s] = nil
			r.standIn(s)
		}
	})
}

// seatsAway starts the grace period of every person's seat no connection
// holds (at the start of a game, and at a restart).
func (r *Room) seatsAway() {
	for s := 1; s < len(r.seats); s++ {
		r.seatAway(engine.Seat(s))
	}
}

// seatBack is a connection of seat s come: its grace period is over, and
// a bot standing in for it is taken away.
func (r *Room) seatBack(s engine.Seat) {
	if r.graces != nil {
		r.graceGen[s]++
		stopTimer(&r.graces[s])
	}
	r.takeBack(s)
}

// standIn lets a bot play seat s, whose person is still away.
func (r *Room) standIn(s engine.Seat) {
	st := &r.seats[s]
	if r.game == nil || r.game.Ended() || r.botTable == nil || st.conns > 0 || st.standIn {
		return
	}
	mix, _ := bot.ParseMix(r.set.Bots) // checked at the table's creation; "" is random
	r.standIns++
	b := mix.For(r.game.Role(s)).New(rng.Derive(r.botSeed, standInStream+r.standIns))
	if m, ok := b.(interface{ Mute() }); ok {
		m.Mute() // no words in the person's mouth: no statement, no line
	}
	st.standIn = true
	st.standInSeq, st.backSince = r.seqs[s], 0
	r.botDone = r.botDone.Without(s)
	r.botTable.Add(s, b, r.log)
	r.cfg.Log.Info("a bot stands in for a seat's player", "seat", int(s))
	r.broadcastLobby()
	r.settle()
}

// takeBack gives seat s back to its person: its stand-in is taken away,
// and its turn, if one is scheduled, cancelled.
func (r *Room) takeBack(s engine.Seat) {
	st := &r.seats[s]
	if !st.standIn {
		return
	}
	st.standIn = false
	st.backSince = st.standInSeq + 1 // the welcome is followed by what the bot did (stoodin.go)
	r.cancelTurn(s)
	r.botTable.Remove(s)
	r.botDone = r.botDone.Without(s)
	r.cfg.Log.Info("a seat's player is back from a stand-in", "seat", int(s))
}

// endStandIns ends every stand-in and grace period (the game is over, or
// the room stops).
func (r *Room) endStandIns() {
	for s := 1; s < len(r.seats); s++ {
		if r.seats[s].standIn {
			r.seats[s].backSince = r.seats[s].standInSeq + 1 // told when they come back
		}
		r.seats[s].standIn = false
		if r.graces != nil {
			r.graceGen[s]++
			stopTimer(&r.graces[s])
		}
	}
}
