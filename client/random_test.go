package client_test

import (
	"testing"

	"mafia/client"
	"mafia/engine"
	"mafia/rng"
	"mafia/wire"
)

// firstVictimsView plays a real game of ten to the first night's victim's
// last words (the mafia and the maniac shoot seat victim, nobody else acts)
// and returns the victim's view in its JSON shape, and that game.
func firstVictimsView(t *testing.T, victim engine.Seat) (wire.View, *engine.Game) {
	t.Helper()
	setup, err := engine.Preset(10)
	if err != nil {
		t.Fatal(err)
	}
	deal := setup.Deal(7, nil)
	if deal[victim-1] != engine.Citizen {
		t.Fatalf("seat %d is dealt %s: choose a citizen", victim, deal[victim-1])
	}
	g, _, err := engine.New(engine.DefaultRules(), deal, 7)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50 && g.Phase() != engine.PhaseLastWords; i++ {
		for _, s := range g.Pending().Seats() {
			v := g.ViewFor(s)
			for _, verb := range []engine.Verb{engine.Kill, engine.Shoot} {
				if v.Targets(verb).Has(victim) {
					if _, err := g.Handle(engine.Command{Verb: verb, By: s, Target: victim}); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if _, err := g.Handle(engine.Command{Verb: engine.Next}); err != nil {
			t.Fatal(err)
		}
	}
	v := g.ViewFor(victim)
	if g.Phase() != engine.PhaseLastWords || g.Speaker() != victim || !v.Can(engine.BestMove) {
		t.Fatalf("seat %d is not offered its best move: phase %s, speaker %d", victim, g.Phase(), g.Speaker())
	}
	return wire.FromView(&v), g
}

// TestRandomStatement_TheFirstVictimSometimesMakesItsBestMove: on the first
// night's victim's last words (a real game's view) the random players make
// the best move now and then among their statements, always three living
// seats other than their own, which the engine accepts; where legal does
// not offer it they never make one.
func TestRandomStatement_TheFirstVictimSometimesMakesItsBestMove(t *testing.T) {
	const victim = 2
	w, g := firstVictimsView(t, victim)
	src := rng.New(1)
	made := 0
	for i := 0; i < 200; i++ {
		m, ok := client.RandomStatement(&w, &src)
		if !ok {
			t.Fatal("no statement offered on the victim's last words")
		}
		if m.Verb != "best_move" {
			continue
		}
		made++
		c, ok := m.Command(victim)
		if !ok {
			t.Fatalf("best move %v: not a command", m.Guess)
		}
		if err := g.Check(c); err != nil {
			t.Fatalf("the engine refuses the random best move %v: %v", m.Guess, err)
		}
	}
	if made < 10 {
		t.Fatalf("%d best moves in 200 random statements on the victim's last words", made)
	}
	t.Logf("%d best moves in 200 random statements", made)
	w.Legal.BestMove = false
	for i := 0; i < 200; i++ {
		if m, ok := client.RandomStatement(&w, &src); ok && m.Verb == "best_move" {
			t.Fatalf("a best move where legal does not offer it: %+v", m)
		}
	}
}
