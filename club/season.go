package club

import (
	"cmp"
	"slices"
	"time"

	"mafia/engine"
)

// DateLayout is how a club writes days: 2026-12-01.
const DateLayout = "2006-01-02"

// Season is a club's season: the games played from From to To, both days
// included (YYYY-MM-DD).
type Season struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Check refuses a season without a name, with a day that is no date, or
// one that ends before it begins.
func (s Season) Check() error {
	if err := CheckName(s.Name, "season"); err != nil {
		return err
	}
	from, err1 := time.Parse(DateLayout, s.From)
	to, err2 := time.Parse(DateLayout, s.To)
	switch {
	case err1 != nil:
		return &engine.Error{Code: CodeBadClub, Name: "from", Value: s.From}
	case err2 != nil:
		return &engine.Error{Code: CodeBadClub, Name: "to", Value: s.To}
	case to.Before(from):
		return &engine.Error{Code: CodeBadClub, Name: "to", Value: s.To}
	}
	return nil
}

// Holds reports whether a game's day is in the season.
func (s Season) Holds(date string) bool { return date >= s.From && date <= s.To }

// Standing is one person's line of a season's standings.
type Standing struct {
	Place  int    `json:"place"`
	Person string `json:"person"`
	Name   string `json:"name"`
	Points Points `json:"points"`
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	// Wins by side, and games by side (the card's team).
	WinsTown     int `json:"wins_town"`
	WinsMafia    int `json:"wins_mafia"`
	WinsManiac   int `json:"wins_maniac"`
	GamesTown    int `json:"games_town"`
	GamesMafia   int `json:"games_mafia"`
	GamesManiac  int `json:"games_maniac"`
	BestMoves    int `json:"best_moves"`    // best moves with points
	FoulRemovals int `json:"foul_removals"` // removals by fouls
	// Games and wins with the cards of one role: the Don, the Detective,
	// the Doctor (the town's and the mafia's above count them too).
	GamesDon       int `json:"games_don"`
	WinsDon        int `json:"wins_don"`
	GamesDetective int `json:"games_detective"`
	WinsDetective  int `json:"wins_detective"`
	GamesDoctor    int `json:"games_doctor"`
	WinsDoctor     int `json:"wins_doctor"`
	// ByRole is the games, wins and win rate per row of RoleRows (Roles).
	ByRole []RoleLine `json:"by_role"`
	// Average is Points per game, rounded half away from zero to a hundredth.
	Average Points `json:"average"`
}

// Standings counts a season's games under the rules, per person of the
// roster (merged entries under the entry they were merged into; guests,
// with no roster id, are left out): points, games, wins by side, the
// average. The order is points, then average, then fewer games, then name;
// equal players share a place.
func (s Scoring) Standings(season Season, roster *Roster, games []Game) []Standing {
	by := map[string]*Standing{}
	for i := range games {
		g := &games[i]
		if !season.Holds(g.Date) || g.Winner == "" {
			continue
		}
		for _, l := range s.Score(g) {
			id := roster.Resolve(l.Seat.Person)
			if id == "" {
				continue
			}
			st := by[id]
			if st == nil {
				p, _ := roster.Person(id)
				st = &Standing{Person: id, Name: p.Name}
				by[id] = st
			}
			st.Points += l.Total
			st.Games++
			r, _ := engine.ParseRole(l.Seat.Role)
			switch {
			case r == engine.Maniac:
				st.GamesManiac++
			case r.Team() == engine.TeamMafia:
				st.GamesMafia++
			default:
				st.GamesTown++
			}
			st.countRole(r, l.Won)
			if l.Won {
				st.Wins++
				switch {
				case r == engine.Maniac:
					st.WinsManiac++
				case r.Team() == engine.TeamMafia:
					st.WinsMafia++
				default:
					st.WinsTown++
				}
			}
			if l.BestMove > 0 {
				st.BestMoves++
			}
			if l.RemovedByFouls {
				st.FoulRemovals++
			}
		}
	}
	out := make([]Standing, 0, len(by))
	for _, st := range by {
		st.Average = average(st.Points, st.Games)
		st.ByRole = st.Roles()
		out = append(out, *st)
	}
	slices.SortFunc(out, func(a, b Standing) int {
		if c := rank(a, b); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(Fold(a.Name), Fold(b.Name)), cmp.Compare(a.Person, b.Person))
	})
	for i := range out {
		out[i].Place = i + 1
		if i > 0 && rank(out[i-1], out[i]) == 0 {
			out[i].Place = out[i-1].Place
		}
	}
	return out
}

func rank(a, b Standing) int {
	return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Average, a.Average), cmp.Compare(a.Games, b.Games))
}

// average is p / n in hundredths, rounded half away from zero.
func average(p Points, n int) Points {
	if n == 0 {
		return 0
	}
	x := int(p) * 2 / n
	if x >= 0 {
		return Points((x + 1) / 2)
	}
	return Points((x - 1) / 2)
}
