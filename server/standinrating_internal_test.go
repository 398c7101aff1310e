package server

import (
	"testing"

	"mafia/rating"
	"mafia/room"
)

// TestPlayedByStandIns_ASideMostlyPlayedByStandInsIsNotRated pins what
// "mostly" means: a side whose stand-ins made more than half of its seats'
// moves, or whose people made none.
func TestPlayedByStandIns_ASideMostlyPlayedByStandInsIsNotRated(t *testing.T) {
	seats := []rating.Seat{{Side: rating.Town}, {Side: rating.Town}, {Side: rating.Mafia}, {Side: rating.Town}, {Side: rating.Maniac}}
	for _, c := range []struct {
		name     string
		played   *room.Played
		want     bool
		wantSide rating.Side
	}{
		{"a game ended before there were counts", nil, false, 0},
		{"everyone played", &room.Played{Person: []int{5, 4, 6, 3, 2}, StandIn: []int{0, 0, 0, 0, 0}}, false, 0},
		{"a town seat away for a while: half is not most", &room.Played{Person: []int{5, 0, 6, 3, 2}, StandIn: []int{0, 8, 0, 0, 0}}, false, 0},
		{"the town mostly stand-ins", &room.Played{Person: []int{1, 1, 6, 1, 2}, StandIn: []int{4, 4, 0, 4, 0}}, true, rating.Town},
		{"the mafia's one seat a stand-in's", &room.Played{Person: []int{5, 4, 1, 3, 2}, StandIn: []int{0, 0, 2, 0, 0}}, true, rating.Mafia},
		{"the maniac made no move of their own", &room.Played{Person: []int{5, 4, 6, 3, 0}, StandIn: []int{0, 0, 0, 0, 0}}, true, rating.Maniac},
		{"nobody played: the clock did", &room.Played{Person: make([]int, 5), StandIn: make([]int, 5)}, true, rating.Town},
	} {
		side, got := playedByStandIns(c.played, seats)
		if got != c.want || (got && side != c.wantSide) {
			t.Errorf("%s: %v %v, want %v %v", c.name, side, got, c.wantSide, c.want)
		}
	}
}
