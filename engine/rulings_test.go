package engine_test

import (
	"testing"

	"mafia/engine"
)

// Tests of the engine's rulings where docs/rules.md is silent (docs/rulings.md,
// numbered as there), and of cases the rulebook decides that the other files
// do not reach.

// threeWayTie plays day 1 of a 9-player meeting-night game into a 3–3–3 tie
// between 5, 6 and 7, and their tie speeches, up to the revote.
func threeWayTie(t *testing.T, opts ...string) *game {
	t.Helper()
	x := newGame(t, deal9, append([]string{"first_night=meeting"}, opts...)...)
	x.next(1)
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6, 3: 7})
	x.until(engine.PhaseVote, 0)
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 6, 5: 6, 6: 6}) // 7, 8, 9 abstain: for 7
	var speakers []engine.Seat
	for x.g.Phase() == engine.PhaseTieSpeech {
		speakers = append(speakers, x.g.Speaker())
		x.next(1)
	}
	if !sameSeats(speakers, seats(5, 6, 7)) {
		t.Fatalf("tie speeches %v, want [5 6 7]", speakers)
	}
	x.wantPhase(engine.PhaseRevote, 0)
	return x
}

// docs/rules.md Day 7: the all-vote is about those tied at the top of the revote.
func TestSecondTie_Ask_OnlyTheRevotesTopTied(t *testing.T) {
	x := threeWayTie(t)
	// revote: 5 and 6 four each, 7 one (the abstention of 9)
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 6, 6: 6, 7: 6, 8: 6})
	x.wantPhase(engine.PhaseAllVote, 0)
	if got := x.g.Candidates(); !sameSeats(got, seats(5, 6)) {
		t.Fatalf("all-vote candidates %v, want [5 6]", got)
	}
	for _, s := range seats(1, 2, 3, 4, 5) {
		x.allVote(s, true)
	}
	x.next(1)
	want := seats(1, 2, 3, 4, 7, 8, 9)
	x.wantAlive(want...)
}

func TestSecondTie_All_OnlyTheRevotesTopTied(t *testing.T) {
	x := threeWayTie(t, "second_tie=all", "last_words=off")
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 6, 6: 6, 7: 6, 8: 6})
	x.wantAlive(1, 2, 3, 4, 7, 8, 9)
	x.wantPhase(engine.PhaseNight, 0)
}

func TestTie_RevoteAbstentionsGoToTheLastOfTheTied(t *testing.T) {
	x := threeWayTie(t, "last_words=off")
	if got := x.g.Candidates(); !sameSeats(got, seats(5, 6, 7)) {
		t.Fatalf("revote candidates %v", got)
	}
	// 5: three, 6: one, the five abstentions to 7
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 6})
	x.wantAlive(1, 2, 3, 4, 5, 6, 8, 9)
}

// Ruling 4: the Don may check a mafioso, and anyone may be checked again on
// a later night.
func TestCheck_SamePlayerAgainOnALaterNight(t *testing.T) {
	x := newGame(t, deal8m)
	x.check(4, 6)
	x.check(1, 2)
	x.nightEnd()
	x.untilNight(2)
	if got := x.check(4, 6); got != engine.ResultNotMafia {
		t.Errorf("second check: %s", got)
	}
	if got := x.check(1, 2); got != engine.ResultNotDetective {
		t.Errorf("second check: %s", got)
	}
}

// Ruling 10: the vote does not close by itself when everyone has voted.
func TestVote_ClosesOnlyByNext(t *testing.T) {
	x := meetingDay1(t)
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6})
	x.until(engine.PhaseVote, 0)
	for s := engine.Seat(1); s <= 8; s++ {
		x.vote(s, 5)
	}
	x.wantPhase(engine.PhaseVote, 0)
	x.wantAlive(1, 2, 3, 4, 5, 6, 7, 8)
	if p := x.g.Pending(); p != 0 {
		t.Errorf("pending %v after everyone voted", p.Seats())
	}
	x.next(1)
	x.wantAlive(1, 2, 3, 4, 6, 7, 8)
}

// Ruling 9: a vote reaches only its voter until the vote closes; then the
// whole ballot is public. That the seat has voted (vote_made, no target) is
// everyone's at once.
func TestVote_SecretUntilItCloses(t *testing.T) {
	x := meetingDay1(t, "last_words=off")
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6})
	x.until(engine.PhaseVote, 0)
	evs := x.vote(3, 5)
	if len(evs) != 2 || evs[0].Kind != engine.EvVoteMade || evs[1].Kind != engine.EvVoteCast {
		t.Fatalf("a vote's events: %+v, want vote_made then vote_cast", evs)
	}
	for s := engine.Seat(0); s <= 8; s++ {
		made, ok := x.g.EventFor(evs[0], s)
		if !ok || made.Actor != 3 || made.Target != 0 || made.Phase != engine.PhaseVote {
			t.Errorf("seat %d's copy of vote_made: %+v, %v; want seat 3, no target, for all", s, made, ok)
		}
		if _, ok := x.g.EventFor(evs[1], s); ok != (s == 3) {
			t.Errorf("seat %d sees seat 3's open vote: %v", s, ok)
		}
		v := x.g.ViewFor(s)
		if (v.MyVote != 0) != (s == 3) || v.Ballot != ([engine.MaxSeats + 1]engine.Seat{}) {
			t.Errorf("seat %d's view during the vote: my vote %d, ballot %v", s, v.MyVote, v.Ballot)
		}
	}
	x.next(1)
	for s := engine.Seat(0); s <= 8; s++ {
		if v := x.g.ViewFor(s); v.Ballot[3] != 5 || v.Ballot[4] != 6 {
			t.Errorf("seat %d's view after the vote: ballot %v", s, v.Ballot)
		}
	}
}

// Ruling 12: a player removed by fouls during the vote is withdrawn from the
// candidates; votes cast for them count for the last candidate; their own
// vote is dropped.
func TestFoulRemoval_DuringTheVote(t *testing.T) {
	x := meetingDay1(t, "foul_limit=1", "last_words=off")
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6, 3: 7})
	x.until(engine.PhaseVote, 0)
	x.vote(1, 5)
	x.vote(2, 5)
	x.vote(3, 5)
	x.vote(4, 5)
	x.vote(8, 5) // seat 8 is then removed: its vote is dropped
	x.vote(5, 6)
	x.foul(8)
	x.foul(5) // candidate 5 leaves: the four votes for 5 go to 7, the last
	if got := x.g.Candidates(); !sameSeats(got, seats(6, 7)) {
		t.Fatalf("candidates %v, want [6 7]", got)
	}
	evs := x.next(1)
	var closed engine.Event
	for _, e := range evs {
		if e.Kind == engine.EvVoteClosed {
			closed = e
		}
	}
	if closed.PerSeat[8] != 0 || closed.PerSeat[5] != 0 {
		t.Errorf("the ballot counts the removed: %v", closed.PerSeat)
	}
	for _, s := range seats(1, 2, 3, 4, 6, 7) {
		if closed.PerSeat[s] != 7 {
			t.Errorf("seat %d counted for %d, want 7", s, closed.PerSeat[s])
		}
	}
	x.wantAlive(1, 2, 3, 4, 6)
}

// Ruling 12: if every candidate has left, nobody is voted out.
func TestFoulRemoval_EveryCandidateLeft(t *testing.T) {
	x := meetingDay1(t, "foul_limit=1")
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 6})
	x.wantPhase(engine.PhaseDefence, 6)
	x.foul(6)
	x.wantPhase(engine.PhaseNight, 0)
	if !hasKind(x.log, engine.EvNobodyLeaves) {
		t.Errorf("no nobody_leaves: %v", kinds(x.log[len(x.log)-4:]))
	}
	x.wantAlive(1, 2, 3, 4, 5, 7, 8)
}

// Ruling 12: at night, the action of a player removed by fouls no longer
// counts.
func TestFoulRemoval_AtNightTheActionNoLongerCounts(t *testing.T) {
	t.Run("the mafioso who named the victim", func(t *testing.T) {
		x := newGame(t, deal9, "foul_limit=1")
		x.kill(2, 6)
		x.foul(2)
		if got := x.nightEnd(); len(got) != 0 {
			t.Errorf("victims %v, want none: the only choice was the removed mafioso's", got)
		}
	})
	t.Run("the senior mafioso: the next senior's choice stands", func(t *testing.T) {
		x := newGame(t, deal9, "foul_limit=1")
		x.kill(1, 6)
		x.kill(2, 7)
		x.foul(1)
		if got := x.nightEnd(); !sameSeats(got, seats(7)) {
			t.Errorf("victims %v, want [7]", got)
		}
	})
	t.Run("the doctor's heal", func(t *testing.T) {
		x := newGame(t, deal7, "foul_limit=1")
		x.kill(1, 6)
		x.heal(4, 6)
		x.foul(4)
		if got := x.nightEnd(); !sameSeats(got, seats(6)) {
			t.Errorf("victims %v, want [6]: the removed doctor's heal no longer counts", got)
		}
	})
	t.Run("the maniac's shot", func(t *testing.T) {
		x := newGame(t, deal8m, "foul_limit=1", "first_night=meeting")
		x.untilNight(2)
		x.shoot(3, 7)
		x.foul(3)
		if got := x.nightEnd(); len(got) != 0 {
			t.Errorf("victims %v, want none: the removed maniac's shot no longer counts", got)
		}
	})
}

// Ruling 13: reveal_on_death applies to a removal by fouls too.
func TestRevealOnDeath_RemovalByFouls(t *testing.T) {
	x := newGame(t, deal8, "reveal_on_death=role", "foul_limit=1")
	out := outEvent(t, x.foul(2))
	if out.Cause != engine.CauseFouls || out.Role != engine.Mafioso || out.Team != engine.TeamMafia {
		t.Errorf("player_out %+v, want the mafioso revealed", out)
	}
	if v := x.g.ViewFor(5); v.Roles[2] != engine.Mafioso {
		t.Errorf("a citizen's view shows seat 2 as %q", v.Roles[2])
	}
}

// Ruling 7: a player whose speech is lost cannot nominate that day; their
// defence is not taken away.
func TestFoulLimit_LostSpeechKeepsTheDefence(t *testing.T) {
	x := meetingDay1(t)
	x.nominate(1, 3)
	x.foul(3)
	x.foul(3)
	x.foul(3)
	x.next(1)
	x.wantPhase(engine.PhaseSpeech, 2)
	x.next(1)
	x.wantPhase(engine.PhaseSpeech, 4) // 3 skipped
	x.refuse(engine.CodeNotSpeaker, cmd(engine.Nominate, 3, 5))
	x.until(engine.PhaseDefence, 3)
	x.act(engine.Pass, 3, 0)
	x.wantPhase(engine.PhaseVote, 0)
}
