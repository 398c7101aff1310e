package room_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
)

// Issue 28, defect 8: a person who comes back from a stand-in is told what
// the bot did for them (room/stoodin.go).

// ownMove reports whether e (as the seat was sent it) is a move seat s
// made: what a stand-in does for its person.
func ownMove(e map[string]any, s int) bool {
	a, _ := e["actor"].(float64)
	if int(a) != s {
		return false
	}
	switch e["kind"] {
	case "vote_cast", "all_vote_cast", "nominated", "mafia_chose", "checked", "healed", "shot", "skipped":
		return true
	}
	return false
}

// stoodIn returns the stood_in frame that follows c's welcome, its length
// on the wire, and whether there was one.
func stoodIn(t *testing.T, c *client) (seq, size int, ok bool) {
	t.Helper()
	c.drain()
	if len(c.wire) == 0 || c.wire[0].typ != "welcome" {
		t.Fatalf("seat %d: the first frame is not a welcome: %+v", c.seat, c.wire)
	}
	if len(c.wire) < 2 || c.wire[1].typ != "stood_in" {
		for _, w := range c.wire {
			if w.typ == "stood_in" {
				t.Fatalf("seat %d: a stood_in frame that does not follow the welcome: %+v", c.seat, c.wire)
			}
		}
		return 0, 0, false
	}
	m := c.frames[1].msg
	if m.Seat != c.seat {
		t.Fatalf("seat %d was told of seat %d's stand-in", c.seat, m.Seat)
	}
	return m.Seq, c.wire[1].size, true
}

// welcomeEvents decodes the events of c's welcome.
func welcomeEvents(t *testing.T, c *client) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, raw := range c.frames[0].events {
		var e map[string]any
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// detectiveAt returns the n-th deal seed (from 1 up) whose deal gives seat
// the Detective's card.
func detectiveAt(t *testing.T, setup engine.Setup, seat, n int) uint64 {
	t.Helper()
	roles := make([]engine.Role, setup.Players())
	for seed := uint64(1); seed < 10_000; seed++ {
		if setup.Deal(seed, roles)[seat-1] == engine.Detective {
			if n == 0 {
				return seed
			}
			n--
		}
	}
	t.Fatal("no deal gives the seat the Detective")
	return 0
}

// TestAPersonBackFromAStandInIsToldWhatTheBotDid: seats 2 (the Detective)
// and 3 drop as the game starts and bots stand in for them. Seat 2's person comes back once
// its bot has moved: their welcome is followed by one stood_in frame, 64
// bytes whatever the card, whose seq is where the bot began, and the seat's
// moves from there are the bot's; a second connection of the seat is not
// told again. Seat 3's person comes back after the game ended, and is told
// too. Nobody else is ever sent one.
func TestAPersonBackFromAStandInIsToldWhatTheBotDid(t *testing.T) {
	for game := 0; game < 3; game++ {
		t.Run(fmt.Sprint("game ", game), func(t *testing.T) {
			t.Parallel()
			set := settings(t, 11, tenthTimings)
			set.Pace, set.StandIn, set.Bots = room.PaceInstant, time.Second, "expert"
			// Seat 2 is the Detective (a deal chosen, not waited for): its
			// stand-in checks a seat on night 1, whatever else happens.
			seed := detectiveAt(t, set.Setup, 2, game)
			f := newFixture(t, set, func(c *room.Config) { c.DealSeed = func() uint64 { return seed } })
			host := f.hostClient()
			spectator := f.attach("")
			cs := map[int]*client{}
			for s := 1; s <= 3; s++ {
				_, tok := f.join(fmt.Sprint("person ", s), s)
				cs[s] = f.attach(tok)
			}
			host.must(hostAction("add_bots", 0))
			host.must(hostAction("start", 0))
			f.sync()
			had := 0
			for _, fr := range cs[2].drain() {
				had = max(had, fr.msg.Seq)
			}
			f.r.Detach(cs[2].sub)
			f.r.Detach(cs[3].sub)
			f.sync()
			// Play until seat 2's stand-in has made a move.
			moved := func() bool {
				for _, e := range f.events() {
					switch e.Kind {
					case engine.EvVoteCast, engine.EvAllVoteCast, engine.EvNominated, engine.EvMafiaChose, engine.EvChecked, engine.EvHealed, engine.EvShot, engine.EvSkipped:
						if e.Actor == 2 {
							return true
						}
					}
				}
				return false
			}
			for d := time.Duration(0); !moved(); d += fine {
				if d > time.Hour || f.r.Lobby().Status == string(store.StatusEnded) {
					t.Fatal("seat 2's stand-in made no move before the end")
				}
				f.advance(fine)
			}
			// A night's move is sent at the night's next tick, a vote at its
			// close: play on until the seat has been sent it.
			for d := time.Duration(0); d < 20*time.Second && f.r.Lobby().Status != string(store.StatusEnded); d += fine {
				f.advance(fine)
			}
			back := f.attach(f.tokens[2])
			seq, size, ok := stoodIn(t, back)
			if !ok {
				t.Fatal("seat 2's person came back from a stand-in and was not told what the bot did")
			}
			if size != room.Bucket {
				t.Errorf("the stood_in frame is %d bytes, want %d whatever the card", size, room.Bucket)
			}
			evs := welcomeEvents(t, back)
			if seq < had || seq > len(evs) {
				t.Fatalf("stood_in seq %d: the seat had %d events when it dropped and has %d now", seq, had, len(evs))
			}
			bots := 0
			for _, e := range evs[seq:] {
				if ownMove(e, 2) {
					bots++
				}
			}
			if bots == 0 {
				t.Errorf("no move of seat 2 after stood_in's seq %d, though its stand-in moved", seq)
			}
			for _, e := range evs[had:seq] {
				if ownMove(e, 2) {
					t.Errorf("a move of seat 2 between its drop and the stand-in's start: %v", e)
				}
			}
			if _, _, again := stoodIn(t, f.attach(f.tokens[2])); again {
				t.Error("a second connection of seat 2 was told of the stand-in again")
			}
			f.playFine(2 * time.Hour)
			late := f.attach(f.tokens[3])
			if _, size, ok := stoodIn(t, late); !ok || size != room.Bucket {
				t.Errorf("seat 3's person, back after the end, was told of the stand-in: %v (%d bytes)", ok, size)
			}
			for name, c := range map[string]*client{"the host": host, "a spectator": spectator, "seat 1": cs[1]} {
				c.drain()
				for _, w := range c.wire {
					if w.typ == "stood_in" {
						t.Errorf("%s was sent a stood_in frame", name)
					}
				}
			}
		})
	}
}
