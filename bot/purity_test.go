package bot_test

import (
	"testing"

	"mafia/internal/puritytest"
)

// TestPurity_BotsAreAsPureAsTheEngine: the bots decide on values alone
// (doc.go): no clock, no I/O, no goroutines, no global random source (a
// bot's randomness is its seeded rng.Source), in the bot package and every
// project package it imports. It is also why CI runs the bots' tests
// without the race detector: a package that starts no goroutine has no
// race to find.
func TestPurity_BotsAreAsPureAsTheEngine(t *testing.T) {
	problems, err := puritytest.Check("..", "mafia/bot", "mafia/engine")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
