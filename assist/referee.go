package assist

// This file invites a tournament's referee to follow a game made at the
// tournament's table (docs/club.md, The referee): when the organiser named
// the referee's site account, the new game's list of co-hosts holds an
// invitation by that account (cohost_account.go), as if the host had
// invited them on the Invite screen, so the referee follows it from the
// assistant's home with one tap. The invitation's one-time code is never
// shown (the host may give a new one, or revoke it, as any other).

import (
	"net/http"

	"mafia/assist/record"
	"mafia/internal/secret"
)

// refereeInvitation is the co-hosts a new game of settings s starts with:
// the invitation of its tournament's referee by their account, or none (a
// game of no tournament, a tournament with no referee's account, or the
// club not answering: logged, and the host may invite by hand).
func (h *Handler) refereeInvitation(r *http.Request, s *record.Settings) []Cohost {
	if s.Club == nil || s.Club.Club == "" || s.Club.Tournament == nil {
		return nil
	}
	tt := s.Club.Tournament
	acct, name, login, err := h.cfg.Clubs.TournamentReferee(r.Context(), s.Club.Club, tt.ID)
	if err != nil {
		h.cfg.Log.Info("assist: a tournament's referee not invited to its game", "tournament", tt.ID, "err", err)
		return nil
	}
	if acct == 0 {
		return nil
	}
	if name == "" {
		name = login
	}
	return []Cohost{{ID: 1, Name: name, Code: secret.Hash(secret.Token()), Added: h.cfg.Now().UTC(), Account: acct, AccountName: login}}
}
