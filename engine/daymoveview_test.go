package engine_test

import (
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// dayFields is ViewFor's view cut to the fields DayMoveViewInto sets (its
// doc's list, written out again here), every other field zero.
func dayFields(w *engine.View) engine.View {
	return engine.View{
		Seat: w.Seat, Players: w.Players, Rules: w.Rules, Phase: w.Phase, Round: w.Round,
		Speaker: w.Speaker, Alive: w.Alive, Candidates: w.Candidates, NumCandidates: w.NumCandidates,
		Nominated: w.Nominated, Voted: w.Voted,
	}
}

// The day's moves' view (DayMoveViewInto) is ViewFor's, cut to the public
// fields a move's legality reads: after every command of seeded random
// games under random rules, at every step but the night, for every seat
// (the spectator's and one past the table too), a zero View filled by
// DayMoveViewInto equals ViewFor's cut to those fields (so it holds no
// secret: not even the seat's card), and one View filled by it for seat
// after seat answers Targets and Can of every move as ViewFor does.
func TestDayMoveViewIsTheViewCutToTheDaysMoves(t *testing.T) {
	moves := []engine.Verb{engine.Kill, engine.Check, engine.Shoot, engine.Heal, engine.Skip,
		engine.Nominate, engine.Vote, engine.AllVote, engine.Pass}
	games := 200
	if testing.Short() {
		games = 40
	}
	setups := []engine.Setup{
		{Don: 1, Mafia: 4, Maniac: 1, Detective: 1, Doctor: 1, Citizens: 8},
		{Mafia: 6, Citizens: 14},
	}
	for n := engine.PresetMin; n <= engine.PresetMax; n++ {
		p, err := engine.Preset(n)
		if err != nil {
			t.Fatal(err)
		}
		setups = append(setups, p)
	}
	checked := 0
	for i := 0; i < games; i++ {
		seed := rng.Derive(0x646179, uint64(i)) // "day"
		src := rng.New(seed)
		rules := engine.RandomRules(&src)
		deal := setups[i%len(setups)].Deal(seed, nil)
		g, start, err := engine.New(rules, deal, seed)
		if err != nil {
			t.Fatal(err)
		}
		n := engine.Seat(len(deal))
		var dirty engine.View
		check := func() {
			if g.Phase() == engine.PhaseNight {
				return
			}
			for s := engine.Seat(0); s <= n+1; s++ {
				full := g.ViewFor(s)
				var m engine.View
				g.DayMoveViewInto(&m, s)
				if want := dayFields(&full); m != want {
					t.Fatalf("game %d, seat %d, %s: DayMoveViewInto gives\n%+v\nViewFor cut to the day's moves is\n%+v", i, s, g.Phase(), m, want)
				}
				g.DayMoveViewInto(&dirty, s)
				for _, verb := range moves {
					if got, want := dirty.Targets(verb), full.Targets(verb); got != want {
						t.Fatalf("game %d, seat %d, %s: Targets(%s) = %v from the day's moves' view, %v from ViewFor", i, s, g.Phase(), verb, got.Seats(), want.Seats())
					}
					if got, want := dirty.Can(verb), full.Can(verb); got != want {
						t.Fatalf("game %d, seat %d, %s: Can(%s) = %v from the day's moves' view, %v from ViewFor", i, s, g.Phase(), verb, got, want)
					}
				}
				checked++
			}
		}
		tb := &bot.Table{Game: g, Bots: make([]bot.Bot, n+1)}
		for s := engine.Seat(1); s <= n; s++ {
			tb.Bots[s] = bot.NewRandom(rng.Derive(seed, uint64(s)))
		}
		tb.OnEvents = func(engine.Command, []engine.Event) { check() }
		tb.Begin(start)
		check()
		if !tb.Play(100000) {
			t.Fatalf("game %d did not end", i)
		}
	}
	if checked < games*100 {
		t.Fatalf("only %d views checked", checked)
	}
}
