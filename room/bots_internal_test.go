package room

import (
	"testing"

	"mafia/bot"
	"mafia/engine"
	"mafia/rng"
)

// TestBotsDoNotDrawFromTheDealsSeed pins that the server's bots are not
// seeded from the deal's seed: everyone sees a bot's moves, and moves drawn
// from the deal's seed would let an observer recover it, and the deal.
func TestBotsDoNotDrawFromTheDealsSeed(t *testing.T) {
	r := &Room{tableState: tableState{seats: make([]seatState, 8)}}
	r.table.Seed = 0x5eed
	setup, err := engine.Preset(7)
	if err != nil {
		t.Fatal(err)
	}
	if r.game, r.log, err = engine.New(engine.DefaultRules(), setup.Deal(r.table.Seed, nil), r.table.Seed); err != nil {
		t.Fatal(err)
	}
	for s := 1; s < len(r.seats); s++ {
		r.seats[s].bot = true
	}
	r.initBots()
	src := func(s int) *rng.Source { return &r.bots[s].(*bot.Random).Src }
	first := make([]uint64, len(r.seats))
	for s := 1; s < len(r.seats); s++ {
		fromDeal := bot.NewRandom(rng.Derive(r.table.Seed, uint64(s)))
		if *src(s) == fromDeal.Src {
			t.Errorf("bot %d draws from the deal's seed", s)
		}
		first[s] = src(s).Uint64()
	}
	r.initBots() // a restart: a fresh seed again
	for s := 1; s < len(r.seats); s++ {
		if src(s).Uint64() == first[s] {
			t.Errorf("bot %d drew the same numbers after a restart: its seed is fixed", s)
		}
	}
}

// TestBotsWaitsDoNotDrawFromTheDealsSeed pins that the bots' waits at human
// pace (pace.go) come from the bots' own seed, never the deal's: everyone
// sees when a bot moves, and waits drawn from the deal's seed would give
// it away as moves would. A restart draws them from a fresh seed.
func TestBotsWaitsDoNotDrawFromTheDealsSeed(t *testing.T) {
	r := &Room{tableState: tableState{seats: make([]seatState, 8)}}
	r.table.Seed = 0x5eed
	setup, err := engine.Preset(7)
	if err != nil {
		t.Fatal(err)
	}
	if r.game, r.log, err = engine.New(engine.DefaultRules(), setup.Deal(r.table.Seed, nil), r.table.Seed); err != nil {
		t.Fatal(err)
	}
	r.initBots()
	for _, i := range []uint64{0, 1, 7, paceStream} {
		fromDeal := rng.New(rng.Derive(r.table.Seed, i))
		if r.paceSrc == fromDeal {
			t.Errorf("the bots' waits draw from the deal's seed (stream %d)", i)
		}
	}
	first := r.paceSrc.Uint64()
	r.initBots()
	if r.paceSrc.Uint64() == first {
		t.Error("the bots' waits are the same after a restart: their seed is fixed")
	}
}
