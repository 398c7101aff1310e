package hosttest

import (
	"fmt"
	"slices"
	"testing"

	"mafia/assist/record"
	"mafia/engine"
)

// VoteDayEntries are the entries of a Roles7 game (s) as the host's phone
// enters them, played to night 2: the Don (2) shoots seat 1 on night 1, day
// 1's speakers nominate 3, then 4; in the vote the hands for 3 are first
// (one action; none: no action), the rest go to 4 (their hands with the
// next that closes the vote, one action), and the game goes on with next
// until night 2. Each id is prefixed with tag.
func VoteDayEntries(t *testing.T, s *record.Settings, first []int, tag string) []record.Command {
	t.Helper()
	g, _, err := record.Start(s)
	if err != nil {
		t.Fatal(err)
	}
	var out []record.Command
	do := func(cmds ...engine.Command) {
		for i, c := range cmds {
			if _, err := g.Handle(c); err != nil {
				t.Fatalf("%+v: %v", c, err)
			}
			rc := record.FromEngine(c)
			rc.Seq, rc.Part, rc.ID = len(out), i, fmt.Sprintf("%s-%d", tag, len(out))
			out = append(out, rc)
		}
	}
	killed, voted := false, false
	for step := 0; step < 300; step++ {
		st := record.Snapshot(g)
		switch {
		case st.Phase == "night" && st.Round == 2:
			return out
		case st.Phase == "night" && !killed:
			killed = true
			do(engine.Command{Verb: engine.Kill, By: 2, Target: 1})
		case st.Phase == "speech" && !st.Nominated && slices.Contains(st.Nominate, 3):
			do(engine.Command{Verb: engine.Nominate, By: engine.Seat(st.Speaker), Target: 3})
		case st.Phase == "speech" && !st.Nominated && slices.Contains(st.Nominate, 4):
			do(engine.Command{Verb: engine.Nominate, By: engine.Seat(st.Speaker), Target: 4})
		case st.Phase == "vote" && !voted:
			voted = true
			var hands []engine.Command
			for _, v := range first {
				hands = append(hands, engine.Command{Verb: engine.Vote, By: engine.Seat(v), Target: 3})
			}
			if len(hands) > 0 {
				do(hands...)
			}
			do(engine.Command{Verb: engine.Next})
		default:
			do(engine.Command{Verb: engine.Next})
		}
	}
	t.Fatal("the game did not reach night 2")
	return nil
}
