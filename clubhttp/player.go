package clubhttp

// This file answers what the clubs add to a player's page
// (account.HandlerConfig.Clubs): the account's clubs, and the finished
// in-person games that the roster entries linked to it played (under the
// entry or any entry merged into it).

import (
	"context"

	"mafia/account"
	"mafia/club"
)

// PlayerClubs is an account's clubs and its linked entries' in-person
// games, for the account's page.
func (h *Handler) PlayerClubs(ctx context.Context, id int64) (account.PlayerClubs, error) {
	out := account.PlayerClubs{Clubs: []account.ClubJSON{}}
	ms := h.members()
	cs, err := ms.AccountClubs(ctx, id)
	if err != nil {
		return out, err
	}
	for _, c := range cs {
		out.Clubs = append(out.Clubs, account.ClubJSON{ID: c.Club, Name: c.Name, Role: string(c.Role)})
		if c.Person == "" {
			continue
		}
		people, err := h.people(ctx, c.Club)
		if err != nil {
			return out, err
		}
		roster := club.NewRoster(people)
		games, err := h.clubGames(ctx, c.Club)
		if err != nil {
			return out, err
		}
		for _, g := range games {
			for _, s := range g.Seats {
				if s.Person != "" && roster.Resolve(s.Person) == c.Person {
					out.Games = append(out.Games, account.InPersonGame{Role: s.Role, Won: club.Won(s, g.Winner)})
				}
			}
		}
	}
	return out, nil
}
