package rating

import (
	"testing"

	"mafia/engine"
)

// endedLog is a five-seat game's log, as far as FromLog reads it: the
// deal (Don, citizen, Detective, Maniac, Doctor), seat 2 removed by fouls,
// seat 5 killed at night, and the end with winner w.
func endedLog(w engine.Winner) []engine.Event {
	roles := []engine.Role{engine.Don, engine.Citizen, engine.Detective, engine.Maniac, engine.Doctor}
	start := engine.Event{Kind: engine.EvGameStarted, Count: 5}
	end := engine.Event{Kind: engine.EvGameEnded, Winner: w}
	for i, r := range roles {
		start.SetRoleOf(engine.Seat(i+1), r)
		end.SetRoleOf(engine.Seat(i+1), r)
	}
	return []engine.Event{start,
		{Kind: engine.EvPlayerOut, Target: 2, Cause: engine.CauseFouls},
		{Kind: engine.EvPlayerOut, Target: 5, Cause: engine.CauseNight},
		end}
}

func TestFromLogReadsSidesResultAndWhoLeft(t *testing.T) {
	ids := []string{"a", "b", "c", "d", "e"}
	seats, res, err := FromLog(endedLog(engine.WinnerTown), ids, map[int]bool{3: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []Seat{{"a", Mafia, false}, {"b", Town, true}, {"c", Town, true}, {"d", Maniac, false}, {"e", Town, false}}
	for i := range want {
		if seats[i] != want[i] {
			t.Errorf("seat %d: %+v, want %+v", i+1, seats[i], want[i])
		}
	}
	if res != (Result{Winner: Town}) {
		t.Errorf("result %+v", res)
	}
	// A player removed by fouls is never a winner, though the town won.
	us, err := Game(ForMafia(), seats, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range us {
		if u.Player == "b" && (u.Won || !u.Left) {
			t.Errorf("removed by fouls: %+v", u)
		}
		if u.Player == "e" && !u.Won {
			t.Errorf("a town player killed at night is a winner: %+v", u)
		}
	}
	if _, res, _ := FromLog(endedLog(engine.WinnerDraw), ids, nil); !res.Draw {
		t.Errorf("a draw: %+v", res)
	}
}

func TestFromLogRefusesAGameNotOverOrOtherSeats(t *testing.T) {
	log := endedLog(engine.WinnerMafia)
	if _, _, err := FromLog(log[:3], []string{"a", "b", "c", "d", "e"}, nil); err != ErrBadInput {
		t.Errorf("not over: %v", err)
	}
	if _, _, err := FromLog(log, []string{"a", "b"}, nil); err != ErrBadInput {
		t.Errorf("two ids for five seats: %v", err)
	}
}
