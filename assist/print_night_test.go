package assist

import (
	"strings"
	"testing"

	"mafia/assist/record"
	"mafia/locale"
)

// TestPrintNight_NoMafiaLeftIsSaidSo pins defect 8 (issue 29): a night with
// no mafia card left in the game does not say "The mafia chose nobody."
// (there was nobody to choose) but that no mafia was left; a night whose
// mafia chose nobody still says so.
func TestPrintNight_NoMafiaLeftIsSaidSo(t *testing.T) {
	seats := []record.SeatRecord{
		{Seat: 1, Team: "mafia", Out: &record.Exit{Seat: 1, Round: 1, Phase: "day", Cause: "vote"}},
		{Seat: 2, Team: "mafia", Out: &record.Exit{Seat: 2, Round: 2, Phase: "night", Cause: "night"}},
		{Seat: 3, Team: "town"},
		{Seat: 4, Team: "maniac"},
	}
	who := func(n int) string { return "#" + string(rune('0'+n)) }
	miss := record.Round{N: 2, Night: &record.Night{Ended: true}}  // seat 2 still in: a miss
	empty := record.Round{N: 3, Night: &record.Night{Ended: true}} // both mafiosi gone
	for _, tc := range []struct {
		name string
		rd   record.Round
		want string
		not  string
	}{
		{"a mafioso in who chose nobody", miss, "assist.print.mafia_none", "assist.print.mafia_gone"},
		{"no mafioso left", empty, "assist.print.mafia_gone", "assist.print.mafia_none"},
	} {
		for _, l := range []locale.Lang{locale.Ka, locale.En, locale.Ru} {
			p := locale.New(l)
			pr := printRoundOf(p, tc.rd, who, mafiaAt(seats, tc.rd.N))
			got := strings.Join(pr.Night, "\n")
			if !strings.Contains(got, p.T(tc.want, nil)) || strings.Contains(got, p.T(tc.not, nil)) {
				t.Errorf("%s (%v): night %d reads %q, want %s", tc.name, l, tc.rd.N, got, tc.want)
			}
		}
	}
}
