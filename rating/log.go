package rating

import "mafia/engine"

// FromLog reads a finished game's log for Game: each seat's side (from the
// end's cards), the result, and who left early: a seat removed by fouls,
// and each seat in left (a caller's own reason, e.g. a player who quit a
// rated table). ids names each seat's player (ids[s-1] is seat s's
// account id). A log that has not ended, or ids of another length, is
// ErrBadInput.
//
// This is what the room or the server calls when a rated table's game
// ends, with the seats' account ids, before store.Ratings.RateGame.
func FromLog(log []engine.Event, ids []string, left map[int]bool) ([]Seat, Result, error) {
	var start, end *engine.Event
	for i := range log {
		switch log[i].Kind {
		case engine.EvGameStarted:
			start = &log[i]
		case engine.EvGameEnded:
			end = &log[i]
		}
	}
	if start == nil || end == nil || int(start.Count) != len(ids) {
		return nil, Result{}, ErrBadInput
	}
	seats := make([]Seat, len(ids))
	for i, id := range ids {
		s := engine.Seat(i + 1)
		side, ok := sideOf(end.RoleOf(s).Team())
		if !ok {
			return nil, Result{}, ErrBadInput
		}
		seats[i] = Seat{Player: id, Side: side, Left: left[i+1]}
	}
	for _, e := range log {
		if e.Kind == engine.EvPlayerOut && e.Cause == engine.CauseFouls && int(e.Target) >= 1 && int(e.Target) <= len(seats) {
			seats[e.Target-1].Left = true
		}
	}
	var res Result
	switch end.Winner {
	case engine.WinnerTown:
		res.Winner = Town
	case engine.WinnerMafia:
		res.Winner = Mafia
	case engine.WinnerManiac:
		res.Winner = Maniac
	case engine.WinnerDraw:
		res.Draw = true
	default:
		return nil, Result{}, ErrBadInput
	}
	return seats, res, nil
}

func sideOf(t engine.Team) (Side, bool) {
	switch t {
	case engine.TeamTown:
		return Town, true
	case engine.TeamMafia:
		return Mafia, true
	case engine.TeamManiac:
		return Maniac, true
	}
	return 0, false
}
