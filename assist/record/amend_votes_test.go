package record_test

import (
	"errors"
	"slices"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
)

// vote1 is day 1's first vote of a tie day: 2, 5 and 6 for 3, the rest
// (3, 4, 7) for 4: three each, a tie.
var vote1 = map[int][]int{3: {2, 5, 6}, 4: {3, 4, 7}}

// fixVote works out a vote correction on cmds: the day 1 vote of phase,
// candidate's hands made voters.
func fixVote(t *testing.T, s *record.Settings, cmds []record.Command, phase engine.Phase, candidate int, voters []int) (*record.Amended, error) {
	t.Helper()
	v, err := record.FindVote(s, cmds, 1, phase)
	if err != nil || v == nil {
		t.Fatalf("day 1's %v: %+v, %v", phase, v, err)
	}
	a, err := record.VoteFix(v, 1, candidate, voters)
	if err != nil {
		return nil, err
	}
	return record.Amend(s, cmds, a)
}

// TestARepeatVoteCorrectionReplacesTheRepeatVotesHandsNotTheFirstVotes:
// the repeat vote had 2 and 5 for 3 (4 left, 4 hands to 2); the referee
// says 2, 5, 6 and 7. The first vote's hands for 3 stay, the repeat
// vote's are replaced, 3 leaves instead of 4, and every later entry fits.
func TestARepeatVoteCorrectionReplacesTheRepeatVotesHandsNotTheFirstVotes(t *testing.T) {
	s := settings7()
	cmds := hosttest.TieDay(t, s, "r", 0, vote1, map[int][]int{3: {2, 5}, 4: {3, 4, 6, 7}}, nil)
	if got := outs(replayLog(t, s, cmds)); !slices.Equal(got, []engine.Seat{1, 4}) {
		t.Fatalf("before the correction out: %v, want 1 then 4 (the test proves nothing)", got)
	}
	a, err := fixVote(t, s, cmds, engine.PhaseRevote, 3, []int{2, 5, 6, 7})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Dropped) != 0 || !slices.Equal(a.Commands[:a.From], cmds[:a.From]) {
		t.Fatalf("dropped %v (%v); the entries before the repeat vote changed", a.Dropped, a.Refusal)
	}
	log := replayLog(t, s, a.Commands)
	if got := outs(log); !slices.Equal(got, []engine.Seat{1, 3}) {
		t.Fatalf("out: %v, want 1 then 3", got)
	}
	p := record.Build(s, log)
	votes := p.Rounds[0].Day.Votes
	if len(votes) != 2 || votes[0].Tally[0].Votes != 3 || votes[1].Tally[0].Candidate != 3 || votes[1].Tally[0].Votes != 4 {
		t.Fatalf("the protocol's votes %+v, want the first vote's 3 hands for 3 kept and 4 in the repeat", votes)
	}
}

// TestAnAllVoteCorrectionReplacesTheYesHands: after a second tie only 2
// and 3 said yes (nobody left); the referee says 2, 3, 5 and 6 did: both
// candidates leave.
func TestAnAllVoteCorrectionReplacesTheYesHands(t *testing.T) {
	s := settings7()
	cmds := hosttest.TieDay(t, s, "a", 0, vote1, vote1, []int{2, 3})
	if got := outs(replayLog(t, s, cmds)); !slices.Equal(got, []engine.Seat{1}) {
		t.Fatalf("before the correction out: %v, want only 1 (the test proves nothing)", got)
	}
	a, err := fixVote(t, s, cmds, engine.PhaseAllVote, 0, []int{2, 3, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	if got := outs(replayLog(t, s, a.Commands)); !slices.Equal(got, []engine.Seat{1, 3, 4}) {
		t.Fatalf("out: %v, want 1, 3 and 4 (dropped %v: %v)", got, a.Dropped, a.Refusal)
	}
}

// TestAVoterGivenToAnEarlierCandidateIsMovedFromTheLaterOne: seat 6's
// hand was entered for 4 (the last candidate); the referee says 6 voted
// for 3. The hand moves: 4's action keeps 7 and the close, nothing is
// dropped, and the tally reads 3 for 3. The same correction made by
// replacing 3's hands alone (the old rule) drops the close and all after.
func TestAVoterGivenToAnEarlierCandidateIsMovedFromTheLaterOne(t *testing.T) {
	s := settings7()
	cmds := hosttest.TieDay(t, s, "m", 0, map[int][]int{3: {2, 5}, 4: {6, 7}}, nil, nil)
	a, err := fixVote(t, s, cmds, engine.PhaseVote, 3, []int{2, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Dropped) != 0 {
		t.Fatalf("dropped %v: %v", a.Dropped, a.Refusal)
	}
	var for4 []int
	for _, c := range a.Commands {
		if c.Verb == "vote" && c.Target == 4 {
			for4 = append(for4, c.By)
		}
	}
	if !slices.Equal(for4, []int{7}) {
		t.Fatalf("the hands entered for 4: %v, want 7 alone", for4)
	}
	p := record.Build(s, replayLog(t, s, a.Commands))
	if tl := p.Rounds[0].Day.Votes[0].Tally; tl[0].Candidate != 3 || tl[0].Votes != 3 {
		t.Fatalf("the tally %+v, want 3 hands for 3", tl)
	}
	at, _, last, err := record.DayVote(s, cmds, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	old, err := record.Amend(s, cmds, record.Amendment{At: at, With: record.VoteCommands(3, []int{2, 5, 6}, last)})
	if err != nil || len(old.Dropped) == 0 {
		t.Fatalf("the old rule dropped nothing (%v): the test proves nothing", err)
	}
}

// TestVoteCorrectionsThatDoNotFitAreRefused: a hand given to 4 by a seat
// entered for 3 (earlier: a vote is final), a seat that was no candidate,
// and a repeat vote the day did not have.
func TestVoteCorrectionsThatDoNotFitAreRefused(t *testing.T) {
	s := settings7()
	cmds := hosttest.TieDay(t, s, "f", 0, map[int][]int{3: {2, 5}, 4: {6, 7}}, nil, nil)
	var fit *record.FitError
	if _, err := fixVote(t, s, cmds, engine.PhaseVote, 4, []int{2, 6}); !errors.As(err, &fit) {
		t.Fatalf("a hand of 3's voter for 4: %v, want a FitError", err)
	}
	v, _ := record.FindVote(s, cmds, 1, engine.PhaseVote)
	var e *engine.Error
	if _, err := record.VoteFix(v, 1, 5, []int{2}); !errors.As(err, &e) || e.Code != record.CodeNotACandidate {
		t.Fatalf("seat 5: %v, want %s", err, record.CodeNotACandidate)
	}
	if v, err := record.FindVote(s, cmds, 1, engine.PhaseRevote); v != nil || err != nil {
		t.Fatalf("a repeat vote the day did not have: %+v, %v", v, err)
	}
	if _, err := record.FindVote(s, cmds, 1, engine.PhaseNight); !errors.As(err, &e) {
		t.Fatalf("a night as a vote: %v", err)
	}
}

func replayLog(t *testing.T, s *record.Settings, cmds []record.Command) []engine.Event {
	t.Helper()
	_, log, err := record.Replay(s, cmds)
	if err != nil {
		t.Fatal(err)
	}
	return log
}
