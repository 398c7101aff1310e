package clubhttp

// This file is what the host's assistant asks of a club for a game that
// counts for it (assist.Clubs, which Handler implements): the club's
// scoring, the roster a new game may seat, the game's place in the club's
// index, and who may see the club's games in the assistant's history.

import (
	"context"
	"net/http"

	"mafia/club"
	"mafia/store"
	"mafia/tournament"
)

// Scoring is a club's scoring rules (the defaults where it keeps none);
// store.ErrNotFound for no such club.
func (h *Handler) Scoring(ctx context.Context, clubID string) (club.Scoring, error) {
	_, sc, err := h.loadClub(ctx, clubID)
	return sc, err
}

// HostRoster is the roster of a club for a request that makes a game of
// it: one that carries the club's code (token, sent with the game's
// settings) or is logged in as an owner or host of it. It is
// store.ErrNotFound for no such club and bad_token for anyone else.
func (h *Handler) HostRoster(r *http.Request, clubID, token string) (*club.Roster, error) {
	ctx := r.Context()
	c, _, err := h.loadClub(ctx, clubID)
	if err != nil {
		return nil, err
	}
	if !tokenMatches(token, c.TokenHash) && h.accessOf(r, c).atLeastHost() != nil {
		return nil, errBadToken
	}
	people, err := h.people(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	return club.NewRoster(people), nil
}

// AddGame puts a new game into its club's index (store.Clubs.AddClubGame),
// which the standings read.
func (h *Handler) AddGame(ctx context.Context, clubID string, g store.ClubGame) error {
	return h.clubs().AddClubGame(ctx, clubID, g)
}

// Sees reports whether a request may see a club's games in the
// assistant's history: it holds the club's code (as a bearer token) or is
// logged in as a member of it.
func (h *Handler) Sees(r *http.Request, clubID string) bool {
	c, err := h.clubs().Club(r.Context(), clubID)
	if err != nil {
		return false
	}
	if tokenMatches(bearer(r), c.TokenHash) {
		return true
	}
	if acct := h.loggedIn(r); acct != 0 {
		_, err := h.members().ClubMember(r.Context(), clubID, acct)
		return err == nil
	}
	return false
}

// Manages reports whether a request may close (delete) a club's game that
// never ended, whoever made it: it holds the club's code (as a bearer
// token) or is logged in as an owner or host of the club.
func (h *Handler) Manages(r *http.Request, clubID string) bool {
	c, err := h.clubs().Club(r.Context(), clubID)
	if err != nil {
		return false
	}
	return tokenMatches(bearer(r), c.TokenHash) || h.accessOf(r, c).atLeastHost() == nil
}

// LinkTournament links a new game of the club to a round's table of the
// club's tournament, when the game is made at that table (assist.Clubs):
// the game as its seats' roster ids (people) must hold the table's
// players; a change that lost the race with another is applied again.
func (h *Handler) LinkTournament(ctx context.Context, clubID, tournamentID string, round, table int, tableID string, people []string) error {
	g := club.Game{ID: tableID}
	for i, p := range people {
		g.Seats = append(g.Seats, club.Seat{Seat: i + 1, Person: p})
	}
	return h.updateTournament(ctx, clubID, tournamentID, func(_ context.Context, t *tournament.Tournament, roster *club.Roster) error {
		return t.Link(round, table, &g, roster)
	})
}
