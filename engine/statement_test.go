package engine_test

import (
	"testing"

	"mafia/engine"
)

// Tests of the statements (structured talk on one's own floor): where they
// may be made, what they may say, their limit, and their record in every
// view and in the log.

func claim(by engine.Seat, r engine.Role) engine.Command {
	return engine.Command{Verb: engine.Claim, By: by, Role: r}
}

func report(by, target engine.Seat, r engine.Result) engine.Command {
	return engine.Command{Verb: engine.Report, By: by, Target: target, Result: r}
}

// oneOfEach is a statement of every verb by seat by, about seat about.
func oneOfEach(by, about engine.Seat) []engine.Command {
	return []engine.Command{
		claim(by, engine.Detective),
		report(by, about, engine.ResultMafia),
		cmd(engine.Suspect, by, about),
		cmd(engine.Vouch, by, about),
		cmd(engine.WillNominate, by, about),
	}
}

// toTieSpeech plays day 1 of meetingDay1 to seat 5's tie speech: 1
// nominates 5, 2 nominates 6, the vote ties.
func toTieSpeech(t *testing.T) *game {
	t.Helper()
	x := meetingDay1(t)
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6})
	x.until(engine.PhaseVote, 0)
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 6, 6: 6, 7: 6, 8: 6})
	x.wantPhase(engine.PhaseTieSpeech, 5)
	return x
}

func TestStatement_MadeOnEveryKindOfFloor(t *testing.T) {
	floors := []struct {
		name    string
		reach   func(t *testing.T) *game
		phase   engine.Phase
		speaker engine.Seat
	}{
		{"speech", func(t *testing.T) *game { return meetingDay1(t) }, engine.PhaseSpeech, 1},
		{"defence", func(t *testing.T) *game {
			x := meetingDay1(t)
			x.speechesNominating(map[engine.Seat]engine.Seat{1: 5})
			return x
		}, engine.PhaseDefence, 5},
		{"tie speech", toTieSpeech, engine.PhaseTieSpeech, 5},
		{"last words after a vote", func(t *testing.T) *game {
			x := toTieSpeech(t)
			x.until(engine.PhaseRevote, 0)
			x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5})
			return x
		}, engine.PhaseLastWords, 5},
		{"last words after the night", func(t *testing.T) *game {
			x := newGame(t, deal8)
			x.kill(1, 3)
			x.kill(2, 3)
			x.next(1)
			return x
		}, engine.PhaseLastWords, 3},
	}
	for _, f := range floors {
		t.Run(f.name, func(t *testing.T) {
			x := f.reach(t)
			x.wantPhase(f.phase, f.speaker)
			for _, c := range oneOfEach(f.speaker, 7) {
				evs := x.do(c)
				if len(evs) != 1 || evs[0].Kind != engine.EvStatement || evs[0].Phase != f.phase || evs[0].Actor != f.speaker || evs[0].Verb != c.Verb {
					t.Fatalf("%s gave %+v", cmdString(c), evs)
				}
			}
			// a statement ends nothing: the floor is still the speaker's
			x.wantPhase(f.phase, f.speaker)
			if v := x.g.SpectatorView(); v.Talk.Len() != 5 || v.Said != 5 {
				t.Fatalf("the view holds %d statements, %d on this floor; want 5", v.Talk.Len(), v.Said)
			}
		})
	}
}

func TestStatement_RefusedOffOnesOwnFloor(t *testing.T) {
	x := newGame(t, deal8)
	for _, c := range oneOfEach(3, 5) {
		x.refuse(engine.CodeWrongPhase, c) // at night
	}
	x = meetingDay1(t)
	for _, c := range oneOfEach(2, 5) {
		x.refuse(engine.CodeNotSpeaker, c) // seat 1's speech
	}
	c := claim(engine.Host, engine.Citizen)
	x.refuse(engine.CodeNoSuchSeat, c) // the host says nothing
	x.speechesNominating(map[engine.Seat]engine.Seat{1: 5, 2: 6})
	x.until(engine.PhaseDefence, 5)
	x.refuse(engine.CodeNotSpeaker, cmd(engine.Suspect, 6, 5)) // the other candidate
	x.until(engine.PhaseVote, 0)
	for _, c := range oneOfEach(1, 5) {
		x.refuse(engine.CodeWrongPhase, c)
	}
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 6, 6: 6, 7: 6, 8: 6})
	x.until(engine.PhaseRevote, 0)
	x.refuse(engine.CodeWrongPhase, claim(5, engine.Citizen))
	x.voteAndClose(map[engine.Seat]engine.Seat{1: 5, 2: 5, 3: 5, 4: 5, 5: 6, 6: 6, 7: 6, 8: 6})
	x.wantPhase(engine.PhaseAllVote, 0)
	x.refuse(engine.CodeWrongPhase, claim(5, engine.Citizen))
}

func TestStatement_RefusedAfterTheEnd(t *testing.T) {
	x := newGame(t, "don citizen citizen")
	x.kill(1, 2)
	x.next(1)
	x.wantWinner(engine.WinnerMafia)
	x.refuse(engine.CodeGameOver, claim(1, engine.Citizen))
}

func TestStatement_NamesARealSeat(t *testing.T) {
	x := meetingDay1(t)
	for _, v := range []engine.Verb{engine.Report, engine.Suspect, engine.Vouch, engine.WillNominate} {
		for _, target := range []engine.Seat{0, 9, 200} {
			c := engine.Command{Verb: v, By: 1, Target: target, Result: engine.ResultMafia}
			if e := x.refuse(engine.CodeNoSuchSeat, c); e.Seat != target || e.N != 8 {
				t.Errorf("%s refused naming seat %d of %d", cmdString(c), e.Seat, e.N)
			}
		}
	}
}

func TestStatement_NotAboutOneself(t *testing.T) {
	x := meetingDay1(t)
	x.refuse(engine.CodeReportSelf, report(1, 1, engine.ResultNotMafia))
	x.refuse(engine.CodeSuspectSelf, cmd(engine.Suspect, 1, 1))
	x.refuse(engine.CodeVouchSelf, cmd(engine.Vouch, 1, 1))
	x.refuse(engine.CodeNominateSelf, cmd(engine.WillNominate, 1, 1))
	// a claim is about oneself: that is what it is for
	x.do(claim(1, engine.Citizen))
}

func TestStatement_AboutTheDeadButNoNominationOfThem(t *testing.T) {
	x := newGame(t, deal8)
	x.kill(1, 5)
	x.kill(2, 5)
	x.check(3, 2)
	x.until(engine.PhaseSpeech, 0)
	x.wantAlive(1, 2, 3, 4, 6, 7, 8)
	sp := x.g.Speaker()
	// what a player says of the dead is talk like any other
	x.do(report(sp, 5, engine.ResultNotMafia))
	x.do(cmd(engine.Suspect, sp, 5))
	x.do(cmd(engine.Vouch, sp, 5))
	// but nobody will nominate a player who is out
	x.refuse(engine.CodeTargetOut, cmd(engine.WillNominate, sp, 5))
}

func TestStatement_ClaimNamesACard(t *testing.T) {
	x := meetingDay1(t)
	for _, r := range []engine.Role{engine.RoleNone, engine.Role(7), engine.Role(255)} {
		x.refuse(engine.CodeBadClaim, claim(1, r))
	}
	// any card may be claimed, the mafia's own too: what a player says is
	// his affair (docs/rules.md: "any role may accuse any other role")
	for _, r := range []engine.Role{engine.Citizen, engine.Detective, engine.Doctor, engine.Mafioso, engine.Don, engine.Maniac} {
		x.do(claim(1, r))
	}
}

func TestStatement_ReportGivesADetectivesAnswer(t *testing.T) {
	x := meetingDay1(t)
	for _, r := range []engine.Result{engine.ResultNone, engine.ResultDetective, engine.ResultNotDetective, engine.ResultManiac, engine.Result(9)} {
		x.refuse(engine.CodeBadResult, report(1, 4, r))
	}
	x.do(report(1, 4, engine.ResultMafia))
	x.do(report(1, 4, engine.ResultNotMafia))
	// under maniac_check=maniac the Detective's answer may be "the maniac"
	x = meetingDay1(t, "maniac_check=maniac")
	x.do(report(1, 4, engine.ResultManiac))
}

func TestStatement_LimitPerFloor(t *testing.T) {
	x := meetingDay1(t)
	for i := 0; i < engine.StatementsPerFloor; i++ {
		x.do(cmd(engine.Suspect, 1, engine.Seat(2+i%7)))
	}
	if e := x.refuse(engine.CodeTooManyStatements, cmd(engine.Vouch, 1, 3)); e.N != engine.StatementsPerFloor {
		t.Errorf("the refusal names the limit %d, want %d", e.N, engine.StatementsPerFloor)
	}
	v := x.g.ViewFor(1)
	if v.Can(engine.Claim) || v.Targets(engine.Suspect) != 0 || v.Targets(engine.Report) != 0 {
		t.Errorf("the view still offers statements past the limit")
	}
	// the limit is the floor's: the next speaker has a whole one
	x.next(1)
	x.wantPhase(engine.PhaseSpeech, 2)
	if v := x.g.ViewFor(2); v.Said != 0 || !v.Can(engine.Claim) {
		t.Errorf("the next floor starts with %d statements said", v.Said)
	}
	x.do(claim(2, engine.Doctor))
}

func TestStatement_NeitherNominatesNorEndsTheSpeech(t *testing.T) {
	x := meetingDay1(t)
	x.do(cmd(engine.WillNominate, 1, 5))
	if !x.g.MayAct(1) || x.g.Pending() != engine.SetOf(1) {
		t.Fatalf("after a statement the speaker may no longer nominate: pending %v", x.g.Pending().Seats())
	}
	if len(x.g.Candidates()) != 0 {
		t.Fatalf("a statement made a candidate: %v", x.g.Candidates())
	}
	x.nominate(1, 6) // he said 5, he nominates 6: a statement binds nobody
	x.do(claim(1, engine.Citizen))
	x.wantPhase(engine.PhaseSpeech, 1)
}

func TestStatement_LiesAreAllowed(t *testing.T) {
	// seat 5 is a citizen: he claims the Detective and reports a check he
	// never made, of the Detective, as mafia
	x := meetingDay1(t)
	x.until(engine.PhaseSpeech, 5)
	x.do(claim(5, engine.Detective))
	x.do(report(5, 3, engine.ResultMafia))
	if n := len(x.events(engine.EvStatement)); n != 2 {
		t.Fatalf("%d statements recorded, want 2", n)
	}
}

func TestStatement_InEveryViewByDay(t *testing.T) {
	x := newGame(t, deal8)
	x.kill(1, 8)
	x.kill(2, 8)
	x.next(1)
	x.wantPhase(engine.PhaseLastWords, 8)
	x.do(cmd(engine.Suspect, 8, 1)) // round 1's last words
	x.until(engine.PhaseSpeech, 1)
	x.do(claim(1, engine.Detective))
	x.do(report(1, 3, engine.ResultMafia))
	x.untilNight(2)
	x.kill(1, 7)
	x.kill(2, 7)
	x.until(engine.PhaseSpeech, 0)
	sp := x.g.Speaker()
	x.do(cmd(engine.Vouch, sp, 3))
	want := []engine.Statement{
		{Round: 1, Phase: engine.PhaseLastWords, By: 8, Verb: engine.Suspect, Target: 1},
		{Round: 1, Phase: engine.PhaseSpeech, By: 1, Verb: engine.Claim, Role: engine.Detective},
		{Round: 1, Phase: engine.PhaseSpeech, By: 1, Verb: engine.Report, Target: 3, Result: engine.ResultMafia},
		{Round: 2, Phase: engine.PhaseSpeech, By: sp, Verb: engine.Vouch, Target: 3},
	}
	views := []engine.View{x.g.SpectatorView(), x.g.HostView()}
	for s := engine.Seat(1); s <= 8; s++ {
		views = append(views, x.g.ViewFor(s)) // the dead seats' too
	}
	for i, v := range views {
		if v.Talk.Len() != len(want) {
			t.Fatalf("view %d holds %d statements, want %d", i, v.Talk.Len(), len(want))
		}
		for j, st := range want {
			if got := v.Talk.At(j); got != st {
				t.Errorf("view %d statement %d: %+v, want %+v", i, j, got, st)
			}
		}
		if d := v.Talk.Day(1); d.Len() != 3 || d.At(2) != want[2] {
			t.Errorf("view %d: day 1 holds %d statements", i, d.Len())
		}
		if d := v.Talk.Day(2); d.Len() != 1 || d.At(0) != want[3] {
			t.Errorf("view %d: day 2 holds %d statements", i, d.Len())
		}
		if d := v.Talk.Day(3); d.Len() != 0 {
			t.Errorf("view %d: day 3 holds %d statements", i, d.Len())
		}
	}
	// and the record is the log's: a game replayed holds the same
	r, err := engine.Replay(x.log)
	if err != nil {
		t.Fatal(err)
	}
	if rv := r.SpectatorView(); !rv.Talk.Equal(views[0].Talk) {
		t.Fatalf("the replayed game holds another record")
	}
}

// TestStatement_RevealsNothing plays the same statements by the same seat
// in two games that differ only in the speaker's card (and the card of the
// seat the statement is about): every event and every view's record is the
// same in both, so nothing a statement shows can depend on a hidden card.
func TestStatement_RevealsNothing(t *testing.T) {
	deals := []string{
		"don mafia detective doctor citizen citizen citizen citizen",
		"don mafia citizen doctor detective citizen citizen citizen",
		"don citizen mafia doctor citizen detective citizen citizen",
	}
	var logs [][]engine.Event
	var talks []engine.Talk
	for _, d := range deals {
		x := newGame(t, d, "first_night=meeting")
		x.next(1)
		x.until(engine.PhaseSpeech, 3)
		var evs []engine.Event
		for _, c := range oneOfEach(3, 5) {
			evs = append(evs, x.do(c)...)
		}
		logs = append(logs, evs)
		talks = append(talks, x.g.ViewFor(3).Talk)
		for s := engine.Seat(0); s <= 8; s++ {
			if v := x.g.ViewFor(s); !v.Talk.Equal(talks[0]) || v.Said != 5 {
				t.Fatalf("%s: seat %d's record differs", d, s)
			}
		}
	}
	for i := 1; i < len(deals); i++ {
		if len(logs[i]) != len(logs[0]) {
			t.Fatalf("%s: %d events, %s: %d", deals[i], len(logs[i]), deals[0], len(logs[0]))
		}
		for j := range logs[0] {
			if logs[i][j] != logs[0][j] {
				t.Errorf("%s: event %d is %+v, under %s %+v", deals[i], j, logs[i][j], deals[0], logs[0][j])
			}
		}
		if !talks[i].Equal(talks[0]) {
			t.Errorf("%s: the record differs", deals[i])
		}
	}
}

func TestStatement_ViewOffersExactlyWhatMayBeSaid(t *testing.T) {
	x := meetingDay1(t)
	v := x.g.ViewFor(1)
	all := engine.SetOf(2, 3, 4, 5, 6, 7, 8)
	for _, verb := range []engine.Verb{engine.Report, engine.Suspect, engine.Vouch, engine.WillNominate} {
		if got := v.Targets(verb); got != all {
			t.Errorf("Targets(%s) = %v, want %v", verb, got.Seats(), all.Seats())
		}
	}
	if !v.Can(engine.Claim) {
		t.Errorf("the speaker may not claim")
	}
	other := x.g.ViewFor(2)
	for _, verb := range []engine.Verb{engine.Report, engine.Suspect, engine.Vouch, engine.WillNominate} {
		if other.Targets(verb) != 0 {
			t.Errorf("seat 2 is offered %s in seat 1's speech", verb)
		}
	}
	if other.Can(engine.Claim) {
		t.Errorf("seat 2 may claim in seat 1's speech")
	}
	if sp := x.g.SpectatorView(); sp.Can(engine.Claim) || sp.Targets(engine.Suspect) != 0 {
		t.Errorf("a spectator is offered statements")
	}
}

// TestStatement_RecordIsNeverChangedUnderItsHolder: a view's record keeps
// what it held while the game goes on, and a clone that talks on does not
// change the original's (nor the original the clone's): each appends to
// its own part.
func TestStatement_RecordIsNeverChangedUnderItsHolder(t *testing.T) {
	x := meetingDay1(t)
	x.do(claim(1, engine.Detective))
	early := x.g.SpectatorView().Talk
	c := x.g.Clone()
	if _, err := c.Handle(claim(1, engine.Doctor)); err != nil {
		t.Fatal(err)
	}
	x.do(claim(1, engine.Citizen))
	x.do(cmd(engine.Suspect, 1, 4))
	if _, err := c.Handle(cmd(engine.Vouch, 1, 2)); err != nil {
		t.Fatal(err)
	}
	if early.Len() != 1 || early.At(0).Role != engine.Detective {
		t.Fatalf("the early view's record changed: %d statements", early.Len())
	}
	mine, theirs := x.g.SpectatorView().Talk, c.SpectatorView().Talk
	if mine.Len() != 3 || mine.At(1).Role != engine.Citizen || mine.At(2).Verb != engine.Suspect {
		t.Errorf("the game's record: %d statements, %+v", mine.Len(), mine.At(1))
	}
	if theirs.Len() != 3 || theirs.At(1).Role != engine.Doctor || theirs.At(2).Verb != engine.Vouch {
		t.Errorf("the clone's record: %d statements, %+v", theirs.Len(), theirs.At(1))
	}
	if mine.Equal(theirs) || !mine.Day(1).Equal(mine) || mine.Day(2).Len() != 0 {
		t.Errorf("Equal or Day is wrong")
	}
}
