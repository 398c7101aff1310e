package voice

import (
	"mafia/engine"
	"mafia/room"
)

// Heard is the seats whose microphones are forwarded in state st, cut the
// seats a foul has cut in the current floor: in the lobby and after the end
// every seat; while the game stands (paused, frozen) nobody; otherwise the
// seat that holds the floor (a speech, a defence, a tie speech, last
// words), unless cut; in a vote and at night (no floor) nobody. players is
// the table's seats.
func Heard(st room.StepState, cut engine.SeatSet, players int) engine.SeatSet {
	if st.Stopped {
		return 0
	}
	if !st.Started || st.Ended {
		return allSeats(players)
	}
	if st.Paused || st.Frozen || st.Speaker == 0 || cut.Has(st.Speaker) {
		return 0
	}
	return engine.SeatSet(0).With(st.Speaker)
}

// allSeats is seats 1 to players.
func allSeats(players int) engine.SeatSet {
	var m engine.SeatSet
	for s := 1; s <= players && s <= engine.MaxSeats; s++ {
		m = m.With(engine.Seat(s))
	}
	return m
}

// nextCut is the seats cut after the state moves from prev to st: a new
// step (a new floor) lifts every cut; a foul given to the floor's seat in
// its floor cuts it.
func nextCut(prev, st room.StepState, cut engine.SeatSet) engine.SeatSet {
	if st.Step != prev.Step || st.Started != prev.Started {
		cut = 0
	}
	if s := st.Speaker; s != 0 && st.Step == prev.Step && st.Fouls[s] > prev.Fouls[s] {
		cut = cut.With(s)
	}
	return cut
}
