package engine_test

import (
	"slices"
	"testing"

	"mafia/engine"
)

// Tests of docs/rules.md "Day": speeches, nominations, the vote, ties, the
// all-vote and last words.

// deal8: 1 don, 2 mafioso, 3 detective, 4 doctor, 5..8 citizens.
const deal8 = "don mafia detective doctor citizen citizen citizen citizen"

// meetingDay1 starts an 8-player game with a meeting night and goes to the
// first speech of day 1 (everyone alive).
func meetingDay1(t *testing.T, opts ...string) *game {
	t.Helper()
	x := newGame(t, deal8, append([]string{"first_night=meeting"}, opts...)...)
	x.next(1)
	x.wantPhase(engine.PhaseSpeech, 1)
	return x
}

// speechesNominating plays the current day's speeches; nominations maps a
// speaker to the seat they nominate.
func (x *game) speechesNominating(nominations map[engine.Seat]engine.Seat) {
	x.t.Helper()
	for x.g.Phase() == engine.PhaseSpeech {
		s := x.g.Speaker()
		if c, ok := nominations[s]; ok {
			x.nominate(s, c)
		}
		x.next(1)
	}
}

// voteAndClose lets every voter in votes vote, and closes the vote.
func (x *game) voteAndClose(votes map[engine.Seat]engine.Seat) []engine.Event {
	x.t.Helper()
	if p := x.g.Phase(); p != engine.PhaseVote && p != engine.PhaseRevote {
		x.t.Fatalf("voteAndClose in phase %s", p)
	}
	for by := engine.Seat(1); by <= engine.Seat(x.g.Players()); by++ {
		if c, ok := votes[by]; ok {
			x.vote(by, c)
		}
	}
	return x.next(1)
}

func TestSpeechOrder_Day1FromSeatOne(t *testing.T) {
	x := meetingDay1(t)
	if got := x.speechOrder(); !sameSeats(got, seats(1, 2, 3, 4, 5, 6, 7, 8)) {
		t.Fatalf("day 1 speakers %v", got)
	}
}

func TestSpeechOrder_Day1FromFirstLivingSeat(t *testing.T) {
	x := newGame(t, "citizen citizen don mafia detective doctor citizen", "last_words=off")
	x.kill(3, 1)
	x.kill(4, 1)
	x.nightEnd()
	evs := x.log[len(x.log)-2:]
	if evs[0].Kind != engine.EvDayBegan || evs[0].Actor != 2 {
		t.Errorf("day began %v from %d, want from seat 2", evs[0].Kind, evs[0].Actor)
	}
	if got := x.speechOrder(); !sameSeats(got, seats(2, 3, 4, 5, 6, 7)) {
		t.Fatalf("day 1 speakers %v, want [2 3 4 5 6 7]", got)
	}
}

func TestSpeechOrder_EachDayFromTheSeatAfterThePreviousOpener(t *testing.T) {
	// Nobody is killed (the don skips) and nobody nominated: the openers go
	// round the table, and each day's speeches go round from the opener.
	x := newGame(t, "citizen citizen citizen don mafia detective doctor", "first_night=meeting")
	x.next(1)
	for day := 1; day <= 9; day++ {
		opener := engine.Seat((day-1)%7 + 1)
		var want []engine.Seat
		for i := 0; i < 7; i++ {
			want = append(want, engine.Seat((int(opener)-1+i)%7+1))
		}
		if got := x.speechOrder(); !sameSeats(got, want) {
			t.Fatalf("day %d speakers %v, want %v", day, got, want)
		}
		x.wantPhase(engine.PhaseNight, 0)
		x.skip(4)
		x.nightEnd()
	}
}

func TestSpeechOrder_OpenerSkipsDeadSeats(t *testing.T) {
	// day 1 from seat 1; seat 2 dies in night 2: day 2 from seat 3.
	x := newGame(t, "citizen citizen citizen don mafia detective doctor", "first_night=meeting", "last_words=off")
	x.next(1)
	x.speechOrder()
	x.kill(4, 2)
	x.nightEnd()
	if got := x.speechOrder(); !sameSeats(got, seats(3, 4, 5, 6, 7, 1)) {
		t.Fatalf("day 2 speakers %v, want [3 4 5 6 7 1]", got)
	}
	// night 3 kills seat 3, the day-2 opener: day 3 starts from the first
	// living seat after 3.
	x.kill(4, 3)
	x.nightEnd()
	if got := x.speechOrder(); !sameSeats(got, seats(4, 5, 6, 7, 1)) {
		t.Fatalf("day 3 speakers %v, want [4 5 6 7 1]", got)
	}
}

func TestSpeechOrder_LostSpeechIsSkipped(t *testing.T) {
	x := meetingDay1(t)
	x.foul(3)
	x.foul(3)
	x.foul(3) // the 3rd foul: seat 3 loses their next speech
	got := x.speechOrder()
	if !sameSeats(got, seats(1, 2, 4, 5, 6, 7, 8)) {
		t.Fatalf("speakers %v, want seat 3 skipped", got)
	}
	if n := len(x.events(engine.EvSpeechSkipped)); n != 1 {
		t.Errorf("%d speech_skipped events, want 1", n)
	}
	// Only the next speech is lost: seat 3 speaks on day 2.
	x.untilNight(2)
	x.nightEnd()
	if got := x.speechOrder(); !sameSeats(got, seats(2, 3, 4, 5, 6, 7, 8, 1)) {
		t.Fatalf("day 2 speakers %v, want seat 3 back", got)
	}
}

func TestSpeechOrder_ThirdFoulInOwnSpeechLosesTomorrowsSpeech(t *testing.T) {
	x := meetingDay1(t)
	x.next(2)
	x.wantPhase(engine.PhaseSpeech, 3)
	x.foul(3)
	x.foul(3)
	x.foul(3)
	x.wantPhase(engine.PhaseSpeech, 3) // today's speech goes on
	x.nominate(3, 5)
	x.untilNight(2)
	x.nightEnd()
	if got := x.speechOrder(); !sameSeats(got, seats(2, 4, 6, 7, 8, 1)) {
		t.Fatalf("day 2 speakers %v, want [2 4 6 7 8 1]: seat 3's speech lost, seat 5 voted out", got)
	}
}

// The rulebook does not say whose seat the next day counts from when the
// opener's speech was lost through fouls; the engine's choice: the opener
// keeps the slot (DayBegan names it), so the next day starts after it, not
// after the first seat that actually spoke.
func TestSpeechOrder_OpenerWhoLostTheSpeechStillOpensTheRotation(t *testing.T) {
	x := newGame(t, deal8, "first_night=meeting")
	x.foul(1)
	x.foul(1)
	x.foul(1)
	evs := x.next(1)
	if evs[1].Kind != engine.EvDayBegan || evs[1].Actor != 1 {
		t.Fatalf("day 1 began %v", kinds(evs))
	}
	if got := x.speechOrder(); !sameSeats(got, seats(2, 3, 4, 5, 6, 7, 8)) {
		t.Fatalf("day 1 speakers %v", got)
	}
	x.nightEnd()
	if got := x.speechOrder(); !sameSeats(got, seats(2, 3, 4, 5, 6, 7, 8, 1)) {
		t.Fatalf("day 2 speakers %v, want from seat 2", got)
	}
}

func TestSpeech_PassEndsOwnSpeechOnly(t *testing.T) {
	x := meetingDay1(t)
	x.refuse(engine.CodeNotSpeaker, cmd(engine.Pass, 2, 0))
	x.refuse(engine.CodeHostOnly, cmd(engine.Next, 1, 0))
	x.act(engine.Pass, 1, 0)
	x.wantPhase(engine.PhaseSpeech, 2)
}

func TestNomination_OnePerSpeech(t *testing.T) {
	x := meetingDay1(t)
	x.nominate(1, 5)
	e := x.refuse(engine.CodeAlreadyNominated, cmd(engine.Nominate, 1, 6))
	if e.Seat != 1 {
		t.Errorf("refusal names seat %d, want 1", e.Seat)
	}
	x.next(1)
	x.nominate(2, 6) // the next speaker has their own nomination
}

func TestNomination_NotSelf(t *testing.T) {
	x := meetingDay1(t)
	x.refuse(engine.CodeNominateSelf, cmd(engine.Nominate, 1, 1))
}

func TestNomination_NotTwiceTheSameCandidate(t *testing.T) {
	x := meetingDay1(t)
	x.nominate(1, 5)
	x.next(1)
	e := x.refuse(engine.CodeAlreadyCandidate, cmd(engine.Nominate, 2, 5))
	if e.Target != 5 {
		t.Errorf("refusal names target %d, want 5", e.Target)
	}
	x.nominate(2, 1) // the one who nominated may be nominated
}

func TestNomination_OnlyTheSpeaker(t *testing.T) {
	x := meetingDay1(t)
	e := x.refuse(engine.CodeNotSpeaker, cmd(engine.Nominate, 2, 5))
	if e.Seat != 2 {
		t.Errorf("refusal names seat %d, want 2", e.Seat)
	}
	x.next(8)
	x.wantPhase(engine.PhaseNight, 0) // nobody nominated: no vote, the night begins
	if !hasKind(x.log, engine.EvNobodyLeaves) {
		t.Errorf("no nobody_leaves event")
	}
	x.refuse(engine.CodeWrongPhase, cmd(engine.Nominate, 1, 5))
}

func TestNomination_OnlyLivingPlayers(t *testing.T) {
	x := newGame(t, deal8, "last_words=off")
	x.kill(1, 5)
	x.nightEnd()
	x.refuse(engine.CodeTargetOut, cmd(engine.Nominate, 1, 5))
	x.refuse(engine.CodeNoSuchSeat, cmd(engine.Nominate, 1, 9))
	x.refuse(engine.CodeActorOut, cmd(engine.Nominate, 5, 1))
}

func TestNomination_CandidatesDefendInNominationOrder(t *testing.T) {
	x := meetingDay1(t)
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 7, 2: 3, 5: 6})
	var order []engine.Seat
	for x.g.Phase() == engine.PhaseDefence {
		order = append(order, x.g.Speaker())
		x.next(1)
	}
	if !sameSeats(order, seats(7, 3, 6)) {
		t.Fatalf("defences %v, want [7 3 6]", order)
	}
	x.wantPhase(engine.PhaseVote, 0)
	if got := x.g.Candidates(); !sameSeats(got, seats(7, 3, 6)) {
		t.Fatalf("candidates %v, want [7 3 6]", got)
	}
}

func TestVote_AbstentionGoesToLastCandidate(t *testing.T) {
	x := meetingDay1(t)
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6, 3: 7})
	x.until(engine.PhaseVote, 0)
	// 5: two votes; 6: one; 7 (the last): one vote and five abstentions.
	evs := x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 6, 4: 7})
	var closed engine.Event
	for _, e := range evs {
		if e.Kind == engine.EvVoteClosed {
			closed = e
		}
	}
	if closed.Kind != engine.EvVoteClosed {
		t.Fatalf("no vote_closed in %v", kinds(evs))
	}
	want := map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 6, 4: 7, 5: 7, 6: 7, 7: 7, 8: 7}
	for s, c := range want {
		if engine.Seat(closed.PerSeat[s]) != c {
			t.Errorf("ballot: seat %d counted for %d, want %d", s, closed.PerSeat[s], c)
		}
	}
	x.wantAlive(1, 2, 3, 4, 5, 6, 8)
	out := x.events(engine.EvPlayerOut)
	if len(out) != 1 || out[0].Target != 7 || out[0].Cause != engine.CauseVote {
		t.Fatalf("player_out %+v, want seat 7 by vote", out)
	}
}

func TestVote_SingleCandidateTakesAllVotes(t *testing.T) {
	x := meetingDay1(t)
	x.speechesNominating(map[engine.Seat]engine.Seat{4: 6})
	x.until(engine.PhaseVote, 0)
	x.voteAndClose(nil) // nobody votes: all fall on seat 6
	x.wantAlive(1, 2, 3, 4, 5, 7, 8)
}

func TestVote_Refusals(t *testing.T) {
	x := meetingDay1(t, "last_words=off")
	x.refuse(engine.CodeWrongPhase, cmd(engine.Vote, 1, 5))
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6})
	x.until(engine.PhaseVote, 0)
	x.refuse(engine.CodeNotCandidate, cmd(engine.Vote, 1, 7))
	x.refuse(engine.CodeNoSuchSeat, cmd(engine.Vote, 1, 0))
	x.refuse(engine.CodeNoSuchSeat, cmd(engine.Vote, 1, 9))
	x.vote(1, 5)
	x.refuse(engine.CodeAlreadyVoted, cmd(engine.Vote, 1, 6)) // a vote is final
	x.vote(5, 5)                                              // candidates vote too
	x.refuse(engine.CodeWrongPhase, cmd(engine.AllVote, 2, 0))
	x.voteAndClose(map[engine.Seat]engine.Seat{2: 5, 3: 5, 4: 5})
	x.wantAlive(1, 2, 3, 4, 6, 7, 8)
	x.wantPhase(engine.PhaseNight, 0)
	x.refuse(engine.CodeWrongPhase, cmd(engine.Vote, 1, 6))
}

func TestVote_MostVotesLeaves(t *testing.T) {
	x := meetingDay1(t, "last_words=off")
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6, 3: 7})
	x.until(engine.PhaseVote, 0)
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 6, 2: 6, 3: 6, 7: 6, 4: 5, 5: 7, 6: 7}) // 6: 4, 5: 1, 7: 3
	x.wantAlive(1, 2, 3, 4, 5, 7, 8)
}

// tieDay1 plays day 1 of an 8-player game into a 4–4 tie between 5 and 6 and
// their tie speeches, up to the revote.
func tieDay1(t *testing.T, opts ...string) *game {
	t.Helper()
	x := meetingDay1(t, opts...)
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6, 3: 7})
	x.until(engine.PhaseVote, 0)
	evs := x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 6, 6: 6, 7: 6, 8: 6})
	var tie []engine.Seat
	for _, e := range evs {
		if e.Kind == engine.EvTie {
			tie = e.List()
		}
	}
	if !sameSeats(tie, seats(5, 6)) {
		t.Fatalf("tie %v, want [5 6] (events %v)", tie, kinds(evs))
	}
	var speakers []engine.Seat
	for x.g.Phase() == engine.PhaseTieSpeech {
		speakers = append(speakers, x.g.Speaker())
		x.next(1)
	}
	if !sameSeats(speakers, seats(5, 6)) {
		t.Fatalf("tie speeches %v, want only the tied [5 6]", speakers)
	}
	x.wantPhase(engine.PhaseRevote, 0)
	if got := x.g.Candidates(); !sameSeats(got, seats(5, 6)) {
		t.Fatalf("revote candidates %v, want [5 6]", got)
	}
	x.refuse(engine.CodeNotCandidate, cmd(engine.Vote, 1, 7))
	return x
}

func TestTie_RevoteAmongTheTied(t *testing.T) {
	x := tieDay1(t, "last_words=off")
	// abstentions go to the last of the tied (6)
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5})
	x.wantAlive(1, 2, 3, 4, 5, 7, 8)
	x.wantPhase(engine.PhaseNight, 0)
}

func TestTie_SingleTopOfRevoteLeaves(t *testing.T) {
	x := tieDay1(t, "last_words=off")
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 6, 7: 6, 8: 6})
	x.wantAlive(1, 2, 3, 4, 6, 7, 8)
}

// revoteTie plays the revote of tieDay1 into a second 4–4 tie.
func revoteTie(t *testing.T, opts ...string) *game {
	t.Helper()
	x := tieDay1(t, opts...)
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5})
	return x
}

func TestSecondTie_Ask(t *testing.T) {
	x := revoteTie(t)
	x.wantPhase(engine.PhaseAllVote, 0)
	if got := x.g.Candidates(); !sameSeats(got, seats(5, 6)) {
		t.Fatalf("all-vote candidates %v, want [5 6]", got)
	}
	x.wantAlive(1, 2, 3, 4, 5, 6, 7, 8)
}

// TestTie_SaysWhichVoteItEnds pins the tie event's Phase: a tie in the
// vote is PhaseVote (tie speeches follow), a tie again in the revote is
// PhaseRevote ("shall all of them leave?" follows), so that a client telling
// the log from the events alone can tell the two apart.
func TestTie_SaysWhichVoteItEnds(t *testing.T) {
	x := revoteTie(t)
	var phases []engine.Phase
	for _, e := range x.events(engine.EvTie) {
		phases = append(phases, e.Phase)
	}
	if want := []engine.Phase{engine.PhaseVote, engine.PhaseRevote}; !slices.Equal(phases, want) {
		t.Errorf("the ties' phases %v, want %v", phases, want)
	}
}

func TestSecondTie_Nobody(t *testing.T) {
	x := revoteTie(t, "second_tie=nobody")
	x.wantPhase(engine.PhaseNight, 0)
	x.wantAlive(1, 2, 3, 4, 5, 6, 7, 8)
	if !hasKind(x.log, engine.EvNobodyLeaves) || hasKind(x.log, engine.EvAllVoteBegan) {
		t.Errorf("events %v: want nobody_leaves and no all-vote", kinds(x.log))
	}
}

func TestSecondTie_All(t *testing.T) {
	x := revoteTie(t, "second_tie=all", "last_words=off")
	x.wantPhase(engine.PhaseNight, 0)
	x.wantAlive(1, 2, 3, 4, 7, 8)
	for _, e := range x.events(engine.EvPlayerOut) {
		if e.Cause != engine.CauseAll {
			t.Errorf("seat %d out by %s, want all", e.Target, e.Cause)
		}
	}
	if hasKind(x.log, engine.EvAllVoteBegan) {
		t.Errorf("second_tie=all asked the town")
	}
}

func TestAllVote_MoreThanHalfOfTheLiving(t *testing.T) {
	for _, tc := range []struct {
		name  string
		yes   []engine.Seat
		no    []engine.Seat
		leave bool
	}{
		{"5 of 8 say yes", seats(1, 2, 3, 4, 5), nil, true},
		{"4 of 8 (exactly half) say yes", seats(1, 2, 3, 4), seats(5, 6, 7, 8), false},
		{"4 yes and no answer from the rest", seats(1, 2, 3, 4), nil, false},
		{"everyone yes", seats(1, 2, 3, 4, 5, 6, 7, 8), nil, true},
		{"nobody answers", nil, nil, false},
		{"5 yes and 3 no", seats(4, 5, 6, 7, 8), seats(1, 2, 3), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := revoteTie(t, "last_words=off")
			x.wantPhase(engine.PhaseAllVote, 0)
			for _, s := range tc.yes {
				x.allVote(s, true)
			}
			for _, s := range tc.no {
				x.allVote(s, false)
			}
			evs := x.next(1)
			var closed engine.Event
			for _, e := range evs {
				if e.Kind == engine.EvAllVoteClosed {
					closed = e
				}
			}
			if closed.Kind != engine.EvAllVoteClosed || closed.Yes != tc.leave || closed.Set != engine.SetOf(tc.yes...) {
				t.Fatalf("all_vote_closed %+v, want yes %v from %v", closed, tc.leave, tc.yes)
			}
			if tc.leave {
				x.wantAlive(1, 2, 3, 4, 7, 8)
			} else {
				x.wantAlive(1, 2, 3, 4, 5, 6, 7, 8)
			}
			x.wantPhase(engine.PhaseNight, 0)
		})
	}
}

func TestAllVote_Refusals(t *testing.T) {
	x := revoteTie(t, "last_words=off")
	x.allVote(1, true)
	x.refuse(engine.CodeAlreadyVoted, engine.Command{Verb: engine.AllVote, By: 1, Yes: false})
	x.refuse(engine.CodeWrongPhase, cmd(engine.Vote, 2, 5))
	x.refuse(engine.CodeNoSuchSeat, engine.Command{Verb: engine.AllVote, By: 9, Yes: true})
}

func TestAllVote_LivingCountAfterAFoulRemoval(t *testing.T) {
	// 8 alive; 4 say yes; then a no-voter is removed by fouls: 4 of 7 is
	// more than half.
	x := revoteTie(t, "last_words=off", "foul_limit=1")
	for _, s := range seats(1, 2, 3, 4) {
		x.allVote(s, true)
	}
	x.foul(8)
	x.next(1)
	x.wantAlive(1, 2, 3, 4, 7)
}

func TestLastWords_On(t *testing.T) {
	t.Run("night victims in seat order, then the day", func(t *testing.T) {
		x := newGame(t, deal8m, "first_night=meeting")
		x.untilNight(2)
		x.kill(1, 7)
		x.shoot(3, 6)
		x.nightEnd()
		x.wantPhase(engine.PhaseLastWords, 6)
		x.refuse(engine.CodeNotSpeaker, cmd(engine.Pass, 7, 0))
		x.act(engine.Pass, 6, 0) // the dead speaker may end their own last words
		x.wantPhase(engine.PhaseLastWords, 7)
		x.next(1)
		x.wantPhase(engine.PhaseSpeech, 0)
		if n := len(x.events(engine.EvLastWords)); n != 2 {
			t.Errorf("%d last words, want 2", n)
		}
	})
	t.Run("a player voted out, then the night", func(t *testing.T) {
		x := meetingDay1(t)
		x.speechesNominating(map[engine.Seat]engine.Seat{1: 6})
		x.until(engine.PhaseVote, 0)
		x.voteAndClose(nil)
		x.wantPhase(engine.PhaseLastWords, 6)
		x.next(1)
		x.wantPhase(engine.PhaseNight, 0)
		if x.g.Round() != 2 {
			t.Errorf("round %d, want 2", x.g.Round())
		}
	})
	t.Run("all the tied, in seat order", func(t *testing.T) {
		x := revoteTie(t, "second_tie=all")
		x.wantPhase(engine.PhaseLastWords, 5)
		x.next(1)
		x.wantPhase(engine.PhaseLastWords, 6)
		x.next(1)
		x.wantPhase(engine.PhaseNight, 0)
	})
}

func TestLastWords_Off(t *testing.T) {
	t.Run("night victims", func(t *testing.T) {
		x := newGame(t, deal8, "last_words=off")
		x.kill(1, 6)
		x.nightEnd()
		x.wantPhase(engine.PhaseSpeech, 1)
	})
	t.Run("voted out", func(t *testing.T) {
		x := meetingDay1(t, "last_words=off")
		x.speechesNominating(map[engine.Seat]engine.Seat{1: 6})
		x.until(engine.PhaseVote, 0)
		x.voteAndClose(nil)
		x.wantPhase(engine.PhaseNight, 0)
		if hasKind(x.log, engine.EvLastWords) {
			t.Errorf("last words with last_words=off")
		}
	})
}

func TestLastWords_NoneWhenTheGameEnded(t *testing.T) {
	t.Run("by vote", func(t *testing.T) {
		// 5 players: the don is voted out: the town wins, no last words.
		x := newGame(t, "don detective doctor citizen citizen", "first_night=meeting")
		x.next(1)
		x.speechesNominating(map[engine.Seat]engine.Seat{2: 1})
		x.until(engine.PhaseVote, 0)
		x.voteAndClose(nil)
		x.wantWinner(engine.WinnerTown)
		if hasKind(x.log, engine.EvLastWords) {
			t.Errorf("last words after the game ended")
		}
		if last := x.log[len(x.log)-1]; last.Kind != engine.EvGameEnded {
			t.Errorf("last event %s", last.Kind)
		}
	})
	t.Run("by night", func(t *testing.T) {
		// 3 players: the mafia kills one citizen: 1x1, the mafia wins.
		x := newGame(t, "don citizen citizen")
		x.kill(1, 2)
		x.nightEnd()
		x.wantWinner(engine.WinnerMafia)
		if hasKind(x.log, engine.EvLastWords) {
			t.Errorf("last words after the game ended")
		}
	})
}

func TestRevealOnDeath_None(t *testing.T) {
	x := newGame(t, deal8)
	x.kill(1, 3)
	out := outEvent(t, x.next(1))
	for s := engine.Seat(0); s <= 8; s++ {
		e, ok := x.g.EventFor(out, s)
		if !ok || e.Role != engine.RoleNone || e.Team != engine.TeamNone {
			t.Errorf("seat %d sees player_out as %+v (visible %v)", s, e, ok)
		}
	}
	v := x.g.ViewFor(5)
	if v.Roles[3] != engine.RoleNone || v.Teams[3] != engine.TeamNone {
		t.Errorf("a citizen's view shows the dead detective as %s/%s", v.Roles[3], v.Teams[3])
	}
	if sv := x.g.SpectatorView(); sv.Roles[3] != engine.RoleNone || sv.Teams[3] != engine.TeamNone {
		t.Errorf("the spectator's view shows the dead detective")
	}
}

func TestRevealOnDeath_Team(t *testing.T) {
	x := newGame(t, deal8, "reveal_on_death=team", "first_night=meeting")
	x.next(1)
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 2}) // the don nominates his mafioso
	x.until(engine.PhaseVote, 0)
	out := outEvent(t, x.voteAndClose(nil))
	for s := engine.Seat(0); s <= 8; s++ {
		e, _ := x.g.EventFor(out, s)
		if e.Role != engine.RoleNone || e.Team != engine.TeamMafia {
			t.Errorf("seat %d sees player_out role %s team %s, want team mafia only", s, e.Role, e.Team)
		}
	}
	v := x.g.ViewFor(5)
	if v.Roles[2] != engine.RoleNone || v.Teams[2] != engine.TeamMafia {
		t.Errorf("a citizen's view shows the mafioso as %q/%q, want team mafia only", v.Roles[2], v.Teams[2])
	}
	if sv := x.g.SpectatorView(); sv.Roles[2] != engine.RoleNone || sv.Teams[2] != engine.TeamMafia {
		t.Errorf("the spectator's view shows %q/%q", sv.Roles[2], sv.Teams[2])
	}
}

func TestRevealOnDeath_Role(t *testing.T) {
	x := newGame(t, deal8, "reveal_on_death=role")
	x.kill(1, 3)
	out := outEvent(t, x.next(1))
	for s := engine.Seat(0); s <= 8; s++ {
		e, _ := x.g.EventFor(out, s)
		if e.Role != engine.Detective || e.Team != engine.TeamTown {
			t.Errorf("seat %d sees player_out role %s team %s, want detective/town", s, e.Role, e.Team)
		}
	}
	v := x.g.ViewFor(5)
	if v.Roles[3] != engine.Detective || v.Teams[3] != engine.TeamTown {
		t.Errorf("a citizen's view shows the dead detective as %q/%q", v.Roles[3], v.Teams[3])
	}
	// the living stay secret
	for s := engine.Seat(1); s <= 8; s++ {
		if s != 3 && s != 5 && (v.Roles[s] != engine.RoleNone || v.Teams[s] != engine.TeamNone) {
			t.Errorf("a citizen's view shows living seat %d as %q/%q", s, v.Roles[s], v.Teams[s])
		}
	}
}

func outEvent(t *testing.T, evs []engine.Event) engine.Event {
	t.Helper()
	for _, e := range evs {
		if e.Kind == engine.EvPlayerOut {
			return e
		}
	}
	t.Fatalf("no player_out in %v", kinds(evs))
	return engine.Event{}
}

func TestFoulLimit_Default(t *testing.T) {
	t.Run("speech lost at the 3rd foul", func(t *testing.T) {
		x := meetingDay1(t)
		for i := 1; i <= 2; i++ {
			evs := x.foul(5)
			if len(evs) != 1 || evs[0].Kind != engine.EvFouled || evs[0].Count != uint8(i) {
				t.Fatalf("foul %d: events %+v", i, evs)
			}
			if x.g.ViewFor(1).LostSpeech.Has(5) {
				t.Fatalf("speech lost at foul %d", i)
			}
		}
		x.foul(5)
		if !x.g.ViewFor(1).LostSpeech.Has(5) {
			t.Fatalf("speech not lost at the 3rd foul")
		}
		x.wantAlive(1, 2, 3, 4, 5, 6, 7, 8)
		if got := x.speechOrder(); !sameSeats(got, seats(1, 2, 3, 4, 6, 7, 8)) {
			t.Fatalf("speakers %v, want seat 5 skipped", got)
		}
	})
	t.Run("removed at the 4th, no last words, the end checked at once", func(t *testing.T) {
		x := meetingDay1(t)
		x.next(1) // seat 2's speech
		for i := 0; i < 3; i++ {
			x.foul(6)
		}
		evs := x.foul(6)
		if len(evs) != 2 || evs[1].Kind != engine.EvPlayerOut || evs[1].Cause != engine.CauseFouls || evs[1].Target != 6 {
			t.Fatalf("4th foul: events %v", kinds(evs))
		}
		x.wantAlive(1, 2, 3, 4, 5, 7, 8)
		x.wantPhase(engine.PhaseSpeech, 2) // the speech goes on
		x.speechesNominating(map[engine.Seat]engine.Seat{3: 7})
		x.until(engine.PhaseVote, 0)
		x.voteAndClose(nil)
		x.wantPhase(engine.PhaseLastWords, 7) // only the voted-out player speaks
		if n := len(x.events(engine.EvLastWords)); n != 1 {
			t.Errorf("%d last words, want 1", n)
		}
	})
	t.Run("removing the last mafioso ends the game at once", func(t *testing.T) {
		x := newGame(t, "don detective doctor citizen citizen", "first_night=meeting")
		x.next(1)
		x.wantPhase(engine.PhaseSpeech, 1)
		for i := 0; i < 4; i++ {
			x.foul(1)
		}
		x.wantWinner(engine.WinnerTown)
		if last := x.log[len(x.log)-1]; last.Kind != engine.EvGameEnded {
			t.Errorf("last event %s, want game_ended", last.Kind)
		}
		x.refuse(engine.CodeGameOver, cmd(engine.Next, engine.Host, 0))
	})
	t.Run("a removal at night ends the game at once", func(t *testing.T) {
		x := newGame(t, "don citizen citizen citizen", "foul_limit=4")
		for i := 0; i < 4; i++ {
			x.foul(2)
		}
		x.wantAlive(1, 3, 4)
		x.wantPhase(engine.PhaseNight, 0)
		for i := 0; i < 4; i++ {
			x.foul(3)
		}
		x.wantWinner(engine.WinnerMafia)
	})
	t.Run("removing the speaker passes the floor", func(t *testing.T) {
		x := meetingDay1(t)
		for i := 0; i < 4; i++ {
			x.foul(1)
		}
		x.wantPhase(engine.PhaseSpeech, 2)
	})
	t.Run("removing a defender passes to the next defence", func(t *testing.T) {
		x := meetingDay1(t)
		x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6})
		x.wantPhase(engine.PhaseDefence, 5)
		for i := 0; i < 4; i++ {
			x.foul(5)
		}
		x.wantPhase(engine.PhaseDefence, 6)
		if got := x.g.Candidates(); !sameSeats(got, seats(6)) {
			t.Errorf("candidates %v, want [6]", got)
		}
	})
	t.Run("only the host fouls, only the living", func(t *testing.T) {
		x := newGame(t, deal8, "last_words=off")
		x.refuse(engine.CodeHostOnly, cmd(engine.Foul, 1, 5))
		x.kill(1, 5)
		x.nightEnd()
		x.refuse(engine.CodeTargetOut, cmd(engine.Foul, engine.Host, 5))
		x.refuse(engine.CodeNoSuchSeat, cmd(engine.Foul, engine.Host, 9))
		x.refuse(engine.CodeNoSuchSeat, cmd(engine.Foul, engine.Host, 0))
	})
}

func TestFoulLimit_Custom(t *testing.T) {
	for _, tc := range []struct {
		limit    string
		lostAt   int // 0: never lost
		removeAt int
	}{
		{"1", 0, 1},
		{"2", 1, 2},
		{"3", 2, 3},
		{"6", 5, 6},
		{"10", 9, 10},
	} {
		t.Run("foul_limit="+tc.limit, func(t *testing.T) {
			x := meetingDay1(t, "foul_limit="+tc.limit)
			for i := 1; i <= tc.removeAt; i++ {
				x.foul(8)
				lost := x.g.ViewFor(1).LostSpeech.Has(8)
				alive := x.g.Alive().Has(8)
				if i < tc.removeAt && !alive {
					t.Fatalf("removed at foul %d", i)
				}
				if i < tc.removeAt && lost != (tc.lostAt != 0 && i >= tc.lostAt) {
					t.Fatalf("foul %d: speech lost %v", i, lost)
				}
				if i == tc.removeAt && alive {
					t.Fatalf("not removed at foul %d", i)
				}
			}
			if x.g.Fouls(8) != tc.removeAt {
				t.Errorf("fouls %d, want %d", x.g.Fouls(8), tc.removeAt)
			}
		})
	}
}

func TestFoulLimit_Zero_OnlyRecorded(t *testing.T) {
	x := meetingDay1(t, "foul_limit=0")
	for i := 1; i <= 12; i++ {
		evs := x.foul(1)
		if len(evs) != 1 || evs[0].Count != uint8(i) {
			t.Fatalf("foul %d: events %+v", i, evs)
		}
	}
	x.wantAlive(1, 2, 3, 4, 5, 6, 7, 8)
	if x.g.Fouls(1) != 12 {
		t.Errorf("fouls %d, want 12", x.g.Fouls(1))
	}
	if x.g.ViewFor(2).LostSpeech != 0 {
		t.Errorf("a speech lost with foul_limit=0")
	}
	x.wantPhase(engine.PhaseSpeech, 1)
}

func TestGameOver_NothingAccepted(t *testing.T) {
	x := newGame(t, "don citizen citizen")
	x.kill(1, 2)
	x.nightEnd()
	x.wantWinner(engine.WinnerMafia)
	for _, c := range []engine.Command{
		cmd(engine.Next, engine.Host, 0), cmd(engine.Foul, engine.Host, 1), cmd(engine.Kill, 1, 3),
		cmd(engine.Pass, 1, 0), cmd(engine.Nominate, 1, 3), {Verb: engine.AllVote, By: 3, Yes: true},
	} {
		x.refuse(engine.CodeGameOver, c)
	}
	x.refuse(engine.CodeUnknownVerb, cmd(engine.VerbNone, 1, 0))
	if n := len(x.events(engine.EvGameEnded)); n != 1 {
		t.Errorf("%d game_ended events", n)
	}
}

func TestCommand_UnknownVerb(t *testing.T) {
	x := newGame(t, deal8)
	x.refuse(engine.CodeUnknownVerb, cmd(engine.VerbNone, 1, 2))
	x.refuse(engine.CodeUnknownVerb, cmd(engine.Verb(200), 1, 2))
}
