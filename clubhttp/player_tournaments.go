package clubhttp

// This file lists the tournaments an account referees or runs (docs/club.md,
// The referee): on the account's own page (account.HandlerConfig.Running)
// and for the assistant (GET /host/api/clubs/mine/tournaments), each with
// the account's role and a link to the tournament's organiser's screen,
// which shows that role's controls.

import (
	"context"
	"net/http"

	"mafia/account"
	"mafia/store"
)

// MaxRunning bounds how many tournaments an account's list holds.
const MaxRunning = 50

// OrganiserURL is the organiser's screen of a club's tournament.
func OrganiserURL(clubID, tournamentID string) string {
	return "/host/clubs/" + clubID + "/organiser/" + tournamentID
}

// PlayerTournaments is the tournaments the account runs as the club's owner
// or host (of its clubs: those it is a member of, or linked to from their
// roster), each club's oldest first, then those it referees (the organiser
// named its account) of any club, its own or not (store's
// RefereeTournaments, oldest first), at most MaxRunning in all.
func (h *Handler) PlayerTournaments(ctx context.Context, id int64) ([]account.TournamentRunJSON, error) {
	out := []account.TournamentRunJSON{}
	if id == 0 {
		return out, nil
	}
	cs, err := h.members().AccountClubs(ctx, id)
	if err != nil {
		return out, err
	}
	runs := map[string]bool{} // the clubs the account runs
	for _, c := range cs {
		if c.Role != store.ClubOwner && c.Role != store.ClubHost {
			continue
		}
		runs[c.Club] = true
		items, err := h.cfg.Store.ClubTournaments(ctx, c.Club)
		if err != nil {
			return out, err
		}
		for _, it := range items {
			if len(out) == MaxRunning {
				return out, nil
			}
			out = append(out, account.TournamentRunJSON{Club: c.Club, ClubName: c.Name, Tournament: it.ID, Name: it.Name,
				State: it.State, Role: roleOrganiser, Link: OrganiserURL(c.Club, it.ID)})
		}
	}
	refereed, err := h.cfg.Store.RefereeTournaments(ctx, id, MaxRunning)
	if err != nil {
		return out, err
	}
	names := map[string]string{}
	for _, c := range cs {
		names[c.Club] = c.Name
	}
	for _, it := range refereed {
		if runs[it.ClubID] {
			continue // listed as the organiser's
		}
		name, ok := names[it.ClubID]
		if !ok {
			c, err := h.clubs().Club(ctx, it.ClubID)
			if err != nil {
				return out, err
			}
			name, names[it.ClubID] = c.Name, c.Name
		}
		if len(out) == MaxRunning {
			return out, nil
		}
		out = append(out, account.TournamentRunJSON{Club: it.ClubID, ClubName: name, Tournament: it.ID, Name: it.Name,
			State: it.State, Role: roleReferee, Link: OrganiserURL(it.ClubID, it.ID)})
	}
	return out, nil
}

// myTournaments serves GET /host/api/clubs/mine/tournaments: the logged-in
// account's tournaments (PlayerTournaments); no login, none.
func (h *Handler) myTournaments(w http.ResponseWriter, r *http.Request) {
	out, err := h.PlayerTournaments(r.Context(), h.loggedIn(r))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tournaments": out})
}
