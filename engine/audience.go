package engine

// EventFor returns the copy of e that seat s may see, and whether it may see
// it at all. Seat 0 is a spectator (public events only). GameStarted reaches
// each seat with only the cards that seat may know, and without the seed.
// The host sees every event as it is.
func (g *Game) EventFor(e Event, s Seat) (Event, bool) {
	if !g.seatOK(s) {
		s = 0
	}
	switch e.Audience() {
	case AudPublic:
		return e, true
	case AudActor:
		return e, s != 0 && e.Actor == s
	case AudMafia:
		return e, s != 0 && g.mafia.Has(s)
	case AudSeats:
		red := e
		red.Seed = 0
		red.PerSeat = [MaxSeats + 1]uint8{}
		if s != 0 {
			red.PerSeat[s] = e.PerSeat[s]
			if Role(e.PerSeat[s]).IsMafia() {
				for t := 1; t <= int(e.Count) && t <= MaxSeats; t++ {
					if Role(e.PerSeat[t]).IsMafia() {
						red.PerSeat[t] = e.PerSeat[t]
					}
				}
			}
		}
		return red, true
	}
	return Event{}, false
}

// MayAct reports whether seat s may still act in the current step (see
// Pending; the same secrecy applies).
func (g *Game) MayAct(s Seat) bool {
	switch g.phase {
	case PhaseNight:
		return g.alive.Has(s) && !(g.round == 1 && g.rules.FirstNight == FirstNightMeeting) && !g.nightDone(s)
	case PhaseSpeech:
		return s != 0 && s == g.speaker && !g.nominated
	case PhaseVote, PhaseRevote, PhaseAllVote:
		return g.alive.Has(s) && !g.voted.Has(s)
	}
	return false
}

// Pending returns the seats that may still act in the current step: at night
// the living roles with an action left (for the host and a bot driver only:
// it must never reach players, since who has acted at night is secret);
// the speaker who has not nominated; the voters who have not voted.
func (g *Game) Pending() SeatSet {
	var p SeatSet
	switch g.phase {
	case PhaseNight:
		if g.round == 1 && g.rules.FirstNight == FirstNightMeeting {
			return 0
		}
		// Only the night's roles may have something left to do (nightDone
		// is true of every other seat).
		for m := g.alive & g.mafia.With(g.det).With(g.doc).With(g.man).Without(0); m != 0; {
			s := m.First()
			m &= m - 1 // drops the seat just taken, the lowest, without a shift
			if !g.nightDone(s) {
				p = p.With(s)
			}
		}
	case PhaseSpeech:
		if g.speaker != 0 && !g.nominated {
			p = p.With(g.speaker)
		}
	case PhaseVote, PhaseRevote, PhaseAllVote:
		p = g.alive &^ g.voted
	}
	return p
}
