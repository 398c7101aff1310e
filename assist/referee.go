package assist

// This file invites a tournament's referee to follow a game made at the
// tournament's table (docs/club.md, The referee): when the organiser named
// the referee's site account, the new game's list of co-hosts holds an
// invitation by that account (cohost_account.go), as if the host had
// invited them on the Invite screen, so the referee follows it from the
// assistant's home with one tap. The invitation's one-time code is never
// shown (the host may give a new one, or revoke it, as any other). When
// the organiser names another referee, the games already made at the
// tournament's tables invite the new account and revoke the former's
// invitation (ReinviteReferee), as the host would on the Invite screen.

import (
	"context"
	"errors"
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

// ReinviteReferee moves the invitations of the games made at club clubID's
// tournament's tables (games, their ids) from the former referee's account
// (was; 0: none) to the new one (account, its name shown and its login; 0:
// none): each game's invitation naming was is revoked (its code and key
// stop at once), and account is invited, as the tournament's referee is
// when a game is made there, unless an invitation naming it is in force
// already or the game has no room (MaxCohosts: logged, the host may make
// room). A game that is not of this tournament, or not kept, is left as
// it is. It answers how many games changed, and the first error met.
func (h *Handler) ReinviteReferee(ctx context.Context, clubID, tournamentID string, games []string, was, account int64, name, login string) (int, error) {
	if name == "" {
		name = login
	}
	changed := 0
	var errs []error
	r, _ := http.NewRequestWithContext(ctx, http.MethodPut, "/", nil) // keep reads only its context
	for _, id := range games {
		gm, err := h.locked(ctx, id)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c := gm.rec.Settings.Club
		if c == nil || c.Club != clubID || c.Tournament == nil || c.Tournament.ID != tournamentID {
			h.unlock(gm)
			continue
		}
		revoke, invited := -1, false
		for i, co := range gm.rec.Cohosts {
			if co.Revoked != nil || co.Account == 0 {
				continue
			}
			switch {
			case co.Account == account:
				invited = true
			case co.Account == was:
				revoke = i
			}
		}
		invite := account != 0 && !invited
		freed := 0 // the former referee's place, given up here
		if revoke >= 0 {
			freed = 1
		}
		if invite && (gm.active()-freed >= MaxCohosts || len(gm.rec.Cohosts) >= MaxCohostEntries) {
			h.cfg.Log.Info("assist: the new referee not invited: the game has no room", "game", id)
			invite = false
		}
		if revoke < 0 && !invite {
			h.unlock(gm)
			continue
		}
		now := h.cfg.Now().UTC()
		cid := gm.nextCohostID()
		err = h.keep(r, gm, func(rec *inPerson) {
			if revoke >= 0 {
				co := &rec.Cohosts[revoke]
				co.Code, co.Key, co.Revoked = "", "", &now
			}
			if invite {
				rec.Cohosts = append(rec.Cohosts, Cohost{ID: cid, Name: name, Code: secret.Hash(secret.Token()), Added: now,
					Account: account, AccountName: login})
			}
		})
		h.unlock(gm)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		changed++
	}
	return changed, errors.Join(errs...)
}
