package club_test

import (
	"strings"
	"testing"

	"mafia/club"
	"mafia/engine"
	"mafia/locale"
)

// TestTheRefusalOfExtraPointsNamesTheSeat (issue 29, defect 8): extra
// points out of the club's range are refused with the seat they were
// given to, in every language; a refusal with no seat reads as before.
func TestTheRefusalOfExtraPointsNamesTheSeat(t *testing.T) {
	sc := club.DefaultScoring()
	g := &club.Game{Seats: []club.Seat{{Seat: 1}, {Seat: 5}}}
	err := sc.CheckExtra(g, []club.Extra{{Seat: 5, Points: sc.ExtraMax + 1}})
	if err == nil {
		t.Fatal("extra points past the range are taken")
	}
	for _, l := range locale.Langs() {
		got := locale.New(l).Refusal(err)
		if !strings.Contains(got, "5:") || strings.Contains(got, "{{") {
			t.Errorf("%s: %q does not name seat 5", l, got)
		}
		if none := locale.New(l).Refusal(&engine.Error{Code: club.CodeBadExtra, Value: "x"}); strings.Contains(none, ":") {
			t.Errorf("%s, no seat: %q", l, none)
		}
	}
}
