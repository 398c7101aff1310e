package bot_test

import (
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// asked is the random bot behind another type, so that the Table asks it
// everywhere (it fills no view only for *bot.Random itself), counting in
// which steps it was asked and where it made a move.
type asked struct {
	r     bot.Random
	asked [engine.PhaseEnded + 1]int
	moved [engine.PhaseEnded + 1]int
}

func (a *asked) Act(v *engine.View) (engine.Command, bool) {
	a.asked[v.Phase]++
	c, ok := a.r.Act(v)
	if ok {
		a.moved[v.Phase]++
	}
	return c, ok
}

// The Table asks the random bot nothing on a floor that waits for no move
// (a defence, a tie speech, last words): the random bot never makes one
// there, so a game goes exactly as when it is asked. Seeded 11-player games
// under random house rules are played twice, once with *bot.Random on every
// seat and once with the same bots behind another type, and every event
// must be the same; the second run must have asked the bots on such floors
// (so the rule is exercised) and seen no move there.
func TestTableSkipsTheRandomBotOnlyOnFloorsWithoutAMove(t *testing.T) {
	const games = 300
	setup, _ := engine.Preset(11)
	var floors [engine.PhaseEnded + 1]int
	for i := 0; i < games; i++ {
		seed := rng.Derive(0x736b6970, uint64(i)) // "skip"
		src := rng.New(seed)
		rules := engine.RandomRules(&src)
		deal := setup.Deal(seed, nil)
		play := func(wrap bool) (evs []engine.Event, bots []*asked) {
			g, start, err := engine.New(rules, deal, seed)
			if err != nil {
				t.Fatal(err)
			}
			tb := &bot.Table{Game: g, Bots: make([]bot.Bot, len(deal)+1)}
			for s := 1; s <= len(deal); s++ {
				r := bot.NewRandom(rng.Derive(seed, uint64(s)))
				if wrap {
					a := &asked{r: *r}
					bots = append(bots, a)
					tb.Bots[s] = a
				} else {
					tb.Bots[s] = r
				}
			}
			evs = append(evs, start...)
			tb.OnEvents = func(_ engine.Command, e []engine.Event) { evs = append(evs, e...) }
			tb.Begin(start)
			if !tb.Play(100000) {
				t.Fatalf("game %d did not end", i)
			}
			return evs, bots
		}
		direct, _ := play(false)
		behind, bots := play(true)
		if len(direct) != len(behind) {
			t.Fatalf("game %d: %d events with *bot.Random, %d with the same bots asked everywhere", i, len(direct), len(behind))
		}
		for j := range direct {
			if direct[j] != behind[j] {
				t.Fatalf("game %d: event %d is %+v with *bot.Random, %+v with the same bots asked everywhere", i, j, direct[j], behind[j])
			}
		}
		for _, a := range bots {
			for _, p := range []engine.Phase{engine.PhaseDefence, engine.PhaseTieSpeech, engine.PhaseLastWords} {
				floors[p] += a.asked[p]
				if a.moved[p] != 0 {
					t.Fatalf("game %d: the random bot moved %d times in %s", i, a.moved[p], p)
				}
			}
		}
	}
	for _, p := range []engine.Phase{engine.PhaseDefence, engine.PhaseTieSpeech, engine.PhaseLastWords} {
		if floors[p] == 0 {
			t.Errorf("no bot was asked in %s in %d games: the rule was not exercised", p, games)
		}
	}
}
