package clubhttp

// This file serves a tournament's referee as an account (docs/club.md,
// The referee): the organiser names the referee's site account (a member
// of the club or any person's account, by its name) when making the
// tournament or later; that account, logged in, may give the extra points
// of the tournament's tables (the API and the organiser's screen) as a
// host of the club may, and nothing else of the club's; and a game the
// assistant makes from the tournament's table link invites it to follow
// the game (TournamentReferee, which the assistant asks).

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"unicode/utf8"

	"mafia/club"
	"mafia/engine"
	"mafia/store"
	"mafia/tournament"
)

// nameReferee names t's referee: the name shown (empty: the account's) and
// the account of the name login (empty: none); an unknown account or a
// bot's is refused bad_member (Name "account").
func (h *Handler) nameReferee(ctx context.Context, t *tournament.Tournament, name, login string) error {
	if login == "" {
		return t.SetReferee(name, 0, "")
	}
	if utf8.RuneCountInString(login) > tournament.MaxName {
		return &engine.Error{Code: club.CodeBadMember, Name: "account", Value: login}
	}
	a, err := h.personAccount(ctx, login)
	if err != nil {
		return err
	}
	return t.SetReferee(name, a.ID, a.Name)
}

// refereeRequest is the body of PUT .../tournaments/{t}/referee: the
// referee's name as shown and their account's name (empty: none).
type refereeRequest struct {
	Referee string `json:"referee"`
	Account string `json:"account"`
}

// setReferee serves PUT /host/api/clubs/{club}/tournaments/{t}/referee: a
// host of the club names the tournament's referee and their account (in
// place of those named before; an empty account: none).
func (h *Handler) setReferee(w http.ResponseWriter, r *http.Request) {
	var req refereeRequest
	h.changeTournament(w, r, &req, func(ctx context.Context, t *tournament.Tournament, _ *club.Roster) error {
		return h.nameReferee(ctx, t, req.Referee, req.Account)
	})
}

// refereeAccess is who asks to change a tournament of the club in the
// request's path that its referee may change: the club and the access,
// refused at once (refereeOf) when the tournament as read is not theirs to
// change; the change checks it again on the tournament it changes. A
// tournament of another club, or none, is not found.
func (h *Handler) refereeAccess(r *http.Request, id string) (store.Club, clubAccess, error) {
	_, t, _, err := h.loadTournament(r.Context(), r.PathValue("club"), id)
	if err != nil {
		return store.Club{}, clubAccess{}, err
	}
	c, _, err := h.loadClub(r.Context(), t.ClubID)
	if err != nil {
		return c, clubAccess{}, err
	}
	acc := h.accessOf(r, c)
	return c, acc, acc.refereeOf(&t)
}

// refereeOf is nil when the access may change what t's referee may: the
// club's code, an owner or a host, or t's referee's account; else the
// refusal: bad_token for no login, not_referee for another account.
func (a clubAccess) refereeOf(t *tournament.Tournament) error {
	switch {
	case a.atLeastHost() == nil || t.IsReferee(a.Account):
		return nil
	case a.Account == 0:
		return errBadToken
	}
	return &engine.Error{Code: tournament.CodeNotReferee}
}

// TournamentReferee is the referee of a club's tournament as the
// assistant invites them to follow a game made at the tournament's table
// (assist.Clubs): their account (0: none named), the name shown and the
// account's name; a tournament of another club, or none, is
// store.ErrNotFound.
func (h *Handler) TournamentReferee(ctx context.Context, clubID, id string) (account int64, name, login string, err error) {
	st, err := h.cfg.Store.Tournament(ctx, id)
	if err == nil && st.ClubID != clubID {
		err = store.ErrNotFound
	}
	if err != nil {
		return 0, "", "", err
	}
	var t tournament.Tournament
	if err := json.Unmarshal(st.Data, &t); err != nil {
		return 0, "", "", errors.Join(store.ErrDamaged, err)
	}
	if t.RefereeAccount == 0 {
		return 0, "", "", nil
	}
	return t.RefereeAccount, t.Referee, t.RefereeLogin, nil
}
