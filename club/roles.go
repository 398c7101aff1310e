package club

import "mafia/engine"

// countRole counts a game with a card of its own row (the Don, the
// Detective, the Doctor) and whether it was won.
func (st *Standing) countRole(r engine.Role, won bool) {
	var g, w *int
	switch r {
	case engine.Don:
		g, w = &st.GamesDon, &st.WinsDon
	case engine.Detective:
		g, w = &st.GamesDetective, &st.WinsDetective
	case engine.Doctor:
		g, w = &st.GamesDoctor, &st.WinsDoctor
	default:
		return
	}
	*g++
	if won {
		*w++
	}
}

// RoleLine is a player's games and wins with one role's cards over a
// season: Role is one of RoleRows.
type RoleLine struct {
	Role  string `json:"role"`
	Games int    `json:"games"`
	Wins  int    `json:"wins"`
	// WinRate is Wins per Games in percent, rounded half up (0 with no
	// games).
	WinRate int `json:"win_rate"`
}

// RoleRows are the rows of a player's statistics by role: the sides
// (town: every town card; mafia: the Don and the mafiosi; maniac) and the
// roles that have their own row (don, detective, doctor).
var RoleRows = []string{"town", "mafia", "don", "detective", "doctor", "maniac"}

// Roles gives a standing's games, wins and win rate per row of RoleRows.
func (st Standing) Roles() []RoleLine {
	gw := [][2]int{{st.GamesTown, st.WinsTown}, {st.GamesMafia, st.WinsMafia}, {st.GamesDon, st.WinsDon},
		{st.GamesDetective, st.WinsDetective}, {st.GamesDoctor, st.WinsDoctor}, {st.GamesManiac, st.WinsManiac}}
	out := make([]RoleLine, len(RoleRows))
	for i, r := range RoleRows {
		out[i] = RoleLine{Role: r, Games: gw[i][0], Wins: gw[i][1], WinRate: WinRate(gw[i][1], gw[i][0])}
	}
	return out
}

// WinRate is wins per games in percent, rounded half up; 0 with no games.
func WinRate(wins, games int) int {
	if games == 0 {
		return 0
	}
	return (wins*200 + games) / (games * 2)
}
