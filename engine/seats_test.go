package engine

import "testing"

// nthByScan is SeatSet.Nth by its definition: clear the i lowest seats.
func nthByScan(m SeatSet, i int) Seat {
	for ; i > 0 && m != 0; i-- {
		m &= m - 1
	}
	if m == 0 {
		return 0
	}
	return m.First()
}

// TestNthIsTheIthLowestSeat pins Nth to its definition over every set of
// seats 1..16 and a spread of larger sets, every index from 0 past the end.
func TestNthIsTheIthLowestSeat(t *testing.T) {
	check := func(m SeatSet) {
		for i := 0; i <= m.Len()+1; i++ {
			if got, want := m.Nth(i), nthByScan(m, i); got != want {
				t.Fatalf("SeatSet(%#b).Nth(%d) = %d, want %d", uint32(m), i, got, want)
			}
		}
	}
	for m := SeatSet(0); m < 1<<17; m += 2 {
		check(m)
	}
	for k := uint32(0); k < 1<<14; k++ {
		check(SeatSet(k*2654435761) &^ 1)
	}
	check(allSeats(MaxSeats))
}

// TestRoleTeamIsTheRolesSide pins the table behind Role.Team.
func TestRoleTeamIsTheRolesSide(t *testing.T) {
	for _, tc := range []struct {
		r    Role
		want Team
	}{{RoleNone, TeamNone}, {Citizen, TeamTown}, {Detective, TeamTown}, {Doctor, TeamTown},
		{Mafioso, TeamMafia}, {Don, TeamMafia}, {Maniac, TeamManiac}, {numRoles, TeamNone}, {255, TeamNone}} {
		if got := tc.r.Team(); got != tc.want {
			t.Errorf("Role(%d).Team() = %d, want %d", tc.r, got, tc.want)
		}
	}
}
