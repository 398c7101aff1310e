package assist

// This file links a club's game's seats to the club's roster after the
// game (a game made offline, or with names typed): PUT
// /host/api/games/{id}/people.

import (
	"net/http"
	"slices"

	"mafia/assist/record"
	"mafia/engine"
)

// peopleRequest is the body of PUT /host/api/games/{id}/people: every
// seat's roster id in seating order ("": a guest), and the club's code
// (as a new game sends it; a login that owns or hosts the club needs none).
type peopleRequest struct {
	People    []string `json:"people"`
	ClubToken string   `json:"club_token,omitempty"`
}

// setPeople answers PUT /host/api/games/{id}/people for the game's host
// holding the club's code (or logged in as an owner or host of the club):
// the seats of a club's game are linked to roster entries, during or
// after the game, and the club's standings count them from then on. A
// game of no club, a list of another length, an id not on the club's
// roster or one entry on two seats is refused (bad_settings).
func (h *Handler) setPeople(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	id := r.PathValue("id")
	var req peopleRequest
	if err := decode(r, &req, 8<<10); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	gm, ok := h.hostGame(w, r, id)
	if !ok {
		return
	}
	defer h.unlock(gm)
	s := gm.rec.Settings
	if s.Club == nil || s.Club.Club == "" {
		h.fail(w, r, &engine.Error{Code: record.CodeBadSettings, Name: "club", Value: "club"}, nil)
		return
	}
	if len(req.People) != len(s.Names) {
		h.fail(w, r, &engine.Error{Code: record.CodeBadSettings, Name: "club", Value: "people"}, nil)
		return
	}
	for i, p := range req.People {
		if p != "" && slices.Contains(req.People[:i], p) {
			h.fail(w, r, &engine.Error{Code: record.CodeBadSettings, Name: "club", Value: "people"}, nil)
			return
		}
	}
	info := *s.Club
	info.People = nil
	if slices.ContainsFunc(req.People, func(p string) bool { return p != "" }) {
		info.People = append([]string(nil), req.People...)
	}
	next := s
	next.Club = &info
	if err := h.checkClubGame(r, &next, req.ClubToken); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	rec := gm.rec
	rec.Settings = next
	t := gm.table
	old := gm.rec
	gm.rec = rec
	t.Data, t.UpdatedAt = gm.data(), h.cfg.Now().UTC()
	if err := h.cfg.Store.UpdateTable(r.Context(), t); err != nil {
		gm.rec = old
		h.fail(w, r, err, nil)
		return
	}
	gm.table = t
	writeJSON(w, http.StatusOK, map[string]any{"settings": gm.rec.Settings})
}
