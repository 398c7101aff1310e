package engine

// This file answers, from a View alone, what its seat may do now. Bots and
// clients use it to offer only legal choices; a property test pins it to what
// Handle accepts.

func (v *View) meetingNight() bool {
	return v.Phase == PhaseNight && v.Round == 1 && v.Rules.FirstNight == FirstNightMeeting
}

// nightActive reports whether the viewer may still act tonight at all.
func (v *View) nightActive() bool {
	return v.Phase == PhaseNight && !v.meetingNight() && v.Seat != 0 && v.Alive.Has(v.Seat) && !v.Skipped
}

// mayState reports whether the viewer may make a statement now: on their
// own floor (last words included: a dead player's), within its limit.
func (v *View) mayState() bool {
	return v.Seat != 0 && v.Phase.Timed() && v.Speaker == v.Seat && v.Said < StatementsPerFloor
}

// Targets returns the seats the viewer may name with verb now (empty when
// the verb is not the viewer's to use now). A Report also needs an answer
// the rules let a player report (Ruleset.Reportable).
func (v *View) Targets(verb Verb) SeatSet {
	// The statements come after the moves in the verbs' order, so a move
	// (what bots ask for most) passes this with one comparison.
	if verb >= Report {
		switch verb {
		case Report, Suspect, Vouch:
			if !v.mayState() {
				return 0
			}
			return allSeats(int(v.Players)).Without(v.Seat)
		case WillNominate:
			if !v.mayState() {
				return 0
			}
			return v.Alive.Without(v.Seat)
		}
	}
	if v.Seat == 0 || v.Phase == PhaseEnded || !v.Alive.Has(v.Seat) {
		return 0
	}
	// Each night verb asks the viewer's card first: the random bot asks
	// the four in turn, and only one is its card's.
	others := v.Alive.Without(v.Seat)
	switch verb {
	case Kill:
		if !v.Role.IsMafia() || !v.nightActive() || v.MafiaActed.Has(v.Seat) {
			return 0
		}
		// The seats the viewer knows to be the mafia's, by a pass over
		// every seat with no branch on what it finds (the teammates' seats
		// are a random deal's).
		var known SeatSet
		for s, team := range v.Teams {
			var b SeatSet
			if team == TeamMafia {
				b = 1
			}
			known |= b << s
		}
		return v.Alive &^ known
	case Check:
		if (v.Role != Don && v.Role != Detective) || !v.nightActive() || v.CheckTarget != 0 {
			return 0
		}
		return others
	case Shoot:
		if v.Role != Maniac || !v.nightActive() || v.Round < 2 || v.ShotTarget != 0 || v.ShotsLeft == 0 {
			return 0
		}
		return others
	case Heal:
		if v.Role != Doctor || !v.nightActive() || v.HealTarget != 0 {
			return 0
		}
		t := v.Alive
		if v.Rules.DoctorRepeat == DoctorOncePerGame {
			t &^= v.Healed
		}
		if v.HealBanned != 0 {
			t = t.Without(v.HealBanned)
		}
		return t
	case Nominate:
		if v.Phase != PhaseSpeech || v.Speaker != v.Seat || v.Nominated {
			return 0
		}
		t := others
		for i := uint8(0); i < v.NumCandidates; i++ {
			t = t.Without(v.Candidates[i])
		}
		return t
	case Vote:
		if (v.Phase != PhaseVote && v.Phase != PhaseRevote) || v.Voted {
			return 0
		}
		var t SeatSet
		for i := uint8(0); i < v.NumCandidates; i++ {
			t = t.With(v.Candidates[i])
		}
		return t
	}
	return 0
}

// Can reports whether the viewer may use verb now (with some target, for
// verbs that take one; a Claim with any card, Claimable; a BestMove with
// GuessSize seats other than the viewer's).
func (v *View) Can(verb Verb) bool {
	if v.Seat == 0 || v.Phase == PhaseEnded {
		return false
	}
	switch verb {
	case Claim:
		return v.mayState()
	case BestMove:
		return v.mayState() && firstVictim(v.Phase, v.Speaker, v.Seat, v.Victims, int(v.Players)-v.Alive.Len()) &&
			!madeBestMove(v.Talk, v.Seat)
	case Pass:
		return v.Phase.Timed() && v.Speaker == v.Seat
	case AllVote:
		return v.Phase == PhaseAllVote && v.Alive.Has(v.Seat) && !v.Voted
	case Skip:
		if !v.nightActive() {
			return false
		}
		switch v.Role {
		case Maniac:
			return v.ShotTarget == 0
		case Don:
			return !v.MafiaActed.Has(v.Seat) || v.CheckTarget == 0
		case Mafioso:
			return !v.MafiaActed.Has(v.Seat)
		case Detective:
			return v.CheckTarget == 0
		case Doctor:
			return v.HealTarget == 0
		}
		return false
	}
	return v.Targets(verb) != 0
}
