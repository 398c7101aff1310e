package bot_test

import (
	"fmt"
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// TestTable_ABotAddedMidGameSeesTheGameSoFarAsItsSeatDoes: a bot put at a
// seat in the middle of a game (Table.Add, as a stand-in for a person who
// dropped) is shown the game so far exactly as a bot there from the start
// was, then every later event its seat may see, until it is taken away
// (Table.Remove); no other bot is shown anything more. Two games of one
// seed are played side by side, one with a recording bot at a seat
// throughout, one with its seat's bot swapped for a fresh one (in the same
// state) at one step and taken away at a later one.
func TestTable_ABotAddedMidGameSeesTheGameSoFarAsItsSeatDoes(t *testing.T) {
	for i := 0; i < 60; i++ {
		seed := rng.Derive(0x57a2d, uint64(i))
		players := engine.PresetMin + i%(engine.PresetMax-engine.PresetMin+1)
		seat := engine.Seat(1 + i%players)
		addAt := 1 + i%4
		removeAt := addAt + 1 + i%5
		t.Run(fmt.Sprintf("game %d, seat %d of %d, from step %d to %d", i, seat, players, addAt, removeAt), func(t *testing.T) {
			// play plays the game, and says how many events the seat's
			// bot was shown before step removeAt (mark).
			play := func(swap bool) (recs []*recorder, added *recorder, mark int) {
				setup, _ := engine.Preset(players)
				g, start, err := engine.New(engine.DefaultRules(), setup.Deal(seed, nil), seed)
				if err != nil {
					t.Fatal(err)
				}
				all := append([]engine.Event(nil), start...)
				recs = make([]*recorder, players+1)
				tb := &bot.Table{Game: g, Bots: make([]bot.Bot, players+1)}
				for s := 1; s <= players; s++ {
					recs[s] = &recorder{Random: *bot.NewRandom(rng.Derive(seed, uint64(s))), seat: engine.Seat(s)}
					tb.Bots[s] = recs[s]
				}
				tb.OnEvents = func(_ engine.Command, evs []engine.Event) { all = append(all, evs...) }
				tb.Begin(start)
				for step := 0; step < 100000 && !g.Ended(); step++ {
					if step == removeAt {
						mark = len(recs[seat].seen)
						if added != nil {
							mark = len(added.seen)
						}
					}
					switch {
					case swap && step == addAt:
						added = &recorder{Random: recs[seat].Random, seat: seat} // the same draws to come
						tb.Add(seat, added, all)
					case swap && step == removeAt:
						tb.Remove(seat)
						if tb.Bots[seat] != nil {
							t.Fatal("Remove left the bot at its seat")
						}
						plain := added.Random // plays on as it would have, seeing nothing
						tb.Add(seat, &plain, nil)
					}
					tb.Step()
				}
				return recs, added, mark
			}
			whole, _, wantMark := play(false)
			swapped, added, mark := play(true)
			if added == nil || mark == 0 {
				// The swap is over by step 10, and no game of these seeds ends
				// that soon: a game that did would leave the case untested.
				t.Fatal("the game ended before the swap was over: choose cases whose games outlast it")
			}
			mine := whole[seat].seen
			before := len(swapped[seat].seen)
			if mark != wantMark || !sameEvents(added.seen, mine[:wantMark]) || before == 0 || !sameEvents(swapped[seat].seen, mine[:before]) {
				t.Fatalf("seat %d: the bot there throughout saw %d events, %d before step %d; the first bot %d before the swap, the one added %d: not the same",
					seat, len(mine), wantMark, removeAt, before, len(added.seen))
			}
			if len(added.wrong) > 0 {
				t.Fatal(added.wrong[0])
			}
			for s := 1; s <= players; s++ {
				if engine.Seat(s) != seat && !sameEvents(swapped[s].seen, whole[s].seen) {
					t.Errorf("seat %d was shown %d events with the swap, %d without", s, len(swapped[s].seen), len(whole[s].seen))
				}
			}
		})
	}
}

func sameEvents(a, b []engine.Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
