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

// TestNamesAtOneTableReadApartWhicheverCameFirst: an all-Cyrillic name
// and its Latin look-alike are told apart whichever took its seat first.
func TestNamesAtOneTableReadApartWhicheverCameFirst(t *testing.T) {
	f := newFixture(t, settings(t, 7, nil), nil)
	for i, name := range []string{"\u041a\u041e\u0422", "kot", "TEPMOC", "\u0422\u0415\u0420\u041c\u041e\u0421"} { // КОТ, kot, TEPMOC, ТЕРМОС
		f.join(name, i+1)
	}
	got := []string{}
	for _, s := range f.r.Lobby().Seats[:4] {
		got = append(got, s.Name)
	}
	want := []string{"\u041a\u041e\u0422", "kot 2", "TEPMOC", "\u0422\u0415\u0420\u041c\u041e\u0421 2"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the seats' names\n %q\nwant\n %q", got, want)
	}
}
