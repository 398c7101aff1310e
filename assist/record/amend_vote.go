package record

import (
	"slices"

	"mafia/engine"
)

// CodeNotACandidate refuses a vote correction for a seat that was not a
// candidate of that day's vote (N: the day).
const CodeNotACandidate engine.Code = "fix_not_candidate"

// DayVote finds the action that entered the hands raised for candidate in
// day round's vote (the first vote of the day, not a repeat vote), as the
// host's phone enters them: one action per candidate, the last
// candidate's hands with the entry that closes the vote. It returns the
// action's place, or, when the candidate's hands were none (no action),
// the place of the next candidate's action, where one goes (found false);
// last says the candidate is the vote's last (their correction closes the
// vote, with a next). at is -1 when the game has not reached that vote's
// end; a seat that is not one of its candidates is refused
// CodeNotACandidate.
func DayVote(s *Settings, cmds []Command, round, candidate int) (at int, found, last bool, err error) {
	g, log, err := Start(s)
	if err != nil {
		return -1, false, false, err
	}
	r := &replayed{g: g, log: log}
	for _, i := range inForce(cmds) {
		c := cmds[i]
		if c.Part == 0 && r.g.Phase() == engine.PhaseVote && r.g.Round() == round {
			cands := r.g.Candidates()
			idx := slices.Index(cands, engine.Seat(candidate))
			if idx < 0 {
				return -1, false, false, &engine.Error{Code: CodeNotACandidate, N: round}
			}
			last = idx == len(cands)-1
			switch {
			case c.Verb == engine.Vote.String() && c.Target == candidate:
				return i, true, last, nil
			case c.Verb == engine.Next.String() && last:
				return i, true, last, nil // the last candidate's hands were none
			case c.Verb == engine.Next.String(),
				c.Verb == engine.Vote.String() && slices.Index(cands, engine.Seat(c.Target)) > idx:
				return i, false, last, nil // no hands for candidate: before the next one's
			}
		}
		if err := r.apply(c); err != nil {
			return -1, false, false, err
		}
	}
	return -1, false, false, nil
}

// VoteCommands are the entries of the hands raised for candidate by
// voters, as the host's phone enters them (with the next that closes the
// vote when the candidate is the last).
func VoteCommands(candidate int, voters []int, last bool) []Command {
	out := []Command{}
	for _, v := range voters {
		out = append(out, Command{Verb: engine.Vote.String(), By: v, Target: candidate})
	}
	if last {
		out = append(out, Command{Verb: engine.Next.String()})
	}
	return out
}

// LastFoul finds the action that entered seat's last foul still in force
// (its place), or -1 when seat has none: a co-host's "take back a foul"
// removes it (an Amendment at that place with nothing in its stead).
func LastFoul(cmds []Command, seat int) int {
	at := -1
	for _, i := range inForce(cmds) {
		if c := cmds[i]; c.Part == 0 && c.Verb == engine.Foul.String() && c.Target == seat {
			at = i
		}
	}
	return at
}
