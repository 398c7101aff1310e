package sim

import (
	"testing"

	"mafia/bot"
	"mafia/engine"
)

func TestRun_SameSeedSameResultWhateverTheWorkers(t *testing.T) {
	base := Config{Games: 3000, Players: 11, Seed: 42, Rules: engine.DefaultRules()}
	var first Result
	for i, w := range []int{1, 2, 3, 8} {
		cfg := base
		cfg.Workers = w
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = r
			continue
		}
		if r != first {
			t.Fatalf("workers=%d gave %+v, workers=1 gave %+v", w, r, first)
		}
	}
	other := base
	other.Seed = 43
	r, _ := Run(other)
	if r == first {
		t.Fatalf("a different seed gave the very same tally %+v", r)
	}
}

func TestRun_EveryGameEndsAndIsCountedOnce(t *testing.T) {
	for players := engine.PresetMin; players <= engine.PresetMax; players++ {
		r, err := Run(Config{Games: 500, Players: players, Seed: uint64(players), Rules: engine.DefaultRules()})
		if err != nil {
			t.Fatal(err)
		}
		if r.Unfinished != 0 {
			t.Errorf("%d players: %d games did not finish", players, r.Unfinished)
		}
		if sum := r.Town + r.Mafia + r.Maniac + r.Draw; sum != r.Games {
			t.Errorf("%d players: results add up to %d of %d games", players, sum, r.Games)
		}
		if players < 11 && r.Maniac != 0 {
			t.Errorf("%d players: the maniac won %d games at a table without one", players, r.Maniac)
		}
		if r.AvgRounds() < 1 {
			t.Errorf("%d players: average rounds %.2f", players, r.AvgRounds())
		}
	}
}

func TestRun_OptionsChangeTheGames(t *testing.T) {
	def, _ := Run(Config{Games: 2000, Players: 11, Seed: 5, Rules: engine.DefaultRules()})
	rules := engine.DefaultRules()
	if err := rules.Set("first_night", "meeting"); err != nil {
		t.Fatal(err)
	}
	meet, _ := Run(Config{Games: 2000, Players: 11, Seed: 5, Rules: rules})
	if meet.AvgRounds() <= def.AvgRounds() {
		t.Fatalf("a night with no kill should make games longer: meeting %.2f rounds, full %.2f", meet.AvgRounds(), def.AvgRounds())
	}
}

func TestRun_RefusesABadSetup(t *testing.T) {
	if _, err := Run(Config{Games: 1, Players: 4}); err == nil {
		t.Fatal("4 players has no preset, but Run accepted it")
	}
	bad := engine.Setup{Don: 1, Mafia: 2, Citizens: 2}
	if _, err := Run(Config{Games: 1, Setup: &bad, Rules: engine.DefaultRules()}); err == nil {
		t.Fatal("a mafia majority setup was accepted")
	}
}

func TestRate_WilsonInterval(t *testing.T) {
	r := Result{Games: 100}
	p, lo, hi := r.Rate(50)
	if p != 0.5 || lo > 0.41 || lo < 0.39 || hi < 0.59 || hi > 0.61 {
		t.Fatalf("50/100: p=%v [%v, %v], want 0.5 [~0.40, ~0.60]", p, lo, hi)
	}
	if _, lo, _ := r.Rate(0); lo != 0 {
		t.Fatalf("0/100: lower bound %v, want 0", lo)
	}
	if _, _, hi := r.Rate(100); hi != 1 {
		t.Fatalf("100/100: upper bound %v, want 1", hi)
	}
}

func TestPlay_AllocatesNothingPerGame(t *testing.T) {
	setup, _ := engine.Preset(11)
	p := newPlayer(setup, engine.DefaultRules(), bot.Mix{})
	var r Result
	p.play(1, DefaultMaxSteps, &r) // warm the buffers
	i := uint64(2)
	allocs := testing.AllocsPerRun(200, func() {
		p.play(i, DefaultMaxSteps, &r)
		i++
	})
	if allocs > 50 {
		t.Fatalf("%.1f allocations per game, the budget is 50", allocs)
	}
}

func TestPlay_SmartBotsAllocateNothingPerGame(t *testing.T) {
	setup, _ := engine.Preset(11)
	p := newPlayer(setup, engine.DefaultRules(), bot.MixOf(bot.LevelSmart))
	var r Result
	p.play(1, DefaultMaxSteps, &r) // warm the buffers
	i := uint64(2)
	allocs := testing.AllocsPerRun(200, func() {
		p.play(i, DefaultMaxSteps, &r)
		i++
	})
	if allocs > 0 {
		t.Fatalf("%.1f allocations per game with smart bots, want none", allocs)
	}
}

func TestRun_SmartMixSameSeedSameResultWhateverTheWorkers(t *testing.T) {
	mix, _ := bot.ParseMix("town=smart,mafia=random,maniac=smart")
	base := Config{Games: 2000, Players: 9, Seed: 7, Rules: engine.DefaultRules(), Bots: mix}
	a, _ := Run(base)
	base.Workers = 3
	b, _ := Run(base)
	if a != b {
		t.Fatalf("a smart mix gave %+v on the default workers, %+v on 3", a, b)
	}
	base.Bots = bot.Mix{}
	if c, _ := Run(base); c == a {
		t.Fatalf("smart and random bots gave the very same tally %+v", c)
	}
}
