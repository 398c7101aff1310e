package sim

import (
	"testing"

	"mafia/bot"
	"mafia/engine"
)

// The expert level is stronger than smart on each side: seeded 11-player
// games, the same seeds for every mix.

const expertStrengthGames = 1000

func expertRun(t *testing.T, mix string) Result {
	t.Helper()
	m, err := bot.ParseMix(mix)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(Config{Games: expertStrengthGames, Players: 11, Seed: 32, Rules: engine.DefaultRules(), Bots: m})
	if err != nil {
		t.Fatal(err)
	}
	if r.Unfinished != 0 {
		t.Fatalf("%s: %d games did not finish", mix, r.Unfinished)
	}
	return r
}

func TestStrength_ExpertTownBeatsSmartMafiaMoreOftenThanSmartTownDoes(t *testing.T) {
	statistical(t)
	smart := expertRun(t, "smart")
	expert := expertRun(t, "town=expert,mafia=smart,maniac=smart")
	sp, _, shi := smart.Rate(smart.Town)
	ep, elo, _ := expert.Rate(expert.Town)
	t.Logf("town wins against smart mafia and maniac: smart town %.1f%%, expert town %.1f%%", 100*sp, 100*ep)
	if elo <= shi-0.01 || ep < sp+0.03 {
		t.Fatalf("expert town won %.1f%% [from %.1f%%], smart town %.1f%% [to %.1f%%]: want clearly more", 100*ep, 100*elo, 100*sp, 100*shi)
	}
}

func TestStrength_ExpertMafiaBeatsSmartTownMoreOftenThanSmartMafiaDoes(t *testing.T) {
	statistical(t)
	smart := expertRun(t, "smart")
	expert := expertRun(t, "town=smart,mafia=expert,maniac=smart")
	sp, _, shi := smart.Rate(smart.Mafia)
	ep, elo, _ := expert.Rate(expert.Mafia)
	t.Logf("mafia wins against smart town: smart mafia %.1f%%, expert mafia %.1f%%", 100*sp, 100*ep)
	if elo <= shi || ep < sp+0.05 {
		t.Fatalf("expert mafia won %.1f%% [from %.1f%%], smart mafia %.1f%% [to %.1f%%]: want clearly more", 100*ep, 100*elo, 100*sp, 100*shi)
	}
}
