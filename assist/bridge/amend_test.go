package bridge_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"mafia/assist/bridge"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/engine"
)

// TestAmendWorksOutTheCorrectionWithoutApplyingIt: the page's engine works
// out the mafia's shot of night 1 at seat 1 instead of 7 (seat 1's
// nomination in their speech no longer fits) (the new list, the first
// place changed, what is kept and what no longer fits, narrated) and
// leaves the page's game as it was; a night not yet over is refused in the
// page's language.
func TestAmendWorksOutTheCorrectionWithoutApplyingIt(t *testing.T) {
	b := bridge.New()
	if r := decode(t, b.Start(settings, `[{"id":"a","seq":0,"verb":"kill","by":2,"target":7},{"id":"b","seq":1,"verb":"check","by":5,"target":3},
		{"id":"c","seq":2,"verb":"next"},{"id":"d","seq":3,"verb":"next"},{"id":"e","seq":4,"verb":"nominate","by":1,"target":4}]`)); r.Error != nil {
		t.Fatalf("the game: %+v", r.Error)
	}
	before := b.State()
	var a bridge.AmendReply
	if err := json.Unmarshal([]byte(b.Amend(`{"kind":"shot","round":1,"seat":1}`)), &a); err != nil {
		t.Fatal(err)
	}
	if a.Error != nil || a.From != 0 || len(a.Commands) == 0 || a.Commands[0].Target != 1 || a.Commands[0].ID != "" || a.Commands[1].ID != "b" {
		t.Fatalf("amended: %+v", a)
	}
	ids := []string{}
	for _, c := range a.Commands {
		ids = append(ids, c.ID)
	}
	if a.Kept+1 != len(a.Commands) || slices.Contains(ids, "a") {
		t.Fatalf("kept %d, list %v", a.Kept, ids)
	}
	t.Logf("dropped %q because %s", a.Dropped, a.Reason)
	if a.Kept+1+len(a.Dropped) != 5 || len(a.Dropped) != 1 || !strings.HasPrefix(a.Dropped[0], "Entry 5:") || a.Reason == "" {
		t.Fatalf("dropped %q (%s), kept %d", a.Dropped, a.Reason, a.Kept)
	}
	if a.Reason != "Seat 1 is out of the game by then." {
		t.Errorf("the reason reads %q, want the host's wording (seat 1, not you)", a.Reason)
	}
	if b.State() != before {
		t.Fatal("working out a correction changed the page's game")
	}
	b.SetLang("ru")
	if err := json.Unmarshal([]byte(b.Amend(`{"kind":"shot","round":1,"seat":1}`)), &a); err != nil || a.Reason != "Игрок №1 к этому моменту уже выбыл из игры." {
		t.Errorf("the reason in Russian reads %q (%v)", a.Reason, err)
	}
	b.SetLang("ka")
	var r bridge.AmendReply
	if err := json.Unmarshal([]byte(b.Amend(`{"kind":"shot","round":2,"seat":3}`)), &r); err != nil || r.Error == nil || r.Error.Code != "fix_no_entry" || !strings.Contains(r.Error.Message, "ღამის") {
		t.Fatalf("night 2: %+v %v", r.Error, err)
	}
	if err := json.Unmarshal([]byte(b.Amend(`{"kind":"shot","round":1,"seat":9}`)), &r); err != nil || r.Error == nil || r.Error.Code != "bad_fix" {
		t.Fatalf("seat 9: %+v %v", r.Error, err)
	}
}

// TestAmendWorksOutAVoteCorrection: day 1's vote had 2 and 5 for seat 3
// (the rest went to 4, who left); the hands 2, 5, 6, 7 for 3 are worked out
// as 3's action replaced (the correction's entries without ids, the
// closing action and the last words kept), and the game of the new list
// has 3 out, not 4; the page's game is unchanged. A voter who voted for an
// earlier candidate does not fit (fix_does_not_fit, with the engine's
// reason), a seat that was no candidate is refused (fix_not_candidate), a
// voter twice is not well formed (bad_fix), and a day not yet voted is not
// reached.
func TestAmendWorksOutAVoteCorrection(t *testing.T) {
	var s record.Settings
	if err := json.Unmarshal([]byte(settings), &s); err != nil {
		t.Fatal(err)
	}
	cmds := hosttest.VoteDayEntries(t, &s, []int{2, 5}, "c")
	list, _ := json.Marshal(cmds)
	b := bridge.New()
	if r := decode(t, b.Start(settings, string(list))); r.Error != nil {
		t.Fatalf("the game: %+v", r.Error)
	}
	before := b.State()
	var a bridge.AmendReply
	if err := json.Unmarshal([]byte(b.Amend(`{"kind":"vote","round":1,"seat":3,"voters":[2,5,6,7]}`)), &a); err != nil {
		t.Fatal(err)
	}
	if a.Error != nil || a.Kept == 0 || len(a.Commands) < a.From+4 {
		t.Fatalf("amended: %+v", a)
	}
	for i, v := range []int{2, 5, 6, 7} {
		if c := a.Commands[a.From+i]; c.Verb != "vote" || c.By != v || c.Target != 3 || c.ID != "" {
			t.Fatalf("entry %d of the correction: %+v", i, c)
		}
	}
	_, log, err := record.Replay(&s, a.Commands)
	if err != nil {
		t.Fatal(err)
	}
	var out []engine.Seat
	for _, e := range log {
		if e.Kind == engine.EvPlayerOut {
			out = append(out, e.Target)
		}
	}
	if len(out) < 2 || out[1] != 3 {
		t.Fatalf("out after the correction: %v, want 1 then 3", out)
	}
	if b.State() != before {
		t.Fatal("working out a correction changed the page's game")
	}
	for _, tc := range []struct{ req, code string }{
		{`{"kind":"vote","round":1,"seat":4,"voters":[2,6]}`, "fix_does_not_fit: Seat 2 has already voted by then"},
		{`{"kind":"vote","round":1,"seat":6,"voters":[2]}`, "fix_not_candidate"},
		{`{"kind":"vote","round":1,"seat":3,"voters":[2,2]}`, "bad_fix"},
		{`{"kind":"vote","round":2,"seat":3,"voters":[2]}`, "fix_no_entry"},
	} {
		var r bridge.AmendReply
		code, says, _ := strings.Cut(tc.code, ": ")
		if err := json.Unmarshal([]byte(b.Amend(tc.req)), &r); err != nil || r.Error == nil || r.Error.Code != code || r.Error.Message == "" || !strings.Contains(r.Error.Message, says) {
			t.Fatalf("%s: %+v %v, want %s", tc.req, r.Error, err, tc.code)
		}
		t.Logf("%s: %s", tc.code, r.Error.Message)
	}
}

// TestAmendTakesBackAFoulByReplay: seat 3's foul in their speech is taken
// back: the new list is the old one without it (the later entries kept),
// and the page's game is unchanged; a seat with no foul is refused
// fix_no_entry with the host's sentence, and a foul with a round is not
// well formed.
func TestAmendTakesBackAFoulByReplay(t *testing.T) {
	b := bridge.New()
	if r := decode(t, b.Start(settings, `[{"id":"a","seq":0,"verb":"kill","by":2,"target":7},{"id":"b","seq":1,"verb":"next"},
		{"id":"c","seq":2,"verb":"foul","target":3},{"id":"d","seq":3,"verb":"next"}]`)); r.Error != nil {
		t.Fatalf("the game: %+v", r.Error)
	}
	before := b.State()
	var a bridge.AmendReply
	if err := json.Unmarshal([]byte(b.Amend(`{"kind":"foul_remove","seat":3}`)), &a); err != nil {
		t.Fatal(err)
	}
	if a.Error != nil || a.From != 2 || a.Kept != 1 || len(a.Dropped) != 0 || len(a.Commands) != 3 || a.Commands[2].ID != "d" || a.Commands[2].Seq != 2 {
		t.Fatalf("taken back: %+v", a)
	}
	if b.State() != before {
		t.Fatal("working out a correction changed the page's game")
	}
	for _, tc := range []struct{ req, code, says string }{
		{`{"kind":"foul_remove","seat":6}`, "fix_no_entry", "no foul"},
		{`{"kind":"foul_remove","seat":3,"round":1}`, "bad_fix", ""},
	} {
		var r bridge.AmendReply
		if err := json.Unmarshal([]byte(b.Amend(tc.req)), &r); err != nil || r.Error == nil || r.Error.Code != tc.code || !strings.Contains(r.Error.Message, tc.says) {
			t.Fatalf("%s: %+v %v, want %s", tc.req, r.Error, err, tc.code)
		}
	}
}
