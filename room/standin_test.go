package room_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
	"mafia/wire"
)

// A bot stands in for a person who dropped (room/standin.go), on the fake
// clock.

// lastLobby is the latest lobby the client was sent.
func (c *client) lastLobby() *wire.Lobby {
	c.drain()
	for i := len(c.frames) - 1; i >= 0; i-- {
		if l := c.frames[i].msg.Lobby; l != nil {
			return l
		}
	}
	return nil
}

// standIns lists the seats a lobby marks as played by a bot for their
// person.
func standIns(l *wire.Lobby) []int {
	var out []int
	if l == nil {
		return out
	}
	for _, s := range l.Seats {
		if s.StandIn {
			out = append(out, s.Seat)
		}
	}
	return out
}

func sameSeats(a, b []int) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// seatStep reports whether an event begins a turn to speak of seat s.
func seatStep(e engine.Event, s engine.Seat) bool {
	switch e.Kind {
	case engine.EvSpeech, engine.EvLastWords, engine.EvDefence, engine.EvTieSpeech:
		return e.Target == s
	}
	return false
}

// TestAStandInPlaysADroppedSeatAndGivesItBackAtOnce: two people (seats 2
// and 3) drop as the game starts; after the grace period a bot plays each
// seat, at human pace, and everyone is shown the seats as played by a bot.
// Seat 2's stand-in plays on to the end (it ends its speeches itself);
// seat 3's person comes back as one of its turns to speak begins, with its
// stand-in's move already scheduled: the seat is theirs at once (the flag
// clears for everyone), and no move is made for it after they are back.
func TestAStandInPlaysADroppedSeatAndGivesItBackAtOnce(t *testing.T) {
	for game := 0; game < 3; game++ {
		t.Run(fmt.Sprint("game ", game), func(t *testing.T) {
			t.Parallel()
			standInGame(t)
		})
	}
}

func standInGame(t *testing.T) {
	set := settings(t, 11, tenthTimings)
	set.Pace, set.StandIn = room.PaceHuman, time.Second
	ts := &timedStore{}
	f := newFixture(t, set, timed(ts))
	ts.now = func() time.Time { return f.clk.Now() }
	host := f.hostClient()
	spectator := f.attach("")
	cs := map[int]*client{}
	for s := 1; s <= 3; s++ {
		_, tok := f.join(fmt.Sprint("person ", s), s)
		cs[s] = f.attach(tok)
	}
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0))
	f.r.Detach(cs[2].sub)
	f.r.Detach(cs[3].sub)
	f.sync()
	if l := f.r.Lobby(); !sameSeats(standIns(&l), nil) || l.StandInMS != 1000 {
		t.Fatalf("at the drop: stand-ins %v, grace %d ms", standIns(&l), l.StandInMS)
	}
	f.advanceBy(set.StandIn - fine)
	if l := f.r.Lobby(); len(standIns(&l)) != 0 {
		t.Fatalf("a bot stood in before the grace period was over: %v", standIns(&l))
	}
	f.advance(fine)
	for name, c := range map[string]*client{"the host": host, "a spectator": spectator, "seat 1": cs[1]} {
		if got := standIns(c.lastLobby()); !sameSeats(got, []int{2, 3}) {
			t.Fatalf("%s is shown stand-ins at %v, want 2 and 3", name, got)
		}
	}
	// Play on until a turn of seat 3 to speak begins: its person comes back
	// then, while its stand-in's move waits (a person's time).
	var back time.Time
	seen := 0
	for d := time.Duration(0); back.IsZero(); d += fine {
		if d > time.Hour || f.r.Lobby().Status == string(store.StatusEnded) {
			t.Fatal("seat 3 had no turn to speak before the end")
		}
		f.advance(fine)
		ts.mu.Lock()
		batches := ts.batches[seen:]
		seen = len(ts.batches)
		ts.mu.Unlock()
		for _, b := range batches {
			for _, e := range b.evs {
				if seatStep(e, 3) {
					back = f.clk.Now()
				}
			}
		}
	}
	again := f.attach(f.tokens[3])
	if got := standIns(again.lastLobby()); !sameSeats(got, []int{2}) {
		t.Errorf("seat 3's welcome back shows stand-ins at %v, want 2 alone", got)
	}
	for name, c := range map[string]*client{"the host": host, "a spectator": spectator, "seat 1": cs[1]} {
		if got := standIns(c.lastLobby()); !sameSeats(got, []int{2}) {
			t.Errorf("%s is shown stand-ins at %v after seat 3 came back, want 2 alone", name, got)
		}
	}
	f.playFine(2 * time.Hour)
	if l := f.r.Lobby(); len(standIns(&l)) != 0 {
		t.Errorf("the game is over, and the lobby still shows stand-ins at %v", standIns(&l))
	}
	tm := timingsOf(tenthTimings)
	two, twoOut := ts.turns(tm, func(s engine.Seat) bool { return s == 2 })
	if len(two) == 0 || len(twoOut) > 0 {
		t.Errorf("seat 2's stand-in made %d moves and let %d of its speeches run out", len(two), len(twoOut))
	}
	three, threeOut := ts.turns(tm, func(s engine.Seat) bool { return s == 3 })
	for _, b := range three {
		if !b.at.Before(back) {
			t.Errorf("a move was made for seat 3 after its person came back: %s", b)
		}
	}
	if len(threeOut) == 0 || threeOut[0].at.Before(back) {
		t.Errorf("the speech seat 3's person came back to did not run out on the clock: %v", threeOut)
	}
	t.Logf("seat 2's stand-in made %d moves; seat 3's %d before its person came back", len(two), len(three))
}

// advanceBy moves the clock by d in steps of fine.
func (f *fixture) advanceBy(d time.Duration) {
	f.t.Helper()
	for ; d > 0; d -= fine {
		f.advance(min(fine, d))
	}
}

// TestAStandInDoesNotKeepAGameNobodyIsAtFromFreezing: everyone leaves a
// game; after the grace period bots stand in for both people's seats, but
// a stand-in is nobody at the table: the game freezes after FreezeAfter as
// it would have, nothing moves while it is frozen, and when one person
// comes back it goes on as before, that person's seat theirs again at once
// and the other still played by its stand-in.
func TestAStandInDoesNotKeepAGameNobodyIsAtFromFreezing(t *testing.T) {
	set := settings(t, 11, tenthTimings)
	set.StandIn = time.Second
	freezeAfter := 6 * time.Second // within the first rounds: the game is not over yet
	ts := &timedStore{}
	f := newFixture(t, set, func(c *room.Config) { timed(ts)(c); c.FreezeAfter = freezeAfter })
	ts.now = func() time.Time { return f.clk.Now() }
	host := f.hostClient()
	_, tok1 := f.join("Nino", 1)
	f.join("Giorgi", 2)
	host.must(hostAction("add_bots", 0))
	host.must(hostAction("start", 0)) // seats 1 and 2 never connected: away from the start
	f.r.Detach(host.sub)
	f.sync()
	f.ticks(set.StandIn)
	if l := f.r.Lobby(); !sameSeats(standIns(&l), []int{1, 2}) {
		t.Fatalf("after the grace period the stand-ins are %v", standIns(&l))
	}
	f.ticks(freezeAfter - set.StandIn - tick)
	if l := f.r.Lobby(); l.Paused || l.Status != string(store.StatusPlaying) {
		t.Fatalf("before FreezeAfter: %+v", l)
	}
	f.ticks(tick)
	l := f.r.Lobby()
	if !l.Paused || l.PauseReason != "no_players" {
		t.Fatalf("the stand-ins kept a game nobody is at from freezing: paused %v (%q)", l.Paused, l.PauseReason)
	}
	n := len(f.events())
	f.ticks(time.Minute)
	if got := len(f.events()); got != n {
		t.Fatalf("the frozen game's log grew from %d to %d", n, got)
	}
	back := f.clk.Now()
	c1 := f.attach(tok1)
	if got := standIns(c1.lastLobby()); !sameSeats(got, []int{2}) || c1.lastLobby().Paused {
		t.Fatalf("seat 1 back: stand-ins %v, paused %v", got, c1.lastLobby().Paused)
	}
	f.runToEnd(c1, time.Hour)
	tm := timingsOf(tenthTimings)
	one, _ := ts.turns(tm, func(s engine.Seat) bool { return s == 1 })
	for _, b := range one {
		if !b.at.Before(back) {
			t.Errorf("seat 1 was played after its person came back: %s", b)
		}
	}
	// Its first turn to speak (a speech, or last words) came before the
	// freeze, and it ended it at once (instant pace).
	if two, _ := ts.turns(tm, func(s engine.Seat) bool { return s == 2 }); len(two) == 0 {
		t.Error("seat 2's stand-in never played")
	}
}

// TestAStandInsGracePeriodIsRangeChecked: a grace period is 0 (never) to
// MaxStandIn, checked before it becomes a Duration, and refused with
// bad_stand_in naming the number as given.
func TestAStandInsGracePeriodIsRangeChecked(t *testing.T) {
	for _, ms := range []int64{-1, 600_001, 1<<58 + 5000, math.MaxInt64, math.MinInt64} {
		_, err := room.StandInFromMillis(ms)
		if codeOf(err) != room.CodeBadStandIn || valueOf(err) != strconv.FormatInt(ms, 10) {
			t.Errorf("a grace of %d ms: %v, want bad_stand_in naming %d", ms, err, ms)
		}
	}
	for _, ms := range []int64{0, 1, 20_000, 600_000} {
		if d, err := room.StandInFromMillis(ms); err != nil || d != time.Duration(ms)*time.Millisecond {
			t.Errorf("a grace of %d ms: %v %v", ms, d, err)
		}
	}
	for _, d := range []time.Duration{-time.Millisecond, room.MaxStandIn + time.Millisecond} {
		set := settings(t, 7, nil)
		set.StandIn = d
		if _, _, err := set.Check(); codeOf(err) != room.CodeBadStandIn {
			t.Errorf("a table with a grace of %v: %v", d, err)
		}
	}
}

// TestAStandInShowsOthersItsFlagAndNothingOfItsCard: a person drops in the
// first night and a bot stands in, for each kind of card in turn. What
// every other connection is sent is the same whatever the card: at the
// grace period one lobby update, the same bytes for everyone and of one
// length for every card; the stand-in's night move (if its card has one)
// reaches nobody when it is made; and at the next tick every seat gets two
// frames, each slot of one length for every seat.
func TestAStandInShowsOthersItsFlagAndNothingOfItsCard(t *testing.T) {
	flagSize := map[engine.Role]int{}
	for _, card := range []engine.Role{engine.Don, engine.Mafioso, engine.Detective, engine.Doctor, engine.Citizen} {
		set := settings(t, 7, nightTimings)
		set.StandIn = 1500 * ms
		f := newFixture(t, set, nil)
		cs := f.fillWithPeople(7)
		watch := f.attach("")
		host := f.hostClient()
		host.must(hostAction("start", 0))
		away := seatsOf(f.truth(), is(card))[0]
		f.r.Detach(cs[away].sub)
		f.sync()
		var others []*client
		for _, c := range append([]*client{watch, host}, cs[1:]...) {
			if c.seat != away {
				others = append(others, c)
			}
		}
		drainAll(others...)
		f.ticks(1400 * ms) // the tick at 1 s on the way
		drainAll(others...)
		before := map[*client]int{}
		for _, c := range others {
			before[c] = len(c.wire)
		}
		n := len(f.events())
		f.advance(tick) // the grace period is over
		drainAll(others...)
		var flag []byte
		for _, c := range others {
			last := c.frames[len(c.frames)-1]
			if len(c.wire)-before[c] != 1 || c.wire[len(c.wire)-1].typ != "update" || last.msg.Lobby == nil {
				t.Fatalf("%v away: seat %d got %d frames as the bot stood in, want the lobby's update", card, c.seat, len(c.wire)-before[c])
			}
			if flag == nil {
				flag = last.raw
			} else if string(last.raw) != string(flag) {
				t.Errorf("%v away: seat %d got %s, another %s", card, c.seat, last.raw, flag)
			}
		}
		if s := standIns(others[0].lastLobby()); !sameSeats(s, []int{away}) {
			t.Fatalf("%v away: the stand-ins shown are %v", card, s)
		}
		flagSize[card] = len(flag)
		if got := len(f.events()); card != engine.Citizen && got == n {
			t.Errorf("%v away: the stand-in made no night move", card)
		}
		// The next tick: two frames a seat, each slot of one length.
		for _, c := range others {
			before[c] = len(c.wire)
		}
		f.advance(500 * ms)
		drainAll(others...)
		sizes := map[int][2]int{}
		for _, c := range others {
			got := c.wire[before[c]:]
			if c.seat == 0 {
				if len(got) != 0 {
					t.Errorf("%v away: a connection without a seat got %d frames at the tick", card, len(got))
				}
				continue
			}
			if len(got) != 2 {
				t.Fatalf("%v away: seat %d got %d frames at the tick, want 2", card, c.seat, len(got))
			}
			sizes[c.seat] = [2]int{got[0].size, got[1].size}
		}
		var first [2]int
		for _, sz := range sizes {
			if first == [2]int{} {
				first = sz
			} else if sz != first {
				t.Errorf("%v away: the tick's frames are %v bytes for one seat, %v for another", card, sz, first)
			}
		}
	}
	for card, n := range flagSize {
		if n != flagSize[engine.Citizen] {
			t.Errorf("the flag's update is %d bytes with the %v away, %d with a citizen away", n, card, flagSize[engine.Citizen])
		}
	}
}
