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
// place of those named before; an empty account: none). Once kept, the
// games already made at the tournament's real tables invite the new
// account and revoke the former's invitation (reinvite).
func (h *Handler) setReferee(w http.ResponseWriter, r *http.Request) {
	var req refereeRequest
	var was, now tournament.Tournament
	kept := h.changeTournament(w, r, &req, func(ctx context.Context, t *tournament.Tournament, _ *club.Roster) error {
		was = *t
		err := h.nameReferee(ctx, t, req.Referee, req.Account)
		now = *t
		return err
	})
	if kept {
		h.reinvite(r.Context(), &was, &now)
	}
}

// Referees move the invitations of a tournament's games to its new
// referee: the host's assistant (assist.Handler.ReinviteReferee), which
// keeps the games and their invitations.
type Referees interface {
	// ReinviteReferee revokes, in each of the games of club clubID's
	// tournament, the invitation naming the account was (0: none) and
	// invites account (0: none) by the name shown and its login; it
	// answers how many games changed.
	ReinviteReferee(ctx context.Context, clubID, tournamentID string, games []string, was, account int64, name, login string) (int, error)
}

// InviteWith gives the clubs the assistant that moves a tournament's
// games' invitations when its referee changes (nil: none moved). It is
// called once, before the handler serves, where the two are wired.
func (h *Handler) InviteWith(r Referees) { h.referees = r }

// reinvite moves the invitations of the games made at t's real tables
// (linked to them) from the referee's account before the change (was) to
// the one after (now), when the account changed. A game the assistant
// cannot change is logged: the referee is named all the same, and the
// game's host may invite them by hand.
func (h *Handler) reinvite(ctx context.Context, was, now *tournament.Tournament) {
	if h.referees == nil || was.RefereeAccount == now.RefereeAccount {
		return
	}
	var games []string
	for _, round := range now.Rounds {
		for _, tb := range round.Tables {
			if tb.Game != "" && tb.Online == "" {
				games = append(games, tb.Game)
			}
		}
	}
	if len(games) == 0 {
		return
	}
	n, err := h.referees.ReinviteReferee(ctx, now.ClubID, now.ID, games, was.RefereeAccount, now.RefereeAccount, now.Referee, now.RefereeLogin)
	if err != nil {
		h.cfg.Log.Warn("clubs: the new referee not invited to every game", "tournament", now.ID, "changed", n, "err", err)
	}
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

// The roles the organiser's screen shows a tournament for (viewerRole).
const (
	roleOrganiser = "organiser" // the club's code, an owner or a host: every control
	roleReferee   = "referee"   // the tournament's referee's account: the tables' extras
	rolePublic    = "public"    // anyone else: the tournament read only
)

// viewerRole is who the access is for tournament t, as the server decides
// what they may do: the organiser (every change), the referee (what
// refereeOf allows: the tables' extras), or the public (nothing).
func viewerRole(a clubAccess, t *tournament.Tournament) string {
	switch {
	case a.atLeastHost() == nil:
		return roleOrganiser
	case t.IsReferee(a.Account):
		return roleReferee
	}
	return rolePublic
}
