package bridge_test

import (
	"encoding/json"
	"strings"
	"testing"

	"rsc.io/qr"

	"mafia/assist/bridge"
)

// TestUndoTakesBackTheLastTapInThePage: the page's engine previews an undo
// (the tap's entries and the events narrated), applies it as an entry, and
// stands where a replay of the entries left stands; a refused undo changes
// nothing; the protocol counts the correction.
func TestUndoTakesBackTheLastTapInThePage(t *testing.T) {
	b := bridge.New()
	if r := decode(t, b.Undoable()); r.Error == nil || r.Error.Code != "wrong_phase" {
		t.Fatalf("no game: %+v", r)
	}
	decode(t, b.Start(settings, ""))
	if r := decode(t, b.Undoable()); r.Error == nil || r.Error.Code != "nothing_to_undo" || !strings.Contains(r.Error.Message, "nothing") {
		t.Fatalf("at the deal: %+v", r)
	}
	for _, e := range []string{
		`{"id":"a","seq":0,"verb":"check","by":5,"target":2}`,
		`{"id":"b","seq":1,"verb":"heal","by":6,"target":1}`,
	} {
		if r := decode(t, b.Apply(e)); r.Error != nil {
			t.Fatalf("%s: %+v", e, r.Error)
		}
	}
	var pre struct {
		Undo     int
		Commands []struct{ ID string }
		Lines    []string
	}
	if err := json.Unmarshal([]byte(b.Undoable()), &pre); err != nil {
		t.Fatal(err)
	}
	if pre.Undo != 1 || len(pre.Commands) != 1 || pre.Commands[0].ID != "b" || len(pre.Lines) != 1 || !strings.Contains(pre.Lines[0], "6") {
		t.Fatalf("the preview: %+v", pre)
	}
	// An undo that names another entry is refused; the game stays.
	if r := decode(t, b.Apply(`{"id":"u","seq":2,"verb":"undo","undo":0}`)); r.Error == nil || r.Error.Code != "undo_not_last" {
		t.Fatalf("not the last: %+v", r)
	}
	r := decode(t, b.Apply(`{"id":"u","seq":2,"verb":"undo","undo":1}`))
	if r.Error != nil || len(r.Events) != 0 {
		t.Fatalf("undo: %+v", r)
	}
	var doctor, detective bool
	for _, w := range r.State.Night.Wakes {
		doctor = doctor || (w.Role == "doctor" && !w.Acted && w.Target == 0)
		detective = detective || (w.Role == "detective" && w.Acted && w.Target == 2)
	}
	if !doctor || !detective {
		t.Fatalf("after the undo: %+v", r.State.Night.Wakes)
	}
	// The same as a fresh replay of the list with the undo in it.
	b2 := bridge.New()
	r2 := decode(t, b2.Start(settings, `[{"id":"a","seq":0,"verb":"check","by":5,"target":2},
		{"id":"b","seq":1,"verb":"heal","by":6,"target":1},{"id":"u","seq":2,"verb":"undo","undo":1}]`))
	if r2.Error != nil || len(r2.Events) != 3 {
		t.Fatalf("replay with the undo: %+v", r2)
	}
	var p struct {
		Undone      int
		Corrections []struct{ Entry int }
		Events      []any
	}
	if err := json.Unmarshal([]byte(b.Protocol()), &p); err != nil {
		t.Fatal(err)
	}
	if p.Undone != 1 || len(p.Corrections) != 1 || p.Corrections[0].Entry != 2 || len(p.Events) != 3 {
		t.Fatalf("the protocol: %+v", p)
	}
	// The next entry goes on after the undo.
	if r := decode(t, b.Apply(`{"id":"c","seq":3,"verb":"heal","by":6,"target":3}`)); r.Error != nil {
		t.Fatalf("after the undo: %+v", r.Error)
	}
	// A tap of two entries is taken back whole; a part that does not
	// follow its tap is refused.
	if r := decode(t, b.Apply(`{"id":"d","seq":4,"verb":"kill","by":2,"target":7,"part":2}`)); r.Error == nil || r.Error.Code != "bad_request" {
		t.Fatalf("a stray part: %+v", r)
	}
}

// TestQRDrawsTheCodeOfTheText: the page's QR code is the QR encoding of the
// link (the same drawing the card links have).
func TestQRDrawsTheCodeOfTheText(t *testing.T) {
	b := bridge.New()
	link := "http://127.0.0.1:8080/host/?lang=ka#/join/0123456789abcdef/" + strings.Repeat("ab", 24)
	var r struct{ SVG string }
	if err := json.Unmarshal([]byte(b.QR(link)), &r); err != nil {
		t.Fatal(err)
	}
	c, err := qr.Encode(link, qr.M)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.SVG, "<svg") || !strings.Contains(r.SVG, `viewBox="0 0 `) {
		t.Fatalf("svg: %.80s", r.SVG)
	}
	dark := strings.Count(r.SVG, "h1v1h-1z")
	want := 0
	for y := 0; y < c.Size; y++ {
		for x := 0; x < c.Size; x++ {
			if c.Black(x, y) {
				want++
			}
		}
	}
	if dark != want {
		t.Fatalf("%d dark modules drawn, the code has %d", dark, want)
	}
	if e := decode(t, b.QR("")); e.Error == nil {
		t.Fatal("an empty text was drawn")
	}
}
