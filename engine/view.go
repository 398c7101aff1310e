package engine

// View is what one seat (or the host, or a spectator) may know, built fresh
// from the game. It is a plain value: sending it never sends the Game (its
// Talk is a window on the game's record of statements, public to everyone,
// that never changes what it holds).
type View struct {
	Seat    Seat // whose view; 0 for the host and for spectators
	Host    bool // the host's view: every secret
	Players uint8
	Rules   Ruleset
	Phase   Phase
	Round   uint16
	Step    uint32 // the current step's number (Game.Step): the same in every seat's view
	Speaker Seat
	Winner  Winner
	Alive   SeatSet

	Candidates    [MaxSeats]Seat // today's candidates in nomination order
	NumCandidates uint8
	Nominated     bool // the current speaker has nominated in this speech (false in every other step)

	Talk Talk  // every statement so far, in order (Talk.Day: one day's), the same in every view
	Said uint8 // statements the current speaker has made on this floor (StatementsPerFloor at most)

	Fouls      [MaxSeats + 1]uint8
	LostSpeech SeatSet            // seats whose next speech is lost through fouls
	Victims    SeatSet            // the last morning's victims
	Ballot     [MaxSeats + 1]Seat // the last closed vote: voter → candidate counted

	Role  Role               // the viewer's own card
	Roles [MaxSeats + 1]Role // every card the viewer knows
	Teams [MaxSeats + 1]Team // every team the viewer knows

	// The viewer's own night, tonight.
	KillTarget  Seat                 // the victim the viewer named (mafia)
	CheckTarget Seat                 // the seat the viewer checked (Don, detective)
	ShotTarget  Seat                 // the maniac's shot
	HealTarget  Seat                 // the doctor's heal
	Skipped     bool                 // the viewer does nothing more tonight
	Checks      [MaxSeats + 1]Result // the viewer's check answers so far, by seat
	MafiaChoice [MaxSeats + 1]Seat   // mafia: each teammate's victim tonight
	MafiaActed  SeatSet              // mafia: teammates who named or skipped tonight
	ShotsLeft   uint8                // maniac: shots left
	Healed      SeatSet              // doctor: seats healed so far this game
	HealBanned  Seat                 // doctor: the seat healed last night (doctor_repeat=not_twice_in_a_row)

	// The viewer's vote in the current vote or all-vote.
	Voted  bool
	MyVote Seat
	MyYes  bool
}

// CandidateList returns the candidates as a slice (allocates).
func (v *View) CandidateList() []Seat {
	out := make([]Seat, v.NumCandidates)
	copy(out, v.Candidates[:v.NumCandidates])
	return out
}

// IsCandidate reports whether s is a candidate now.
func (v *View) IsCandidate(s Seat) bool {
	for i := uint8(0); i < v.NumCandidates; i++ {
		if v.Candidates[i] == s {
			return true
		}
	}
	return false
}

// ViewFor returns what seat s may know: its own card; the mafia's team each
// other; the Don's and the detective's own answers; roles revealed by the
// rules; everything public. An unknown seat gets the spectator's view.
func (g *Game) ViewFor(s Seat) View {
	var v View
	g.ViewInto(&v, s)
	return v
}

// SpectatorView returns public information only.
func (g *Game) SpectatorView() View {
	var v View
	g.ViewInto(&v, 0)
	return v
}

// HostView returns everything: every card, every night action.
func (g *Game) HostView() View {
	var v View
	g.public(&v)
	v.Host = true
	for s := Seat(1); s <= Seat(g.n); s++ {
		v.Roles[s], v.Teams[s] = g.roles[s], g.roles[s].Team()
	}
	v.KillTarget = g.mafiaTarget()
	v.ShotTarget, v.HealTarget = g.shot, g.heal
	v.MafiaChoice, v.MafiaActed = g.mafiaChoice, g.mafiaActed
	v.Healed, v.ShotsLeft = g.healed, g.shotsLeft
	v.HealBanned = g.healBanned()
	for s := Seat(1); s <= Seat(g.n); s++ {
		if g.donKnows[s] != ResultNone {
			v.Checks[s] = g.donKnows[s]
		}
		if g.detKnows[s] != ResultNone {
			v.Checks[s] = g.detKnows[s]
		}
	}
	return v
}

func (g *Game) healBanned() Seat {
	if g.rules.DoctorRepeat == DoctorNotTwiceInARow && g.lastHealRnd+1 == g.round && g.phase == PhaseNight {
		return g.lastHeal
	}
	return 0
}

// public fills what everyone may know and clears the rest. It assigns field
// by field: a View is filled for every bot decision, so this is hot.
func (g *Game) public(v *View) {
	// One statement per array: a tuple assignment would copy each array
	// through a temporary first.
	v.Seat, v.Host, v.Players, v.Rules = 0, false, g.n, g.rules
	v.Phase, v.Round, v.Step, v.Speaker, v.Winner, v.Alive = g.phase, g.round, g.step, g.speaker, g.winner, g.alive
	v.Candidates = g.cand
	v.NumCandidates, v.Nominated = g.ncand, g.nominated
	v.Talk, v.Said = g.talk, g.said
	v.Fouls = g.fouls
	v.LostSpeech, v.Victims = g.lostSpeech, g.victims
	v.Ballot = g.ballot
	v.Role = RoleNone
	v.Roles = g.shownRole
	v.Teams = g.teamsOf[0]
	v.KillTarget, v.CheckTarget, v.ShotTarget, v.HealTarget, v.Skipped = 0, 0, 0, 0, false
	v.Checks = [MaxSeats + 1]Result{}
	v.MafiaChoice = [MaxSeats + 1]Seat{}
	v.MafiaActed, v.ShotsLeft, v.Healed, v.HealBanned = 0, 0, 0, 0
	v.Voted, v.MyVote, v.MyYes = false, 0, false
}

// ViewInto fills *v with ViewFor(s) without allocating. Seat 0 (or any seat
// not at the table) gets the spectator's view.
func (g *Game) ViewInto(v *View, s Seat) {
	g.public(v)
	if !g.seatOK(s) {
		return
	}
	v.Seat = s
	r := g.roles[s]
	v.Role = r
	v.Roles[s], v.Teams[s] = r, r.Team()
	night := g.phase == PhaseNight
	if g.mafia.Has(s) {
		for m := g.mafia; m != 0; {
			t := m.First()
			m &= m - 1 // drops the seat just taken, the lowest, without a shift
			v.Roles[t], v.Teams[t] = g.roles[t], TeamMafia
		}
		if night {
			v.MafiaChoice = g.mafiaChoice
			v.MafiaActed = g.mafiaActed
			if g.mafiaActed.Has(s) {
				v.KillTarget = g.mafiaChoice[s]
			}
		}
	}
	// The secrets of the one night card besides the mafia's the seat may
	// hold: one chain of comparisons that stops at the seat's card (a seat
	// holds one card, and a card no one holds has seat 0, never s), the
	// night's parts only at night.
	switch s {
	case g.don:
		v.Checks = g.donKnows
		if night {
			v.CheckTarget = g.donCheck
		}
	case g.det:
		v.Checks = g.detKnows
		if night {
			v.CheckTarget = g.detCheck
		}
	case g.man:
		v.ShotsLeft = g.shotsLeft
		if night {
			v.ShotTarget = g.shot
		}
	case g.doc:
		v.Healed = g.healed
		v.HealBanned = g.healBanned()
		if night {
			v.HealTarget = g.heal
		}
	}
	switch g.phase {
	case PhaseNight:
		v.Skipped = g.skipped.Has(s)
	case PhaseVote, PhaseRevote:
		v.Voted, v.MyVote = g.voted.Has(s), g.votes[s]
	case PhaseAllVote:
		v.Voted, v.MyYes = g.voted.Has(s), g.yes.Has(s)
	}
}

// MoveViewInto sets the fields of *v that a move's legality reads to
// ViewFor(s)'s, and leaves every other field as it is: View.Targets and
// View.Can of the moves (Kill, Check, Shoot, Heal, Skip, Nominate, Vote,
// AllVote, Pass) answer from it as from ViewFor(s). The fields it sets:
// Seat, Players, Rules, Phase, Round, Speaker, Alive, Candidates,
// NumCandidates, Nominated, Role, Teams, CheckTarget, ShotTarget,
// HealTarget, Skipped, MafiaActed, ShotsLeft, Healed, HealBanned and Voted.
//
// It is for a driver asking a bot that decides its moves from these fields
// alone (the random bot) at every decision of a simulated game: it copies
// a third of what ViewInto does. Give it a View that nothing else fills:
// then every field it does not set stays zero, and no seat's secret is left
// in the view from another seat's fill.
func (g *Game) MoveViewInto(v *View, s Seat) {
	if !g.seatOK(s) {
		s = 0
	}
	v.Seat, v.Players, v.Rules = s, g.n, g.rules
	v.Phase, v.Round, v.Speaker, v.Alive = g.phase, g.round, g.speaker, g.alive
	v.Candidates = g.cand
	v.NumCandidates, v.Nominated = g.ncand, g.nominated
	if s == 0 {
		v.Role, v.Teams = RoleNone, g.teamsOf[0]
		v.CheckTarget, v.ShotTarget, v.HealTarget, v.Skipped = 0, 0, 0, false
		v.MafiaActed, v.ShotsLeft, v.Healed, v.HealBanned, v.Voted = 0, 0, 0, 0, false
		return
	}
	// No branch on the seat's card: which seat decides next is the random
	// game's, so a branch on whether it is the mafia's, the Don's, the
	// detective's, ... was mispredicted. The teams a mafioso knows are kept
	// whole in the state (teamsOf[1]) and one of the two arrays is copied;
	// every private scalar is kept by a mask of the seat's card (and the
	// night's parts by one of the night).
	r := g.roles[s]
	v.Role = r
	mafia := SeatSet(uint32(g.mafia)>>(s&31)) & 1
	v.Teams = g.teamsOf[mafia]
	v.Teams[s] = r.Team()
	night := mask8(g.phase == PhaseNight)
	don, det, man, doc := mask8(s == g.don), mask8(s == g.det), mask8(s == g.man), mask8(s == g.doc)
	v.MafiaActed = g.mafiaActed & -(mafia & SeatSet(night&1))
	v.CheckTarget = (g.donCheck&Seat(don) | g.detCheck&Seat(det)) & Seat(night)
	v.ShotsLeft = g.shotsLeft & man
	v.ShotTarget = g.shot & Seat(man&night)
	v.Healed = g.healed & SeatSet(int32(int8(doc)))
	v.HealBanned = g.healBanned() & Seat(doc)
	v.HealTarget = g.heal & Seat(doc&night)
	v.Skipped = uint32(g.skipped)>>(s&31)&uint32(night)&1 != 0
	v.Voted = uint32(g.voted)>>(s&31)&1&(votePhases>>g.phase) != 0
}

// votePhases is the set of the phases in which a seat votes, a bit each.
const votePhases = 1<<PhaseVote | 1<<PhaseRevote | 1<<PhaseAllVote

// mask8 is 0xff for true and 0 for false (a SETcc and a negation, no
// branch).
func mask8(b bool) uint8 { return -b2u8(b) }

// DayMoveViewInto sets the fields of *v that a move's legality reads
// outside the night, all of them public: Seat, Players, Rules, Phase,
// Round, Speaker, Alive, Candidates, NumCandidates, Nominated and Voted
// (that the seat has voted is public at once), as ViewFor(s) has them. At
// any step but the night, View.Targets and View.Can of every move (Kill,
// Check, Shoot, Heal, Skip, Nominate, Vote, AllVote, Pass) answer from it as
// from ViewFor(s): the night's moves have no targets by day whatever the
// card. At night it is not the seat's moves' view: use MoveViewInto.
//
// It is MoveViewInto without the seat's card and its secrets, for a driver
// asking the random bot by day (its votes and nominations, most of a
// simulated game's decisions). Give it a View that nothing else fills:
// then it never holds a secret.
func (g *Game) DayMoveViewInto(v *View, s Seat) {
	if !g.seatOK(s) {
		s = 0
	}
	v.Seat, v.Players, v.Rules = s, g.n, g.rules
	v.Phase, v.Round, v.Speaker, v.Alive = g.phase, g.round, g.speaker, g.alive
	v.Candidates = g.cand
	v.NumCandidates, v.Nominated = g.ncand, g.nominated
	v.Voted = uint32(g.voted)>>(s&31)&1&(votePhases>>g.phase) != 0 // seat 0 never votes
}
