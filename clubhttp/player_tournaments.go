package clubhttp

// This file lists the tournaments an account referees or runs (docs/club.md,
// The referee): on the account's own page (account.HandlerConfig.Running)
// and for the assistant (GET /host/api/clubs/mine/tournaments), each with
// the account's role and a link to the tournament's organiser's screen,
// which shows that role's controls.

import (
	"context"
	"encoding/json"
	"net/http"

	"mafia/account"
	"mafia/store"
	"mafia/tournament"
)

// MaxRunning bounds how many tournaments an account's list holds.
const MaxRunning = 50

// OrganiserURL is the organiser's screen of a club's tournament.
func OrganiserURL(clubID, tournamentID string) string {
	return "/host/clubs/" + clubID + "/organiser/" + tournamentID
}

// PlayerTournaments is the tournaments of the account's clubs (those it is
// a member of, or linked to from their roster) that it referees (the
// organiser named its account) or runs as the club's owner or host, the
// club's oldest first, at most MaxRunning. A referee's account that is in
// no way the club's finds the tournament by the link the organiser sends.
func (h *Handler) PlayerTournaments(ctx context.Context, id int64) ([]account.TournamentRunJSON, error) {
	out := []account.TournamentRunJSON{}
	if id == 0 {
		return out, nil
	}
	cs, err := h.members().AccountClubs(ctx, id)
	if err != nil {
		return out, err
	}
	for _, c := range cs {
		items, err := h.cfg.Store.ClubTournaments(ctx, c.Club)
		if err != nil {
			return out, err
		}
		runs := c.Role == store.ClubOwner || c.Role == store.ClubHost
		for _, it := range items {
			role := ""
			var t tournament.Tournament
			switch {
			case runs:
				role = roleOrganiser
			case json.Unmarshal(it.Data, &t) == nil && t.IsReferee(id):
				role = roleReferee
			default:
				continue
			}
			if len(out) == MaxRunning {
				return out, nil
			}
			out = append(out, account.TournamentRunJSON{Club: c.Club, ClubName: c.Name, Tournament: it.ID, Name: it.Name,
				State: it.State, Role: role, Link: OrganiserURL(c.Club, it.ID)})
		}
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
