package record_test

import (
	"errors"
	"testing"

	"mafia/assist/record"
	"mafia/engine"
)

// outs returns the seats the game's log puts out, in order.
func outs(log []engine.Event) []engine.Seat {
	var out []engine.Seat
	for _, e := range log {
		if e.Kind == engine.EvPlayerOut {
			out = append(out, e.Target)
		}
	}
	return out
}

// TestAmendReplacesTheNightShotAndKeepsWhatStillFits: scenario 01's Don
// shot seat 4 (healed); a referee says it was seat 5. The new list shoots
// 5, who is out in the morning; the later entries are re-applied in order
// (the night's checks and heal, the day's nominations) until one no longer
// fits (a day with last words has one step more), and the rest are the
// dropped ones, in order.
func TestAmendReplacesTheNightShotAndKeepsWhatStillFits(t *testing.T) {
	s, cmds, _ := fromScenario(t, "01-town-wins-by-vote.json")
	at, found, err := record.NightShot(s, cmds, 1)
	if err != nil || !found || at != 0 {
		t.Fatalf("the night shot is at %d (found %v, %v), want 0", at, found, err)
	}
	a, err := record.Amend(s, cmds, record.Amendment{At: at, With: []record.Command{{ID: "fix", Verb: "kill", By: 1, Target: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Kept < 4 || a.Kept+len(a.Dropped) != len(cmds)-1 || a.From != 0 || len(a.Replaced) != 1 || a.Replaced[0].Target != 4 {
		t.Fatalf("amended: kept %d of %d, dropped %v, replaced %v", a.Kept, len(cmds)-1, a.Dropped, a.Replaced)
	}
	for i, c := range a.Dropped {
		if c.ID != cmds[1+a.Kept+i].ID {
			t.Fatalf("dropped %d is %s, want %s", i, c.ID, cmds[1+a.Kept+i].ID)
		}
	}
	for i, c := range a.Commands {
		if c.Seq != i {
			t.Fatalf("entry %d has place %d", i, c.Seq)
		}
	}
	_, log, err := record.Replay(s, a.Commands)
	if err != nil {
		t.Fatal(err)
	}
	if got := outs(log); len(got) == 0 || got[0] != 5 {
		t.Fatalf("out after the correction: %v, want 5 first", got)
	}
	_, before, _ := record.Replay(s, cmds)
	if got := outs(before); len(got) > 0 && got[0] == 5 {
		t.Fatal("the scenario already shot 5: the test proves nothing")
	}
}

// TestAmendStopsAtTheFirstLaterEntryThatNoLongerFits: if the Don shot the
// detective (seat 2), the detective's nomination on day 1 is refused (they
// are out): it and every entry after it are dropped, the refusal is the
// engine's, and the entries kept replay whole.
func TestAmendStopsAtTheFirstLaterEntryThatNoLongerFits(t *testing.T) {
	s, cmds, _ := fromScenario(t, "01-town-wins-by-vote.json")
	a, err := record.Amend(s, cmds, record.Amendment{At: 0, With: []record.Command{{ID: "fix", Verb: "kill", By: 1, Target: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Dropped) == 0 || a.Dropped[0].Verb != "nominate" || a.Dropped[0].By != 2 || a.Refusal == nil {
		t.Fatalf("dropped %v (refusal %v), want the nomination by 2 first", a.Dropped, a.Refusal)
	}
	var e *engine.Error
	if !errors.As(a.Refusal, &e) || e.Code == "" {
		t.Fatalf("the refusal %v is not the engine's", a.Refusal)
	}
	if 1+a.Kept+len(a.Dropped) != len(cmds) || len(a.Commands) != 1+a.Kept {
		t.Fatalf("kept %d + dropped %d + 1 != %d entries", a.Kept, len(a.Dropped), len(cmds))
	}
	if _, _, err := record.Replay(s, a.Commands); err != nil {
		t.Fatalf("the entries kept do not replay: %v", err)
	}
}

// TestAmendRefusesWhatNamesNoActionOrDoesNotFit: a place out of range, one
// inside an action, an undo, and a correction the engine refuses (a
// citizen cannot shoot) are refused, coded; the list is not written.
func TestAmendRefusesWhatNamesNoActionOrDoesNotFit(t *testing.T) {
	s, cmds, _ := fromScenario(t, "01-town-wins-by-vote.json")
	undone := append(append([]record.Command(nil), cmds[:3]...), record.Command{ID: "u", Seq: 3, Verb: record.VerbUndo, Undo: 2})
	kill := []record.Command{{ID: "fix", Verb: "kill", By: 1, Target: 5}}
	for _, tc := range []struct {
		name string
		cmds []record.Command
		a    record.Amendment
		code engine.Code
	}{
		{"before the first entry", cmds, record.Amendment{At: -1, With: kill}, record.CodeNoSuchEntry},
		{"past the last entry", cmds, record.Amendment{At: len(cmds), With: kill}, record.CodeNoSuchEntry},
		{"an undo", undone, record.Amendment{At: 3, With: kill}, record.CodeNoSuchEntry},
		{"an entry an undo took back", undone, record.Amendment{At: 2, With: kill}, record.CodeNoSuchEntry},
		{"a citizen's shot", cmds, record.Amendment{At: 0, With: []record.Command{{ID: "fix", Verb: "kill", By: 4, Target: 5}}}, record.CodeFixDoesNotFit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			was := append([]record.Command(nil), tc.cmds...)
			_, err := record.Amend(s, tc.cmds, tc.a)
			var e *engine.Error
			var fit *record.FitError
			switch {
			case tc.code == record.CodeFixDoesNotFit && !errors.As(err, &fit):
				t.Fatalf("got %v, want a FitError", err)
			case tc.code != record.CodeFixDoesNotFit && (!errors.As(err, &e) || e.Code != tc.code):
				t.Fatalf("got %v, want %s", err, tc.code)
			}
			for i := range was {
				if was[i] != tc.cmds[i] {
					t.Fatal("the list was written")
				}
			}
		})
	}
}
