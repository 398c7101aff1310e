package engine

// Role is a card dealt to a seat.
type Role uint8

// The roles of docs/rules.md. RoleNone means "unknown" in a view.
const (
	RoleNone Role = iota
	Citizen
	Detective
	Doctor
	Mafioso
	Don
	Maniac
	numRoles
)

var roleNames = [numRoles]string{"", "citizen", "detective", "doctor", "mafia", "don", "maniac"}

// String returns the role's name as scenarios spell it ("mafia" for a mafioso).
func (r Role) String() string {
	if r < numRoles {
		return roleNames[r]
	}
	return "?"
}

// ParseRole reads a role name as scenarios spell it.
func ParseRole(s string) (Role, bool) {
	for r := Citizen; r < numRoles; r++ {
		if roleNames[r] == s {
			return r, true
		}
	}
	if s == "mafioso" {
		return Mafioso, true
	}
	return RoleNone, false
}

// Team is a side of the game.
type Team uint8

// The teams. TeamNone means "unknown" in a view.
const (
	TeamNone Team = iota
	TeamTown
	TeamMafia
	TeamManiac
)

var teamNames = [...]string{"", "town", "mafia", "maniac"}

// String returns the team's name.
func (t Team) String() string {
	if int(t) < len(teamNames) {
		return teamNames[t]
	}
	return "?"
}

// Team returns the role's team.
func (r Role) Team() Team {
	if r < numRoles {
		return roleTeams[r]
	}
	return TeamNone
}

// roleTeams is each role's team, read by Team on every view's fill.
var roleTeams = [numRoles]Team{RoleNone: TeamNone, Citizen: TeamTown, Detective: TeamTown, Doctor: TeamTown,
	Mafioso: TeamMafia, Don: TeamMafia, Maniac: TeamManiac}

// mafiaBit is 1 for the roles on the mafia's team and 0 for the others: a
// deal's fold (apply) shifts it to each seat's bit instead of branching.
var mafiaBit = [numRoles]SeatSet{Mafioso: 1, Don: 1}

// IsMafia reports whether the role is on the mafia's team (the Don included).
func (r Role) IsMafia() bool { return r == Mafioso || r == Don }

// Phase is the step the game is in.
type Phase uint8

// The phases, named as docs/scenarios.md names them.
const (
	PhaseNone Phase = iota
	PhaseNight
	PhaseLastWords
	PhaseSpeech
	PhaseDefence
	PhaseVote
	PhaseTieSpeech
	PhaseRevote
	PhaseAllVote
	PhaseEnded
	numPhases
)

var phaseNames = [numPhases]string{"", "night", "last_words", "speech", "defence", "vote", "tie_speech", "revote", "all_vote", "ended"}

// String returns the phase's name.
func (p Phase) String() string {
	if p < numPhases {
		return phaseNames[p]
	}
	return "?"
}

// ParsePhase reads a phase name.
func ParsePhase(s string) (Phase, bool) {
	for p := PhaseNight; p < numPhases; p++ {
		if phaseNames[p] == s {
			return p, true
		}
	}
	return PhaseNone, false
}

// Timed reports whether the phase is one person's timed turn to speak.
func (p Phase) Timed() bool {
	return p == PhaseSpeech || p == PhaseDefence || p == PhaseTieSpeech || p == PhaseLastWords
}

// Winner is the result of a game.
type Winner uint8

// The results. WinnerNone means the game goes on.
const (
	WinnerNone Winner = iota
	WinnerTown
	WinnerMafia
	WinnerManiac
	WinnerDraw
	numWinners
)

var winnerNames = [numWinners]string{"", "town", "mafia", "maniac", "draw"}

// String returns the result's name ("" while the game goes on).
func (w Winner) String() string {
	if w < numWinners {
		return winnerNames[w]
	}
	return "?"
}

// ParseWinner reads a result name.
func ParseWinner(s string) (Winner, bool) {
	for w := WinnerTown; w < numWinners; w++ {
		if winnerNames[w] == s {
			return w, true
		}
	}
	return WinnerNone, false
}

// Result is the answer to a night check.
type Result uint8

// The answers. The detective learns ResultMafia or ResultNotMafia (or
// ResultManiac under maniac_check=maniac); the Don learns ResultDetective or
// ResultNotDetective.
const (
	ResultNone Result = iota
	ResultMafia
	ResultNotMafia
	ResultManiac
	ResultDetective
	ResultNotDetective
	numResults
)

var resultNames = [numResults]string{"", "mafia", "not_mafia", "maniac", "detective", "not_detective"}

// String returns the answer's name.
func (r Result) String() string {
	if r < numResults {
		return resultNames[r]
	}
	return "?"
}

// ParseResult reads an answer name.
func ParseResult(s string) (Result, bool) {
	for r := ResultMafia; r < numResults; r++ {
		if resultNames[r] == s {
			return r, true
		}
	}
	return ResultNone, false
}
