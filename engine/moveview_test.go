package engine_test

import (
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// moveFields is ViewFor's view cut to the fields MoveViewInto sets (its
// doc's list, written out again here), every other field zero.
func moveFields(w *engine.View) engine.View {
	return engine.View{
		Seat: w.Seat, Players: w.Players, Rules: w.Rules, Phase: w.Phase, Round: w.Round,
		Speaker: w.Speaker, Alive: w.Alive, Candidates: w.Candidates, NumCandidates: w.NumCandidates,
		Nominated: w.Nominated, Role: w.Role, Teams: w.Teams, CheckTarget: w.CheckTarget,
		ShotTarget: w.ShotTarget, HealTarget: w.HealTarget, Skipped: w.Skipped, MafiaActed: w.MafiaActed,
		ShotsLeft: w.ShotsLeft, Healed: w.Healed, HealBanned: w.HealBanned, Voted: w.Voted,
	}
}

// The moves' view (MoveViewInto) is ViewFor's, cut to the fields a move's
// legality reads: after every command of seeded random games under random
// rules, for every seat (the spectator's and one past the table too), a
// zero View filled by MoveViewInto equals ViewFor's cut to those fields
// (so it holds nothing else: no secret of the seat's beyond them, none of
// another seat's), and a View last filled whole for another seat and then
// by MoveViewInto answers Targets and Can of every move as ViewFor does.
func TestMoveViewIsTheViewCutToTheMoves(t *testing.T) {
	moves := []engine.Verb{engine.Kill, engine.Check, engine.Shoot, engine.Heal, engine.Skip,
		engine.Nominate, engine.Vote, engine.AllVote, engine.Pass}
	games := 200
	if testing.Short() {
		games = 40
	}
	// The presets and custom tables up to the largest: the teams of seats
	// past 16 are filled apart from the others'.
	var setups []engine.Setup
	for n := engine.PresetMin; n <= engine.PresetMax; n++ {
		p, err := engine.Preset(n)
		if err != nil {
			t.Fatal(err)
		}
		setups = append(setups, p)
	}
	setups = append(setups,
		engine.Setup{Don: 1, Mafia: 4, Maniac: 1, Detective: 1, Doctor: 1, Citizens: 8},
		engine.Setup{Don: 1, Mafia: 5, Maniac: 1, Detective: 1, Doctor: 1, Citizens: 11},
		engine.Setup{Mafia: 6, Citizens: 14},
		engine.Setup{Don: 1, Mafia: 3, Detective: 1, Citizens: 12})
	for _, s := range setups[engine.PresetMax-engine.PresetMin+1:] {
		if _, err := s.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	checked := 0
	for i := 0; i < games; i++ {
		seed := rng.Derive(0x6d6f766573, uint64(i)) // "moves"
		src := rng.New(seed)
		rules := engine.RandomRules(&src)
		setup := setups[i%len(setups)]
		deal := setup.Deal(seed, nil)
		g, start, err := engine.New(rules, deal, seed)
		if err != nil {
			t.Fatal(err)
		}
		n := engine.Seat(len(deal))
		var dirty engine.View
		check := func() {
			for s := engine.Seat(0); s <= n+1; s++ {
				full := g.ViewFor(s)
				var m engine.View
				g.MoveViewInto(&m, s)
				if want := moveFields(&full); m != want {
					t.Fatalf("game %d, seat %d, %s: MoveViewInto gives\n%+v\nViewFor cut to the moves is\n%+v", i, s, g.Phase(), m, want)
				}
				g.ViewInto(&dirty, (s+3)%(n+1)+1)
				g.MoveViewInto(&dirty, s)
				for _, verb := range moves {
					if got, want := dirty.Targets(verb), full.Targets(verb); got != want {
						t.Fatalf("game %d, seat %d: Targets(%s) = %v from the moves' view, %v from ViewFor", i, s, verb, got.Seats(), want.Seats())
					}
					if got, want := dirty.Can(verb), full.Can(verb); got != want {
						t.Fatalf("game %d, seat %d: Can(%s) = %v from the moves' view, %v from ViewFor", i, s, verb, got, want)
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
