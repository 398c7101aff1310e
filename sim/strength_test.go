package sim

import (
	"testing"

	"mafia/bot"
	"mafia/engine"
)

// The reasoning bot is measurably better than random, over 2,000 seeded
// 11-player games (the same seeds on every run: no flakiness).

const strengthGames = 2000

func strength(t *testing.T, mix string) Result {
	t.Helper()
	m, err := bot.ParseMix(mix)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(Config{Games: strengthGames, Players: 11, Seed: 2026, Rules: engine.DefaultRules(), Bots: m})
	if err != nil {
		t.Fatal(err)
	}
	if r.Unfinished != 0 {
		t.Fatalf("%s: %d games did not finish", mix, r.Unfinished)
	}
	return r
}

func TestStrength_SmartTownWinsAtLeastTwiceAsOftenAsRandomTown(t *testing.T) {
	statistical(t)
	random := strength(t, "random")
	smart := strength(t, "town=smart,mafia=random,maniac=random")
	rp, _, _ := random.Rate(random.Town)
	sp, _, _ := smart.Rate(smart.Town)
	t.Logf("town wins: random town %.1f%%, smart town %.1f%%", 100*rp, 100*sp)
	if sp < 2*rp || sp < 0.26 {
		t.Fatalf("smart town won %.1f%% of games against random mafia and maniac; random town wins %.1f%%: want at least twice that and at least 26%%", 100*sp, 100*rp)
	}
}

func TestStrength_SmartMafiaWinsNineInTenAgainstRandomTownAndManiac(t *testing.T) {
	statistical(t)
	r := strength(t, "town=random,mafia=smart,maniac=random")
	p, _, _ := r.Rate(r.Mafia)
	t.Logf("smart mafia wins %.1f%%", 100*p)
	if p < 0.90 {
		t.Fatalf("smart mafia won %.1f%% of games against random town and maniac, want at least 90%%", 100*p)
	}
}

func TestStrength_SmartTownVotesMorePreciselyThanRandomTown(t *testing.T) {
	statistical(t)
	run := func(mix string) Metrics {
		m, _ := bot.ParseMix(mix)
		r, err := Run(Config{Games: strengthGames, Players: 11, Seed: 2026, Rules: engine.DefaultRules(), Bots: m, Metrics: true})
		if err != nil {
			t.Fatal(err)
		}
		return r.Metrics
	}
	random, smart := run("random"), run("town=smart,mafia=random,maniac=random")
	rp, rok := random.Precision()
	sp, sok := smart.Precision()
	t.Logf("town vote precision: random %.3f, smart %.3f", rp, sp)
	if !rok || !sok || sp <= rp {
		t.Fatalf("smart town's vote precision %.3f (of %d votes), random town's %.3f (of %d): want it above random", sp, smart.TownVotes, rp, random.TownVotes)
	}
}

func TestMetrics_CountingChangesNoGame(t *testing.T) {
	mix, _ := bot.ParseMix("smart")
	cfg := Config{Games: 1000, Players: 11, Seed: 3, Rules: engine.DefaultRules(), Bots: mix}
	plain, _ := Run(cfg)
	cfg.Metrics = true
	counted, _ := Run(cfg)
	m := counted.Metrics
	counted.Metrics = Metrics{}
	if plain != counted {
		t.Fatalf("with metrics %+v, without %+v", counted, plain)
	}
	if m.TownVotes == 0 || m.Heals == 0 || m.Day2Games == 0 || m.DetGames != 1000 {
		t.Fatalf("metrics counted nothing: %+v", m)
	}
	if m.TownVotesOnBad > m.TownVotes || m.Saves > m.Heals || m.DetectiveDay2 > m.Day2Games || m.DetKilled > m.DetGames {
		t.Fatalf("a share above 1: %+v", m)
	}
}
