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
	// Each night verb asks the viewer's card first, before anything else:
	// the random bot asks the four in turn, and only one is its card's.
	switch verb {
	case Kill:
		if !v.Role.IsMafia() || !v.moveOK() || !v.nightActive() || v.MafiaActed.Has(v.Seat) {
			return 0
		}
		return v.Alive &^ v.knownMafia()
	case Check:
		if (v.Role != Don && v.Role != Detective) || !v.moveOK() || !v.nightActive() || v.CheckTarget != 0 {
			return 0
		}
		return v.Alive.Without(v.Seat)
	case Shoot:
		if v.Role != Maniac || !v.moveOK() || !v.nightActive() || v.Round < 2 || v.ShotTarget != 0 || v.ShotsLeft == 0 {
			return 0
		}
		return v.Alive.Without(v.Seat)
	case Heal:
		if v.Role != Doctor || !v.moveOK() || !v.nightActive() || v.HealTarget != 0 {
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
		if v.Phase != PhaseSpeech || v.Speaker != v.Seat || v.Nominated || !v.moveOK() {
			return 0
		}
		return v.Alive.Without(v.Seat) &^ v.candidates()
	case Vote:
		if (v.Phase != PhaseVote && v.Phase != PhaseRevote) || v.Voted || !v.moveOK() {
			return 0
		}
		return v.candidates()
	}
	return 0
}

// moveOK reports whether the viewer may make a move at all: a living seat
// in a game not over.
func (v *View) moveOK() bool {
	return v.Seat != 0 && v.Phase != PhaseEnded && v.Alive.Has(v.Seat)
}

// candidates returns today's candidates as a set, four slots at a time,
// each slot's bit kept by whether the slot is before NumCandidates: the
// first four with no branch, and a loop only past them. A loop of
// NumCandidates turns (a random count) mispredicted its exit.
//
// The groups past the first are written out, each behind a test of the
// count, so that every slot's index is a constant: a loop's index was
// checked against the array's bounds at each slot.
func (v *View) candidates() SeatSet {
	n := int32(v.NumCandidates)
	c := &v.Candidates // MaxSeats slots, a multiple of 4
	t := candidates4(c, 0, n)
	if n > 4 {
		t |= candidates4(c, 4, n)
		if n > 8 {
			t |= candidates4(c, 8, n)
			if n > 12 {
				t |= candidates4(c, 12, n)
				if n > 16 {
					t |= candidates4(c, 16, n)
				}
			}
		}
	}
	return t
}

// candidates4 is candidates' four slots from i.
func candidates4(c *[MaxSeats]Seat, i, n int32) SeatSet {
	// in(j) is 1 when slot i+j holds a candidate, else 0.
	in0, in1 := SeatSet(uint32(i-n)>>31), SeatSet(uint32(i+1-n)>>31)
	in2, in3 := SeatSet(uint32(i+2-n)>>31), SeatSet(uint32(i+3-n)>>31)
	return in0<<c[i] | in1<<c[i+1] | in2<<c[i+2] | in3<<c[i+3] // a seat past 31: no bit, as With
}

// knownMafia returns the seats the viewer knows to be the mafia's, from
// the view's teams eight at a time (SWAR), with no branch on what it finds:
// the teammates' seats are a random deal's.
func (v *View) knownMafia() SeatSet {
	tm := &v.Teams
	lo := teams8((*[8]Team)(tm[0:8]))
	mid := teams8((*[8]Team)(tm[8:16]))
	hi := teams8((*[8]Team)(tm[len(tm)-8:])) >> (8 * (24 - len(tm))) // seats 16-20
	return SeatSet(mafiaBytes(lo)) | SeatSet(mafiaBytes(mid))<<8 | SeatSet(mafiaBytes(hi))<<16
}

// teams8 reads eight teams as one little-endian word (one load).
func teams8(t *[8]Team) uint64 {
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// mafiaBytes returns a bit for each of w's eight bytes (the lowest byte's
// the lowest bit) that is TeamMafia.
func mafiaBytes(w uint64) uint8 {
	const ones, low7, high = 0x0101010101010101, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	x := w ^ ones*uint64(TeamMafia)      // a zero byte where the team is the mafia's
	nz := ((x & low7) + low7 | x) & high // a byte's high bit: that byte is not zero
	z := (^nz & high) >> 7               // a byte's low bit: that byte is zero
	return uint8(z * 0x0102040810204080 >> 56)
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
