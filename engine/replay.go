package engine

// Replay rebuilds a game from its recorded events, the first of which must be
// GameStarted. It is a fold of apply: the result equals the live game that
// emitted the events. A log that cannot be a game's (an unknown kind, a seat
// off the table) is refused with CodeBadLog, N the index of the bad event.
func Replay(events []Event) (*Game, error) {
	if len(events) == 0 {
		return nil, &Error{Code: CodeBadLog}
	}
	g := new(Game)
	for i := range events {
		e := events[i]
		if err := g.valid(&e, i); err != nil {
			return nil, err
		}
		g.apply(&e)
	}
	return g, nil
}

// valid checks that an event can be folded into g without breaking it.
func (g *Game) valid(e *Event, i int) error {
	bad := &Error{Code: CodeBadLog, N: i}
	if i == 0 {
		if e.Kind != EvGameStarted || e.Count < MinSeats || e.Count > MaxSeats || !e.Rules.Valid() {
			return bad
		}
		roles := make([]Role, e.Count)
		for s := range roles {
			roles[s] = Role(e.PerSeat[s+1])
			if roles[s] == RoleNone || roles[s] >= numRoles {
				return bad
			}
		}
		if _, err := SetupOf(roles).Validate(); err != nil {
			return bad
		}
		return nil
	}
	if e.Kind == EvNone || e.Kind >= numEventKinds || e.Kind == EvGameStarted {
		return bad
	}
	n := Seat(g.n)
	if e.Actor > n || e.Target > n || e.Set&^allSeats(int(n)) != 0 {
		return bad
	}
	// Count is a list's length for ties and votes (and a foul count, which
	// with foul_limit=0 may pass 20, for fouls).
	if (e.Kind == EvTie || e.Kind == EvVoteBegan) && e.Count > MaxSeats {
		return bad
	}
	switch e.Kind {
	case EvMafiaChose, EvChecked, EvHealed, EvShot, EvSkipped, EvVoteCast, EvAllVoteCast, EvNominated, EvVoteMade:
		if e.Actor == 0 {
			return bad
		}
	case EvVoteBegan:
		if e.Phase != PhaseVote && e.Phase != PhaseRevote {
			return bad
		}
	case EvStatement:
		// a statement of a floor within its limit, with names that exist
		if e.Actor == 0 || !e.Verb.IsStatement() || !e.Phase.Timed() || e.Role >= numRoles || e.Result >= numResults ||
			g.said >= StatementsPerFloor {
			return bad
		}
		if e.Verb == BestMove && (e.Set.Len() != GuessSize || e.Set&^allSeats(int(n)) != 0) {
			return bad
		}
	}
	if e.Kind == EvNominated && g.ncand >= MaxSeats {
		return bad
	}
	if e.Kind == EvTie || e.Kind == EvVoteBegan {
		for j := uint8(0); j < e.Count; j++ {
			if s := Seat(e.PerSeat[j]); s == 0 || s > n {
				return bad
			}
		}
	}
	return nil
}
