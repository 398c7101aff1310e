package record_test

import (
	"errors"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
)

// settings7 is a seven-player game of hosttest.Roles7, dealt by hand.
func settings7() *record.Settings {
	return &record.Settings{Names: []string{"A", "B", "C", "D", "E", "F", "G"}, Roles: hosttest.Roles7, Seed: "0",
		Timings: record.DefaultTimings(), Deal: record.DealManual}
}

// TestDayVoteReplacesTheCandidatesHandsAndTheVoteCountsThem: day 1's
// vote had 2 hands for seat 3 (the rest, 4, went to seat 4, who left); the
// referee says 2, 5, 6 and 7 raised their hands for 3. The correction
// replaces 3's action; the closing action (the rest for 4) is re-applied,
// so 3 leaves, not 4; the last words that follow are kept, and the
// protocol counts 4 hands for 3.
func TestDayVoteReplacesTheCandidatesHandsAndTheVoteCountsThem(t *testing.T) {
	s := settings7()
	cmds := hosttest.VoteDayEntries(t, s, []int{2, 5}, "c")
	at, found, last, err := record.DayVote(s, cmds, 1, 3)
	if err != nil || !found || last || cmds[at].Verb != "vote" || cmds[at].Target != 3 || cmds[at].Part != 0 {
		t.Fatalf("3's hands are at %d (found %v, last %v, %v)", at, found, last, err)
	}
	a, err := record.Amend(s, cmds, record.Amendment{At: at, With: record.VoteCommands(3, []int{2, 5, 6, 7}, last)})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Replaced) != 2 || a.Kept == 0 {
		t.Fatalf("replaced %v, kept %d, dropped %v (%v)", a.Replaced, a.Kept, a.Dropped, a.Refusal)
	}
	_, log, err := record.Replay(s, a.Commands)
	if err != nil {
		t.Fatal(err)
	}
	if got := outs(log); len(got) < 2 || got[1] != 3 {
		t.Fatalf("out: %v, want 1 then 3", got)
	}
	_, before, _ := record.Replay(s, cmds)
	if got := outs(before); len(got) < 2 || got[1] != 4 {
		t.Fatalf("before the correction out: %v, want 1 then 4 (the test proves nothing)", got)
	}
	p := record.Build(s, log)
	if tl := p.Rounds[0].Day.Votes[0].Tally; len(tl) != 2 || tl[0].Candidate != 3 || tl[0].Votes != 4 {
		t.Fatalf("the protocol's tally %+v, want 4 hands for 3 first", tl)
	}
}

// TestDayVoteInsertsHandsWhereThereWereNone: no hand for 3 was entered
// (no action); the correction goes before 4's closing action.
func TestDayVoteInsertsHandsWhereThereWereNone(t *testing.T) {
	s := settings7()
	cmds := hosttest.VoteDayEntries(t, s, nil, "c")
	at, found, last, err := record.DayVote(s, cmds, 1, 3)
	if err != nil || found || last || cmds[at].Verb != "next" {
		t.Fatalf("3's place is %d (found %v, last %v, %v), want the closing next", at, found, last, err)
	}
	a, err := record.Amend(s, cmds, record.Amendment{At: at, Insert: true, With: record.VoteCommands(3, []int{2, 5, 6, 7}, last)})
	if err != nil {
		t.Fatal(err)
	}
	_, log, err := record.Replay(s, a.Commands)
	if err != nil {
		t.Fatal(err)
	}
	if got := outs(log); len(got) < 2 || got[1] != 3 {
		t.Fatalf("out: %v, want 1 then 3", got)
	}
}

// TestDayVoteRefusesAVoterWhoVotedForAnEarlierCandidate: 4 is the last
// candidate; 2 raised a hand for 3 before, so 2's hand for 4 does not fit
// (fix_does_not_fit, the engine's refusal inside); a seat that was no
// candidate is refused fix_not_candidate, and a day not reached gives -1.
func TestDayVoteRefusesAVoterWhoVotedForAnEarlierCandidate(t *testing.T) {
	s := settings7()
	cmds := hosttest.VoteDayEntries(t, s, []int{2, 5}, "c")
	at, found, last, err := record.DayVote(s, cmds, 1, 4)
	if err != nil || !found || !last {
		t.Fatalf("4's hands are at %d (found %v, last %v, %v)", at, found, last, err)
	}
	_, err = record.Amend(s, cmds, record.Amendment{At: at, With: record.VoteCommands(4, []int{2, 6}, last)})
	var fit *record.FitError
	if !errors.As(err, &fit) {
		t.Fatalf("a voter who voted for 3: %v, want a FitError", err)
	}
	var e *engine.Error
	if _, _, _, err := record.DayVote(s, cmds, 1, 6); !errors.As(err, &e) || e.Code != record.CodeNotACandidate {
		t.Fatalf("seat 6, no candidate: %v", err)
	}
	if at, _, _, err := record.DayVote(s, cmds, 2, 3); at != -1 || err != nil {
		t.Fatalf("day 2: %d %v", at, err)
	}
}

// TestLastFoulTakenBackByReplay: seat 3's two fouls of day 1; taking back
// the last removes that action only (the game of the new list has one
// foul for 3, the later entries are kept); a seat with no foul has none.
func TestLastFoulTakenBackByReplay(t *testing.T) {
	s := settings7()
	cmds := hosttest.VoteDayEntries(t, s, []int{2, 5}, "c")
	// Two fouls for 3 just before day 1's vote (after the last nomination).
	at, _, _, _ := record.DayVote(s, cmds, 1, 3)
	withFouls := append([]record.Command(nil), cmds[:at]...)
	withFouls = append(withFouls, record.Command{ID: "foul-1", Verb: "foul", Target: 3}, record.Command{ID: "foul-2", Verb: "foul", Target: 3})
	withFouls = append(withFouls, cmds[at:]...)
	for i := range withFouls {
		withFouls[i].Seq = i
	}
	g, _, err := record.Replay(s, withFouls)
	if err != nil || g.Fouls(3) != 2 {
		t.Fatalf("the game with two fouls: %v, %d fouls", err, g.Fouls(3))
	}
	last := record.LastFoul(withFouls, 3)
	if last != at+1 {
		t.Fatalf("3's last foul is at %d, want %d", last, at+1)
	}
	a, err := record.Amend(s, withFouls, record.Amendment{At: last})
	if err != nil || len(a.Dropped) != 0 || len(a.Commands) != len(withFouls)-1 || len(a.Replaced) != 1 || a.Replaced[0].Verb != "foul" {
		t.Fatalf("taken back: %v, %d of %d entries, replaced %v, dropped %v", err, len(a.Commands), len(withFouls), a.Replaced, a.Dropped)
	}
	if g, _, err := record.Replay(s, a.Commands); err != nil || g.Fouls(3) != 1 {
		t.Fatalf("after: %v, %d fouls for 3, want 1", err, g.Fouls(3))
	}
	if at := record.LastFoul(withFouls, 6); at != -1 {
		t.Fatalf("seat 6 has no foul, found %d", at)
	}
}
