package room

import (
	"testing"

	"mafia/bot"
	"mafia/rng"
)

// TestBotsDoNotDrawFromTheDealsSeed pins that the server's bots are not
// seeded from the deal's seed: everyone sees a bot's moves, and moves drawn
// from the deal's seed would let an observer recover it, and the deal.
func TestBotsDoNotDrawFromTheDealsSeed(t *testing.T) {
	r := &Room{seats: make([]seatState, 8)}
	r.table.Seed = 0x5eed
	for s := 1; s < len(r.seats); s++ {
		r.seats[s].bot = true
	}
	r.initBots()
	first := make([]uint64, len(r.seats))
	for s := 1; s < len(r.seats); s++ {
		fromDeal := bot.NewRandom(rng.Derive(r.table.Seed, uint64(s)))
		if r.bots[s].Src == fromDeal.Src {
			t.Errorf("bot %d draws from the deal's seed", s)
		}
		first[s] = r.bots[s].Src.Uint64()
	}
	r.initBots() // a restart: a fresh seed again
	for s := 1; s < len(r.seats); s++ {
		if r.bots[s].Src.Uint64() == first[s] {
			t.Errorf("bot %d drew the same numbers after a restart: its seed is fixed", s)
		}
	}
}
