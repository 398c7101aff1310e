package record

import (
	"slices"

	"mafia/engine"
)

// A vote's correction by the whole vote: a co-host's hands for one
// candidate of a day's vote, repeat vote (the tie's) or "shall all of them
// leave?" rebuild that vote's actions as the host's phone enters them (one
// action per candidate; the last candidate's hands with the next that
// closes the vote), with the corrected hands in place and a hand the
// referee gives to an earlier candidate moved from the later one it was
// entered for. Other entries inside the vote (a foul) stay where they were.

// Which votes of a day a correction may name (the phases of the engine).
var votePhases = []engine.Phase{engine.PhaseVote, engine.PhaseRevote, engine.PhaseAllVote}

// VoteSection is one day's vote (or repeat vote, or all-vote) as entered:
// the place of its first action, its candidates, and its actions in force
// in order (each action's entries).
type VoteSection struct {
	Phase      engine.Phase
	At         int
	Candidates []int
	Actions    [][]Command
}

// Hands returns the hands entered in the section by candidate (in a
// vote or repeat vote; in an all-vote, under 0: the seats that said yes).
func (v *VoteSection) Hands() map[int][]int {
	out := map[int][]int{}
	for _, act := range v.Actions {
		for _, c := range act {
			switch {
			case c.Verb == engine.Vote.String():
				out[c.Target] = append(out[c.Target], c.By)
			case c.Verb == engine.AllVote.String() && c.Yes:
				out[0] = append(out[0], c.By)
			}
		}
	}
	return out
}

// FindVote replays the entries in force to day round's vote of phase
// (engine.PhaseVote, PhaseRevote or PhaseAllVote) and returns it, or nil
// when the game has not finished that vote (or the day had none).
func FindVote(s *Settings, cmds []Command, round int, phase engine.Phase) (*VoteSection, error) {
	if !slices.Contains(votePhases, phase) {
		return nil, &engine.Error{Code: engine.CodeWrongPhase, Phase: phase}
	}
	g, log, err := Start(s)
	if err != nil {
		return nil, err
	}
	r := &replayed{g: g, log: log}
	force := inForce(cmds)
	var v *VoteSection
	for k := 0; k < len(force); {
		tail := make([]Command, 0, 4)
		for _, i := range force[k:] {
			tail = append(tail, cmds[i])
			if len(tail) > 1 && actionLen(tail) < len(tail) {
				tail = tail[:len(tail)-1]
				break
			}
		}
		at := force[k]
		k += len(tail)
		in := r.g.Phase() == phase && r.g.Round() == round
		if in && v == nil {
			v = &VoteSection{Phase: phase, At: at}
			for _, c := range r.g.Candidates() {
				v.Candidates = append(v.Candidates, int(c))
			}
		}
		if in {
			v.Actions = append(v.Actions, tail)
		}
		for _, c := range tail {
			if err := r.apply(c); err != nil {
				return nil, err
			}
		}
		if in && (r.g.Phase() != phase || r.g.Round() != round) {
			return v, nil
		}
	}
	return nil, nil
}

// VoteFix builds the amendment that makes voters the hands raised for
// candidate in the vote v (an all-vote: the seats that said yes; candidate
// is then not read). A voter the entries gave to a later candidate of the same
// vote is moved (taken from that candidate's hands); one given to an
// earlier candidate stays there, and the replay refuses the correction
// (a vote is final). A seat that is not one of the vote's candidates is
// refused CodeNotACandidate (N: the day).
func VoteFix(v *VoteSection, round, candidate int, voters []int) (Amendment, error) {
	var out [][]Command
	if v.Phase == engine.PhaseAllVote {
		for _, act := range v.Actions {
			switch {
			case !onlyVerbs(act, engine.AllVote, engine.Next):
				out = append(out, act)
			case slices.ContainsFunc(act, isNext):
				var yes []Command
				for _, s := range voters {
					yes = append(yes, Command{Verb: engine.AllVote.String(), By: s, Yes: true})
				}
				out = append(out, append(yes, Command{Verb: engine.Next.String()}))
			}
		}
		return Amendment{At: v.At, Span: len(v.Actions), With: Actions(out...)}, nil
	}
	idx := slices.Index(v.Candidates, candidate)
	if idx < 0 {
		return Amendment{}, &engine.Error{Code: CodeNotACandidate, N: round}
	}
	hands := v.Hands()
	for _, s := range voters {
		for d, hs := range hands {
			if d != candidate && slices.Index(v.Candidates, d) > idx {
				hands[d] = slices.DeleteFunc(hs, func(x int) bool { return x == s })
			}
		}
	}
	hands[candidate] = append([]int(nil), voters...)
	emitted := map[int]bool{}
	last := len(v.Candidates) - 1
	emitTo := func(j int) {
		for _, d := range v.Candidates[:j+1] {
			if !emitted[d] {
				emitted[d] = true
				if len(hands[d]) > 0 {
					out = append(out, VoteCommands(d, hands[d], false))
				}
			}
		}
	}
	for _, act := range v.Actions {
		if !onlyVerbs(act, engine.Vote, engine.Next) {
			out = append(out, act)
			continue
		}
		for _, c := range act {
			if c.Verb == engine.Vote.String() {
				if j := slices.Index(v.Candidates, c.Target); j >= 0 {
					emitTo(j)
				}
				continue
			}
			emitTo(last - 1)
			if d := v.Candidates[last]; !emitted[d] {
				emitted[d] = true
				out = append(out, VoteCommands(d, hands[d], true))
			} else {
				out = append(out, []Command{{Verb: engine.Next.String()}})
			}
		}
	}
	return Amendment{At: v.At, Span: len(v.Actions), With: Actions(out...)}, nil
}

// onlyVerbs says every entry of act is one of verbs.
func onlyVerbs(act []Command, verbs ...engine.Verb) bool {
	for _, c := range act {
		if !slices.ContainsFunc(verbs, func(v engine.Verb) bool { return v.String() == c.Verb }) {
			return false
		}
	}
	return true
}

func isNext(c Command) bool { return c.Verb == engine.Next.String() }
