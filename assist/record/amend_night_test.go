package record_test

import (
	"errors"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
)

// nightEvent finds the first event of kind by actor on night 1.
func nightEvent(log []engine.Event, kind engine.EventKind, actor engine.Seat) *engine.Event {
	for i, e := range log {
		if e.Kind == kind && e.Actor == actor && e.Round == 1 {
			return &log[i]
		}
	}
	return nil
}

// TestADoctorsSaveCorrectionLetsTheVictimLive: the Doctor's save was
// entered for 3; the referee says the Doctor saved 1, the Don's victim.
// The replay has nobody out on night 1 and 1 alive; the day's entries
// that still fit are kept, the first that does not is dropped with why.
func TestADoctorsSaveCorrectionLetsTheVictimLive(t *testing.T) {
	s := settings7()
	cmds := hosttest.TieDay(t, s, "d", 3, map[int][]int{3: {2, 5}, 4: {6, 7}}, nil, nil)
	if got := outs(replayLog(t, s, cmds)); len(got) == 0 || got[0] != 1 {
		t.Fatalf("before the correction out: %v, want 1 first (the test proves nothing)", got)
	}
	fix, reached, err := record.NightMove(s, cmds, 1, engine.Doctor, 1)
	if err != nil || !reached || fix.Insert || cmds[fix.At].Verb != "heal" {
		t.Fatalf("the save's place: %+v, %v, %v", fix, reached, err)
	}
	a, err := record.Amend(s, cmds, fix)
	if err != nil {
		t.Fatal(err)
	}
	g, log, err := record.Replay(s, a.Commands)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Alive().Has(1) || len(outs(log)) > 0 && outs(log)[0] == 1 {
		t.Fatalf("seat 1 is out after the save: %v", outs(log))
	}
	if h := nightEvent(log, engine.EvHealed, 6); h == nil || h.Target != 1 {
		t.Fatalf("the save: %+v", h)
	}
	if a.Kept+len(a.Dropped)+len(a.Replaced)+a.From != len(cmds) {
		t.Fatalf("kept %d + dropped %d + replaced %d from %d, want all %d entries", a.Kept, len(a.Dropped), len(a.Replaced), a.From, len(cmds))
	}
}

// TestADetectivesCheckCorrectionChangesTheAnswer: the Detective's check
// of 2 (the Don: mafia) becomes a check of 3 (a citizen); the morning's
// entries all still fit.
func TestADetectivesCheckCorrectionChangesTheAnswer(t *testing.T) {
	s := settings7()
	cmds := hosttest.TieDay(t, s, "c", 0, map[int][]int{3: {2, 5}, 4: {6, 7}}, nil, nil)
	if c := nightEvent(replayLog(t, s, cmds), engine.EvChecked, 5); c == nil || c.Target != 2 {
		t.Fatalf("before the correction the check: %+v (the test proves nothing)", c)
	}
	fix, reached, err := record.NightMove(s, cmds, 1, engine.Detective, 3)
	if err != nil || !reached {
		t.Fatal(reached, err)
	}
	a, err := record.Amend(s, cmds, fix)
	if err != nil || len(a.Dropped) != 0 {
		t.Fatalf("%v; dropped %v", err, a)
	}
	c := nightEvent(replayLog(t, s, a.Commands), engine.EvChecked, 5)
	if c == nil || c.Target != 3 || c.Result != engine.ResultNotMafia {
		t.Fatalf("the check after the correction: %+v, want 3: town", c)
	}
}

// TestADonsCheckNotEnteredIsInsertedBeforeTheNightEnds: the Don's check
// was not entered on night 1; the correction goes before the entry that
// ended the night (an insertion) and every entry is kept.
func TestADonsCheckNotEnteredIsInsertedBeforeTheNightEnds(t *testing.T) {
	s := settings7()
	cmds := hosttest.TieDay(t, s, "n", 0, map[int][]int{3: {2, 5}, 4: {6, 7}}, nil, nil)
	fix, reached, err := record.NightMove(s, cmds, 1, engine.Don, 5)
	if err != nil || !reached || !fix.Insert || cmds[fix.At].Verb != "next" {
		t.Fatalf("the Don's check goes at %+v (%v, %v), want before night 1's next", fix, reached, err)
	}
	a, err := record.Amend(s, cmds, fix)
	if err != nil || len(a.Dropped) != 0 || a.Kept != len(cmds)-fix.At {
		t.Fatalf("%v; %+v", err, a)
	}
	c := nightEvent(replayLog(t, s, a.Commands), engine.EvChecked, 2)
	if c == nil || c.Target != 5 || c.Result != engine.ResultDetective {
		t.Fatalf("the Don's check: %+v, want 5: the Detective", c)
	}
}

// TestNightMoveCorrectionsThatDoNotFitAreRefused: a card the deal does
// not hold, the Detective checking themself, the Don's check taken back,
// and a night the game has not finished.
func TestNightMoveCorrectionsThatDoNotFitAreRefused(t *testing.T) {
	s := settings7()
	cmds := hosttest.TieDay(t, s, "x", 0, map[int][]int{3: {2, 5}, 4: {6, 7}}, nil, nil)
	var e *engine.Error
	if _, _, err := record.NightMove(s, cmds, 1, engine.Maniac, 3); !errors.As(err, &e) || e.Code != record.CodeNoSuchCard {
		t.Fatalf("the maniac: %v, want %s", err, record.CodeNoSuchCard)
	}
	if _, _, err := record.NightMove(s, cmds, 1, engine.Don, 0); err == nil {
		t.Fatal("the Don's check taken back is accepted")
	}
	fix, _, err := record.NightMove(s, cmds, 1, engine.Detective, 5)
	if err != nil {
		t.Fatal(err)
	}
	var fit *record.FitError
	if _, err := record.Amend(s, cmds, fix); !errors.As(err, &fit) || !errors.As(fit.Err, &e) || e.Code != engine.CodeCheckSelf {
		t.Fatalf("the Detective checks themself: %v, want a FitError of %s", err, engine.CodeCheckSelf)
	}
	if _, reached, err := record.NightMove(s, cmds, 2, engine.Doctor, 3); reached || err != nil {
		t.Fatalf("night 2 (not over): reached %v, %v", reached, err)
	}
}
