package account

// This file holds what the clubs add to a player's page: the clubs the
// account belongs to and the in-person games of the roster entries linked
// to it (docs/club.md), which count in the page's tallies.

// ClubJSON is one club on a player's page: its id, name and the account's
// role there ("" when a roster entry of the club is linked to the account
// but it is no member).
type ClubJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Role string `json:"role,omitempty"`
}

// InPersonGame is one finished in-person game of a club that a roster entry
// linked to the account played: the card it had (as docs/rules.md spells
// it) and whether it won (club.Won: never when removed by fouls).
type InPersonGame struct {
	Role string
	Won  bool
}

// PlayerClubs is an account's clubs and the in-person games its linked
// roster entries played, as HandlerConfig.Clubs answers them.
type PlayerClubs struct {
	Clubs []ClubJSON
	Games []InPersonGame
}

// AddClubs puts a player's clubs on their page and counts the in-person
// games in its tallies (games, wins, by side, by card) and in InPerson.
func (p *ProfileJSON) AddClubs(pc PlayerClubs) {
	p.Clubs = append([]ClubJSON{}, pc.Clubs...)
	for _, g := range pc.Games {
		p.count(g.Role, g.Won)
		p.InPerson.Games++
		if g.Won {
			p.InPerson.Wins++
		}
	}
}

// TournamentTableJSON is a table of an online tournament where the
// account sits now (its round opened, the table waiting or playing), as its
// own page shows it: the club, the tournament, the round, the table, the
// seat and the link to sit there.
type TournamentTableJSON struct {
	Club       string `json:"club"`
	Tournament string `json:"tournament"`
	Name       string `json:"name"`
	Round      int    `json:"round"`
	Table      int    `json:"table"`
	Seat       int    `json:"seat"`
	Link       string `json:"link"`
	State      string `json:"state"`
}

// TournamentRunJSON is a tournament the account referees, or runs as an
// owner or host of its club, as its own page lists them: the club, the
// tournament, its state, the account's role there ("referee" or
// "organiser") and the link to the tournament's organiser's screen.
type TournamentRunJSON struct {
	Club       string `json:"club"`
	ClubName   string `json:"club_name"`
	Tournament string `json:"tournament"`
	Name       string `json:"name"`
	State      string `json:"state"`
	Role       string `json:"role"`
	Link       string `json:"link"`
}
