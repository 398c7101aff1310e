package room_test

import (
	"strings"
	"testing"
)

// TestNamesAtOneTableReadApart (issue 25, item 10): a seat never shows a
// name that reads as another seat's (case, width, Cyrillic letters that
// look Latin): the later one is numbered; a name at its longest is
// shortened to take its number.
func TestNamesAtOneTableReadApart(t *testing.T) {
	f := newFixture(t, settings(t, 7, nil), nil)
	long := strings.Repeat("n", 32)
	for i, name := range []string{"Nino", "NINO", "Ｎｉｎｏ", "N\u0456no", "Nino 2", long, long} {
		f.join(name, i+1)
	}
	got := []string{}
	for _, s := range f.r.Lobby().Seats {
		got = append(got, s.Name)
	}
	want := []string{"Nino", "NINO 2", "Ｎｉｎｏ 3", "N\u0456no 4", "Nino 2 2", long, strings.Repeat("n", 30) + " 2"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the seats' names\n %q\nwant\n %q", got, want)
	}
}
