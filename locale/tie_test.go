package locale

import (
	"strings"
	"testing"

	"mafia/engine"
)

// secondTieLog plays a 7-seat game into a tie, a tie again in the repeat
// vote and "shall all of them leave?" (the deal and moves of the conformance
// example 04-tie-revote-all-leave), and returns every event.
func secondTieLog(t *testing.T) []engine.Event {
	t.Helper()
	roles := []engine.Role{engine.Citizen, engine.Don, engine.Citizen, engine.Mafioso, engine.Detective, engine.Doctor, engine.Citizen}
	g, start, err := engine.New(engine.DefaultRules(), roles, 0)
	if err != nil {
		t.Fatal(err)
	}
	log := append([]engine.Event(nil), start...)
	do := func(c engine.Command) {
		t.Helper()
		evs, err := g.Handle(c)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		log = append(log, evs...)
	}
	next := func(n int) {
		for range n {
			do(engine.Command{Verb: engine.Next})
		}
	}
	vote := func(votes map[engine.Seat]engine.Seat) {
		for by := engine.Seat(1); by <= 7; by++ {
			if c, ok := votes[by]; ok {
				do(engine.Command{Verb: engine.Vote, By: by, Target: c})
			}
		}
		next(1)
	}
	do(engine.Command{Verb: engine.Kill, By: 2, Target: 7})
	next(2) // the night, 7's last words
	do(engine.Command{Verb: engine.Nominate, By: 1, Target: 4})
	next(1)
	do(engine.Command{Verb: engine.Nominate, By: 2, Target: 1})
	next(5 + 2) // the other speeches, both defences
	vote(map[engine.Seat]engine.Seat{1: 4, 3: 4, 5: 4, 2: 1, 4: 1})
	next(2) // both tie speeches
	vote(map[engine.Seat]engine.Seat{1: 4, 3: 4, 5: 4, 2: 1, 4: 1, 6: 1})
	if g.Phase() != engine.PhaseAllVote {
		t.Fatalf("the game is at %s, not at \"shall all of them leave?\"", g.Phase())
	}
	return log
}

// TestTieAgainIsNotToldAsTheFirstTie pins the narration of a second tie in
// every language, for a player and for a spectator: the tie of the vote says
// the tied speak once more and the town votes again; the tie of the repeat
// vote says the repeat vote is tied too, and "shall all of them leave?"
// comes next, never the first tie's "they speak once more".
func TestTieAgainIsNotToldAsTheFirstTie(t *testing.T) {
	log := secondTieLog(t)
	g, err := engine.Replay(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Langs() {
		p := New(l)
		seats := map[string]any{"Seats": p.Seats([]engine.Seat{4, 1})}
		first, again := p.T("event.tie", seats), p.T("event.tie_again", seats)
		allVote := p.T("event.all_vote_began", nil)
		if first == again {
			t.Fatalf("%s: the two ties read alike: %q", l, first)
		}
		for _, viewer := range []engine.Seat{0, 3} {
			var lines []string
			for _, e := range log {
				if ev, ok := g.EventFor(e, viewer); ok {
					lines = append(lines, strings.Split(p.Event(ev, viewer), "\n")...)
				}
			}
			var ties []string
			for i, line := range lines {
				if line == first || line == again {
					ties = append(ties, line)
				}
				if line == again && (i+1 == len(lines) || lines[i+1] != allVote) {
					t.Errorf("%s, seat %d: %q is not followed by %q", l, viewer, again, allVote)
				}
			}
			if len(ties) != 2 || ties[0] != first || ties[1] != again {
				t.Errorf("%s, seat %d: the ties read %q, want %q then %q", l, viewer, ties, first, again)
			}
		}
	}
}
