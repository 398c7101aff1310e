package hosttest

import (
	"fmt"
	"testing"

	"mafia/assist/record"
	"mafia/engine"
)

// Enter plays a game of s as the host's phone enters it: at each step
// decide says the actions to enter (each one action: its entries share
// it); none enters a next. It stops when decide says stop, and fails the
// test after 300 steps. Each id is prefixed with tag.
func Enter(t *testing.T, s *record.Settings, tag string, decide func(st record.State) (actions [][]engine.Command, stop bool)) []record.Command {
	t.Helper()
	g, _, err := record.Start(s)
	if err != nil {
		t.Fatal(err)
	}
	var out []record.Command
	for step := 0; step < 300; step++ {
		actions, stop := decide(record.Snapshot(g))
		if stop {
			return out
		}
		if len(actions) == 0 {
			actions = [][]engine.Command{{{Verb: engine.Next}}}
		}
		for _, act := range actions {
			for i, c := range act {
				if _, err := g.Handle(c); err != nil {
					t.Fatalf("%+v: %v", c, err)
				}
				rc := record.FromEngine(c)
				rc.Seq, rc.Part, rc.ID = len(out), i, fmt.Sprintf("%s-%d", tag, len(out))
				out = append(out, rc)
			}
		}
	}
	t.Fatal("the game did not stop in 300 steps")
	return nil
}

// Hands are the entries of voters' hands for candidate (a vote), or, with
// candidate 0, their yes in "shall all of them leave?".
func Hands(candidate int, voters ...int) []engine.Command {
	var out []engine.Command
	for _, v := range voters {
		if candidate == 0 {
			out = append(out, engine.Command{Verb: engine.AllVote, By: engine.Seat(v), Yes: true})
			continue
		}
		out = append(out, engine.Command{Verb: engine.Vote, By: engine.Seat(v), Target: engine.Seat(candidate)})
	}
	return out
}

// TieDay plays a Roles7 game (s) to night 2 as the host's phone enters
// it: on night 1 the Don (2) shoots seat 1, the Detective (5) checks 2 and
// the Doctor (6) saves heal (0: no save entered); day 1's speakers
// nominate 3, then 4; the vote's hands are first[3] for 3, then first[4]
// for 4 with the next that closes it; after the tie speeches the repeat
// vote's are re[3] and re[4]; at a second tie, yes are the seats that say
// all of them shall leave.
func TieDay(t *testing.T, s *record.Settings, tag string, heal int, first, re map[int][]int, yes []int) []record.Command {
	t.Helper()
	night := false
	return Enter(t, s, tag, func(st record.State) ([][]engine.Command, bool) {
		switch {
		case st.Phase == "night" && st.Round == 2:
			return nil, true
		case st.Phase == "night" && !night:
			night = true
			acts := [][]engine.Command{{{Verb: engine.Kill, By: 2, Target: 1}}, {{Verb: engine.Check, By: 5, Target: 2}}}
			if heal > 0 {
				acts = append(acts, []engine.Command{{Verb: engine.Heal, By: 6, Target: engine.Seat(heal)}})
			}
			return append(acts, []engine.Command{{Verb: engine.Next}}), false
		case st.Phase == "speech" && !st.Nominated && contains(st.Nominate, 3):
			return [][]engine.Command{{{Verb: engine.Nominate, By: engine.Seat(st.Speaker), Target: 3}}}, false
		case st.Phase == "speech" && !st.Nominated && contains(st.Nominate, 4):
			return [][]engine.Command{{{Verb: engine.Nominate, By: engine.Seat(st.Speaker), Target: 4}}}, false
		case st.Phase == "vote" || st.Phase == "revote":
			hands := first
			if st.Phase == "revote" {
				hands = re
			}
			var acts [][]engine.Command
			if h := Hands(3, hands[3]...); len(h) > 0 {
				acts = append(acts, h)
			}
			return append(acts, append(Hands(4, hands[4]...), engine.Command{Verb: engine.Next})), false
		case st.Phase == "all_vote":
			return [][]engine.Command{append(Hands(0, yes...), engine.Command{Verb: engine.Next})}, false
		}
		return nil, false
	})
}

func contains(list []int, x int) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}
