package bridge_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"mafia/assist/bridge"
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
	if b.State() != before {
		t.Fatal("working out a correction changed the page's game")
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
