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
		// The night's roles with something left to do, in set arithmetic
		// rather than nightDone seat by seat (whose switch on each seat's
		// card was unpredictable); MayAct keeps nightDone, and the
		// property test pins MayAct to Pending at every step of its games.
		// A card no one holds has seat 0, dropped at the end.
		don, det, doc, man := SeatSet(0).With(g.don), SeatSet(0).With(g.det), SeatSet(0).With(g.doc), SeatSet(0).With(g.man)
		done := g.skipped | g.mafiaActed&^don | g.mafiaActed&g.checked&don | g.checked&det
		var docDone, manDone SeatSet
		if g.heal != 0 {
			docDone = doc
		}
		if g.round < 2 || g.shotsLeft == 0 || g.shot != 0 {
			manDone = man
		}
		p = g.alive & (g.mafia | det | doc | man) &^ (done | docDone | manDone) &^ 1
	case PhaseSpeech:
		if g.speaker != 0 && !g.nominated {
			p = p.With(g.speaker)
		}
	case PhaseVote, PhaseRevote, PhaseAllVote:
		p = g.alive &^ g.voted
	}
	return p
}
