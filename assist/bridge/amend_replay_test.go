package bridge_test

import (
	"encoding/json"
	"strings"
	"testing"

	"mafia/assist/bridge"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestAmendWorksOutTheRepeatVoteAllVoteAndNightMoves: on a tie day (the
// first vote 3-3, the repeat vote 3-3, "shall all of them leave?" with 2
// yes) the page works out a repeat vote's hands, the all-vote's yes, the
// Detective's and the Don's check and the Doctor's save, each without
// changing the page's game; and refuses in the host's words what does not
// fit or is not well formed.
func TestAmendWorksOutTheRepeatVoteAllVoteAndNightMoves(t *testing.T) {
	var s record.Settings
	if err := json.Unmarshal([]byte(settings), &s); err != nil {
		t.Fatal(err)
	}
	tie := map[int][]int{3: {2, 5, 6}, 4: {3, 4, 7}}
	cmds := hosttest.TieDay(t, &s, "c", 3, tie, tie, []int{2, 3})
	list, _ := json.Marshal(cmds)
	b := bridge.New()
	if r := decode(t, b.Start(settings, string(list))); r.Error != nil {
		t.Fatalf("the game: %+v", r.Error)
	}
	before := b.State()
	for _, tc := range []struct{ req, verb string }{
		{`{"kind":"vote","vote":"revote","round":1,"seat":3,"voters":[2,5,6,7]}`, "vote"},
		{`{"kind":"vote","vote":"all_vote","round":1,"voters":[2,3,5,6]}`, "all_vote"},
		{`{"kind":"check","round":1,"seat":3}`, "check"},
		{`{"kind":"don_check","round":1,"seat":5}`, "check"},
		{`{"kind":"save","round":1,"seat":1}`, "heal"},
		{`{"kind":"save","round":1,"seat":0}`, "skip"},
	} {
		var a bridge.AmendReply
		if err := json.Unmarshal([]byte(b.Amend(tc.req)), &a); err != nil || a.Error != nil {
			t.Fatalf("%s: %v %+v", tc.req, err, a.Error)
		}
		if c := a.Commands[a.From]; c.Verb != tc.verb || c.ID != "" {
			t.Errorf("%s: the correction's first entry %+v, want a %s without an id", tc.req, c, tc.verb)
		}
		if b.State() != before {
			t.Fatalf("%s: working out a correction changed the page's game", tc.req)
		}
	}
	b.SetLang("en")
	for _, tc := range []struct{ req, code, says string }{
		{`{"kind":"check","round":1,"seat":5}`, "fix_does_not_fit", "does not fit"},
		{`{"kind":"vote","vote":"revote","round":1,"seat":4,"voters":[2]}`, "fix_does_not_fit", "Seat 2 has already voted by then"},
		{`{"kind":"vote","vote":"revote","round":1,"seat":6,"voters":[2]}`, "fix_not_candidate", "candidate"},
		{`{"kind":"vote","vote":"revote","round":2,"seat":3,"voters":[2]}`, "fix_no_entry", "vote"},
		{`{"kind":"save","round":2,"seat":3}`, "fix_no_entry", "night"},
		{`{"kind":"don_check","round":1,"seat":0}`, "bad_fix", ""},
		{`{"kind":"vote","vote":"all_vote","round":1,"seat":3,"voters":[2]}`, "bad_fix", ""},
		{`{"kind":"vote","vote":"third","round":1,"seat":3,"voters":[2]}`, "bad_fix", ""},
		{`{"kind":"save","vote":"revote","round":1,"seat":3}`, "bad_fix", ""},
	} {
		var r bridge.AmendReply
		if err := json.Unmarshal([]byte(b.Amend(tc.req)), &r); err != nil || r.Error == nil || r.Error.Code != tc.code || r.Error.Message == "" ||
			!strings.Contains(r.Error.Message, tc.says) {
			t.Errorf("%s: %+v %v, want %s (%q)", tc.req, r.Error, err, tc.code, tc.says)
		}
	}
}
