package engine_test

import (
	"testing"

	"mafia/engine"
)

// Tests of docs/rules.md "Night": the mafia's kill, the checks, the maniac's
// shots, the doctor's heals, and how they take effect together.

// deal7: 1 don, 2 mafioso, 3 detective, 4 doctor, 5..7 citizens.
const deal7 = "don mafia detective doctor citizen citizen citizen"

// deal9: 1 don, 2 and 3 mafiosi, 4 detective, 5 doctor, 6..9 citizens.
const deal9 = "don mafia mafia detective doctor citizen citizen citizen citizen"

// deal8m: 1 don, 2 mafioso, 3 maniac, 4 detective, 5 doctor, 6..8 citizens.
const deal8m = "don mafia maniac detective doctor citizen citizen citizen"

// nightEnd ends the night and returns the night's victims.
func (x *game) nightEnd() []engine.Seat {
	x.t.Helper()
	if x.g.Phase() != engine.PhaseNight {
		x.t.Fatalf("nightEnd in phase %s", x.g.Phase())
	}
	for _, e := range x.next(1) {
		if e.Kind == engine.EvNightEnded {
			return e.Set.Seats()
		}
	}
	x.t.Fatalf("no night_ended event")
	return nil
}

func TestMafiaKill_SeniorWins(t *testing.T) {
	t.Run("the don names after a mafioso", func(t *testing.T) {
		x := newGame(t, deal9)
		x.kill(2, 6)
		x.kill(3, 7)
		x.kill(1, 8)
		if got := x.nightEnd(); !sameSeats(got, seats(8)) {
			t.Fatalf("victims %v, want [8] (the don's choice)", got)
		}
	})
	t.Run("the don names before the mafiosi", func(t *testing.T) {
		x := newGame(t, deal9)
		x.kill(1, 8)
		x.kill(2, 6)
		x.kill(3, 7)
		if got := x.nightEnd(); !sameSeats(got, seats(8)) {
			t.Fatalf("victims %v, want [8] (the don's choice stands over later ones)", got)
		}
	})
	t.Run("the don is senior though he sits after his mafiosi", func(t *testing.T) {
		x := newGame(t, "mafia mafia don detective doctor citizen citizen citizen citizen")
		x.kill(3, 8)
		x.kill(1, 6)
		x.kill(2, 7)
		if got := x.nightEnd(); !sameSeats(got, seats(8)) {
			t.Fatalf("victims %v, want [8] (the don's choice)", got)
		}
	})
	t.Run("with the don out the lowest living mafioso is senior", func(t *testing.T) {
		x := newGame(t, deal9, "foul_limit=1")
		x.foul(1) // the don leaves
		x.kill(2, 6)
		x.kill(3, 7)
		if got := x.nightEnd(); !sameSeats(got, seats(6)) {
			t.Fatalf("victims %v, want [6] (seat 2 is senior once the don is out)", got)
		}
	})
	t.Run("the senior's skip is a miss", func(t *testing.T) {
		x := newGame(t, deal9)
		x.kill(2, 6)
		x.skip(1)
		if got := x.nightEnd(); len(got) != 0 {
			t.Fatalf("victims %v, want none (the senior named nobody)", got)
		}
	})
}

func TestMafiaKill_LatestChoiceStandsUntilSeniorChooses(t *testing.T) {
	t.Run("the latest of the mafiosi", func(t *testing.T) {
		x := newGame(t, deal9)
		x.kill(3, 7)
		x.kill(2, 6)
		if got := x.nightEnd(); !sameSeats(got, seats(6)) {
			t.Fatalf("victims %v, want [6] (the latest choice)", got)
		}
	})
	t.Run("the latest, in the other order", func(t *testing.T) {
		x := newGame(t, deal9)
		x.kill(2, 6)
		x.kill(3, 7)
		if got := x.nightEnd(); !sameSeats(got, seats(7)) {
			t.Fatalf("victims %v, want [7] (the latest choice)", got)
		}
	})
	t.Run("the senior's choice replaces the standing one", func(t *testing.T) {
		x := newGame(t, deal9)
		x.kill(2, 6)
		x.kill(1, 9)
		x.kill(3, 7)
		if got := x.nightEnd(); !sameSeats(got, seats(9)) {
			t.Fatalf("victims %v, want [9]", got)
		}
	})
	t.Run("nobody named: a miss", func(t *testing.T) {
		x := newGame(t, deal9)
		if got := x.nightEnd(); len(got) != 0 {
			t.Fatalf("victims %v, want none", got)
		}
	})
	// The rulebook is silent on a non-senior mafioso's skip after a
	// teammate named someone; the engine's choice: a skip names nobody and
	// is not a choice, so the teammate's choice stands.
	t.Run("a non-senior's skip does not cancel a teammate's choice", func(t *testing.T) {
		x := newGame(t, deal9)
		x.kill(2, 6)
		x.skip(3)
		if got := x.nightEnd(); !sameSeats(got, seats(6)) {
			t.Fatalf("victims %v, want [6]", got)
		}
	})
}

func TestMafiaKill_Unanimous(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kills [][2]engine.Seat // by, target
		want  []engine.Seat
	}{
		{"all name the same player", [][2]engine.Seat{{1, 6}, {2, 6}, {3, 6}}, seats(6)},
		{"one names another player: a miss", [][2]engine.Seat{{1, 6}, {2, 6}, {3, 7}}, nil},
		{"the don differs: a miss", [][2]engine.Seat{{1, 7}, {2, 6}, {3, 6}}, nil},
		{"one names nobody: a miss", [][2]engine.Seat{{1, 6}, {2, 6}}, nil},
		{"nobody names: a miss", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := newGame(t, deal9, "mafia_kill=unanimous")
			for _, k := range tc.kills {
				x.kill(k[0], k[1])
			}
			if got := x.nightEnd(); !sameSeats(got, tc.want) {
				t.Fatalf("victims %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("only the living mafiosi count", func(t *testing.T) {
		x := newGame(t, deal9, "mafia_kill=unanimous", "foul_limit=1")
		x.foul(3)
		x.kill(1, 6)
		x.kill(2, 6)
		if got := x.nightEnd(); !sameSeats(got, seats(6)) {
			t.Fatalf("victims %v, want [6]", got)
		}
	})
}

func TestMafiaKill_Refusals(t *testing.T) {
	x := newGame(t, deal9)
	x.refuse(engine.CodeTargetIsMafia, cmd(engine.Kill, 2, 3))
	x.refuse(engine.CodeTargetIsMafia, cmd(engine.Kill, 1, 1))
	x.refuse(engine.CodeNotYourRole, cmd(engine.Kill, 4, 6))
	x.refuse(engine.CodeNotYourRole, cmd(engine.Kill, 6, 7))
	x.refuse(engine.CodeNoSuchSeat, cmd(engine.Kill, 1, 10))
	x.refuse(engine.CodeNoSuchSeat, cmd(engine.Kill, 1, 0))
	x.refuse(engine.CodeNoSuchSeat, cmd(engine.Kill, 10, 6))
	x.kill(2, 6)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Kill, 2, 7))
	x.skip(3)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Kill, 3, 7))
	x.nightEnd()
	x.until(engine.PhaseSpeech, 0)
	x.refuse(engine.CodeWrongPhase, cmd(engine.Kill, 1, 7))
	x.untilNight(2)
	x.refuse(engine.CodeActorOut, cmd(engine.Kill, 6, 7))
	x.refuse(engine.CodeTargetOut, cmd(engine.Kill, 1, 6))
}

func TestDoctorRepeat_OncePerGame(t *testing.T) {
	x := newGame(t, deal7)
	x.kill(1, 5)
	x.heal(4, 5)
	if got := x.nightEnd(); len(got) != 0 {
		t.Fatalf("victims %v, want none: the doctor saved seat 5", got)
	}
	x.untilNight(2)
	e := x.refuse(engine.CodeAlreadyHealed, cmd(engine.Heal, 4, 5))
	if e.Target != 5 {
		t.Errorf("refusal names target %d, want 5", e.Target)
	}
	x.heal(4, 4) // himself, once
	x.untilNight(3)
	x.refuse(engine.CodeAlreadyHealed, cmd(engine.Heal, 4, 4))
	x.refuse(engine.CodeAlreadyHealed, cmd(engine.Heal, 4, 5)) // not only the night after
	x.heal(4, 6)
}

func TestDoctorRepeat_OncePerGame_HealSpentWhenNobodyWasAttacked(t *testing.T) {
	x := newGame(t, deal7)
	x.skip(1)
	x.heal(4, 6)
	x.nightEnd()
	x.untilNight(2)
	x.refuse(engine.CodeAlreadyHealed, cmd(engine.Heal, 4, 6))
	v := x.g.ViewFor(4)
	if v.Targets(engine.Heal).Has(6) {
		t.Errorf("the doctor's view offers seat 6 again")
	}
}

func TestDoctorRepeat_NotTwiceInARow(t *testing.T) {
	x := newGame(t, deal7, "doctor_repeat=not_twice_in_a_row")
	x.heal(4, 5)
	x.nightEnd()
	x.untilNight(2)
	e := x.refuse(engine.CodeHealedLastNight, cmd(engine.Heal, 4, 5))
	if e.Target != 5 {
		t.Errorf("refusal names target %d, want 5", e.Target)
	}
	if v := x.g.ViewFor(4); v.HealBanned != 5 || v.Targets(engine.Heal).Has(5) {
		t.Errorf("doctor's view: HealBanned %d, targets %v", v.HealBanned, v.Targets(engine.Heal).Seats())
	}
	x.heal(4, 4)
	x.nightEnd()
	x.untilNight(3)
	x.refuse(engine.CodeHealedLastNight, cmd(engine.Heal, 4, 4)) // himself included
	x.heal(4, 5)                                                 // healed two nights ago: allowed again
	x.nightEnd()
	x.untilNight(4)
	x.skip(4) // a night without a heal
	x.nightEnd()
	x.untilNight(5)
	x.heal(4, 5) // the last heal was two nights ago
}

func TestDoctor_OneHealSavesFromBothShots(t *testing.T) {
	x := newGame(t, deal8m, "first_night=meeting")
	x.untilNight(2)
	x.kill(1, 6)
	x.shoot(3, 6)
	x.heal(5, 6)
	if got := x.nightEnd(); len(got) != 0 {
		t.Fatalf("victims %v, want none", got)
	}
	x.wantAlive(1, 2, 3, 4, 5, 6, 7, 8)
}

func TestNight_ActionsTakeEffectTogether(t *testing.T) {
	x := newGame(t, deal8m, "first_night=meeting")
	x.untilNight(2)
	x.kill(1, 4)  // the detective
	x.check(4, 1) // killed tonight, still acts tonight
	x.shoot(3, 5) // the doctor
	x.heal(5, 7)  // killed tonight, still acts tonight
	if got := x.nightEnd(); !sameSeats(got, seats(4, 5)) {
		t.Fatalf("victims %v, want [4 5]", got)
	}
	x.wantAlive(1, 2, 3, 6, 7, 8)
}

func TestNight_KilledRoleStillActsThatNight(t *testing.T) {
	x := newGame(t, deal7)
	x.kill(1, 4) // the doctor
	x.heal(4, 4) // heals himself: saved
	if got := x.nightEnd(); len(got) != 0 {
		t.Fatalf("victims %v, want none", got)
	}
}

func TestNight_OutBeforeTheNightDoesNotAct(t *testing.T) {
	x := newGame(t, deal7)
	x.kill(1, 3) // the detective
	x.nightEnd()
	x.untilNight(2)
	x.refuse(engine.CodeActorOut, cmd(engine.Check, 3, 1))
	x.refuse(engine.CodeActorOut, cmd(engine.Skip, 3, 0))
	if x.g.Pending().Has(3) {
		t.Errorf("a dead detective is pending")
	}
}

func TestNight_EachRoleActsOncePerNight(t *testing.T) {
	x := newGame(t, deal8m, "first_night=meeting")
	x.untilNight(2)
	x.check(1, 4)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Check, 1, 5))
	x.check(4, 1)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Check, 4, 2))
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Skip, 4, 0))
	x.heal(5, 6)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Heal, 5, 7))
	x.shoot(3, 7)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Shoot, 3, 8))
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Skip, 3, 0))
	// The don has checked and not yet named: he may still name, or skip.
	x.kill(1, 8)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Skip, 1, 0))
	x.skip(2)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Skip, 2, 0))
	if p := x.g.Pending(); p != 0 {
		t.Errorf("pending %v after every role acted", p.Seats())
	}
}

func TestNight_SkipEndsTheNightForTheActor(t *testing.T) {
	x := newGame(t, deal8m, "first_night=meeting")
	x.untilNight(2)
	x.skip(1) // the don: no kill and no check tonight
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Check, 1, 4))
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Kill, 1, 4))
	x.skip(4)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Check, 4, 1))
	x.skip(5)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Heal, 5, 6))
	x.skip(3)
	x.refuse(engine.CodeAlreadyActed, cmd(engine.Shoot, 3, 6))
	x.refuse(engine.CodeNotYourRole, cmd(engine.Skip, 6, 0))
}

func TestNight_NobodyChecksOrShootsThemselves(t *testing.T) {
	x := newGame(t, deal8m, "first_night=meeting")
	x.untilNight(2)
	x.refuse(engine.CodeCheckSelf, cmd(engine.Check, 1, 1))
	x.refuse(engine.CodeCheckSelf, cmd(engine.Check, 4, 4))
	x.refuse(engine.CodeShootSelf, cmd(engine.Shoot, 3, 3))
	x.refuse(engine.CodeNotYourRole, cmd(engine.Check, 2, 4)) // a plain mafioso does not check
	x.refuse(engine.CodeNotYourRole, cmd(engine.Heal, 4, 4))
	x.refuse(engine.CodeNotYourRole, cmd(engine.Shoot, 1, 4))
	x.heal(5, 5) // the doctor may heal himself
}

func TestManiac_ShootsFromNightTwo(t *testing.T) {
	x := newGame(t, deal8m)
	x.refuse(engine.CodeManiacNightOne, cmd(engine.Shoot, 3, 6))
	if x.g.Pending().Has(3) {
		t.Errorf("the maniac is pending on night 1")
	}
	x.skip(3) // "I do nothing tonight" is allowed on night 1
	x.nightEnd()
	x.untilNight(2)
	x.shoot(3, 6)
	if got := x.nightEnd(); !sameSeats(got, seats(6)) {
		t.Fatalf("victims %v, want [6]", got)
	}
}

func TestManiac_TwoShotsPerGame_SpentEvenWhenHealed(t *testing.T) {
	x := newGame(t, deal8m, "first_night=meeting")
	x.untilNight(2)
	x.shoot(3, 6)
	x.heal(5, 6)
	if got := x.nightEnd(); len(got) != 0 {
		t.Fatalf("victims %v, want none", got)
	}
	if v := x.g.ViewFor(3); v.ShotsLeft != 1 {
		t.Errorf("shots left %d after a saved shot, want 1", v.ShotsLeft)
	}
	x.untilNight(3)
	x.skip(3) // skipping spends nothing
	x.nightEnd()
	x.untilNight(4)
	x.shoot(3, 7)
	x.nightEnd()
	x.untilNight(5)
	e := x.refuse(engine.CodeNoShotsLeft, cmd(engine.Shoot, 3, 8))
	if e.N != 2 {
		t.Errorf("no_shots_left N = %d, want 2", e.N)
	}
	if x.g.Pending().Has(3) {
		t.Errorf("a maniac with no shots left is pending")
	}
}

// checkAnswer plays night 2 of a meeting-night game and returns the answer.
func checkAnswer(t *testing.T, deal string, by, target engine.Seat, opts ...string) engine.Result {
	t.Helper()
	x := newGame(t, deal, append([]string{"first_night=meeting"}, opts...)...)
	x.untilNight(2)
	return x.check(by, target)
}

func TestCheck_Answers(t *testing.T) {
	for _, tc := range []struct {
		name       string
		by, target engine.Seat
		want       engine.Result
	}{
		{"detective checks the don: mafia", 4, 1, engine.ResultMafia},
		{"detective checks a mafioso: mafia", 4, 2, engine.ResultMafia},
		{"detective checks the doctor: not mafia", 4, 5, engine.ResultNotMafia},
		{"detective checks a citizen: not mafia", 4, 6, engine.ResultNotMafia},
		{"don checks the detective: detective", 1, 4, engine.ResultDetective},
		{"don checks a mafioso: not detective", 1, 2, engine.ResultNotDetective},
		{"don checks the doctor: not detective", 1, 5, engine.ResultNotDetective},
		{"don checks the maniac: not detective", 1, 3, engine.ResultNotDetective},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkAnswer(t, deal8m, tc.by, tc.target); got != tc.want {
				t.Errorf("answer %s, want %s", got, tc.want)
			}
		})
	}
}

func TestManiacCheck_NotMafia(t *testing.T) {
	if got := checkAnswer(t, deal8m, 4, 3); got != engine.ResultNotMafia {
		t.Errorf("default: detective checks the maniac: %s, want not_mafia", got)
	}
	if got := checkAnswer(t, deal8m, 4, 3, "maniac_check=not_mafia"); got != engine.ResultNotMafia {
		t.Errorf("maniac_check=not_mafia: %s, want not_mafia", got)
	}
}

func TestManiacCheck_Mafia(t *testing.T) {
	if got := checkAnswer(t, deal8m, 4, 3, "maniac_check=mafia"); got != engine.ResultMafia {
		t.Errorf("detective checks the maniac: %s, want mafia", got)
	}
	if got := checkAnswer(t, deal8m, 1, 3, "maniac_check=mafia"); got != engine.ResultNotDetective {
		t.Errorf("the don's answer does not depend on maniac_check: %s", got)
	}
	if got := checkAnswer(t, deal8m, 4, 6, "maniac_check=mafia"); got != engine.ResultNotMafia {
		t.Errorf("a citizen still shows not mafia: %s", got)
	}
}

func TestManiacCheck_Maniac(t *testing.T) {
	if got := checkAnswer(t, deal8m, 4, 3, "maniac_check=maniac"); got != engine.ResultManiac {
		t.Errorf("detective checks the maniac: %s, want maniac", got)
	}
	if got := checkAnswer(t, deal8m, 1, 3, "maniac_check=maniac"); got != engine.ResultNotDetective {
		t.Errorf("the don's answer does not depend on maniac_check: %s", got)
	}
	if got := checkAnswer(t, deal8m, 4, 2, "maniac_check=maniac"); got != engine.ResultMafia {
		t.Errorf("a mafioso still shows mafia: %s", got)
	}
}

func TestCheck_AnswerOnlyToTheChecker(t *testing.T) {
	x := newGame(t, deal8m, "first_night=meeting")
	x.untilNight(2)
	evs := x.act(engine.Check, 4, 1)
	var checked engine.Event
	for _, e := range evs {
		if e.Kind == engine.EvChecked {
			checked = e
		}
	}
	for s := engine.Seat(0); s <= 8; s++ {
		_, ok := x.g.EventFor(checked, s)
		if ok != (s == 4) {
			t.Errorf("seat %d sees the detective's answer: %v", s, ok)
		}
		v := x.g.ViewFor(s)
		if (v.Checks[1] != engine.ResultNone) != (s == 4) {
			t.Errorf("seat %d's view holds the answer about seat 1: %s", s, v.Checks[1])
		}
	}
}

func TestFirstNight_Meeting(t *testing.T) {
	x := newGame(t, deal8m, "first_night=meeting")
	if p := x.g.Pending(); p != 0 {
		t.Errorf("pending on the meeting night: %v", p.Seats())
	}
	x.refuse(engine.CodeMeetingNight, cmd(engine.Kill, 1, 6))
	x.refuse(engine.CodeMeetingNight, cmd(engine.Check, 1, 4))
	x.refuse(engine.CodeMeetingNight, cmd(engine.Check, 4, 1))
	x.refuse(engine.CodeMeetingNight, cmd(engine.Heal, 5, 6))
	x.refuse(engine.CodeMeetingNight, cmd(engine.Skip, 2, 0))
	x.refuse(engine.CodeMeetingNight, cmd(engine.Skip, 3, 0))
	for s := engine.Seat(1); s <= 8; s++ {
		v := x.g.ViewFor(s)
		for _, verb := range []engine.Verb{engine.Kill, engine.Check, engine.Shoot, engine.Heal, engine.Skip} {
			if v.Can(verb) {
				t.Errorf("seat %d may %s on the meeting night", s, verb)
			}
		}
	}
	if got := x.nightEnd(); len(got) != 0 {
		t.Fatalf("victims %v on the meeting night", got)
	}
	x.wantPhase(engine.PhaseSpeech, 1)
	x.wantAlive(1, 2, 3, 4, 5, 6, 7, 8)
	x.untilNight(2)
	x.kill(1, 6)
	x.shoot(3, 7) // the maniac shoots on night 2, his first acting night
	if got := x.nightEnd(); !sameSeats(got, seats(6, 7)) {
		t.Fatalf("victims %v, want [6 7]", got)
	}
}

func TestFirstNight_Full(t *testing.T) {
	x := newGame(t, deal7)
	if p := x.g.Pending(); p != engine.SetOf(1, 2, 3, 4) {
		t.Errorf("pending on night 1: %v, want [1 2 3 4]", p.Seats())
	}
	x.kill(1, 6)
	if got := x.nightEnd(); !sameSeats(got, seats(6)) {
		t.Fatalf("victims %v, want [6]", got)
	}
}
