package record

import (
	"errors"
	"testing"

	"mafia/engine"
)

// TestClubInfo_ATournamentsTableIsAClubsAndInRange: a game at a
// tournament's table names the club, the tournament, a round and a table
// from 1; anything else is refused bad_settings (club: tournament).
func TestClubInfo_ATournamentsTableIsAClubsAndInRange(t *testing.T) {
	for _, c := range []struct {
		name string
		info ClubInfo
		ok   bool
	}{
		{"a club's table", ClubInfo{Club: "c", Tournament: &TournamentTable{ID: "cup", Round: 3, Table: 2}}, true},
		{"no club", ClubInfo{Tournament: &TournamentTable{ID: "cup", Round: 3, Table: 2}}, false},
		{"no tournament id", ClubInfo{Club: "c", Tournament: &TournamentTable{Round: 3, Table: 2}}, false},
		{"round 0", ClubInfo{Club: "c", Tournament: &TournamentTable{ID: "cup", Round: 0, Table: 2}}, false},
		{"table 0", ClubInfo{Club: "c", Tournament: &TournamentTable{ID: "cup", Round: 1, Table: 0}}, false},
		{"a round too far", ClubInfo{Club: "c", Tournament: &TournamentTable{ID: "cup", Round: MaxTournamentRound + 1, Table: 1}}, false},
	} {
		err := c.info.check(10)
		var e *engine.Error
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.ok && (!errors.As(err, &e) || e.Code != CodeBadSettings || e.Value != "tournament"):
			t.Errorf("%s: got %v, want bad_settings tournament", c.name, err)
		}
	}
}
