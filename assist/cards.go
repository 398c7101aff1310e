package assist

import (
	"net/http"
	"slices"
	"strconv"

	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/locale"
)

// cardReply is one player's card, for the holder of its link.
type cardReply struct {
	Game     string `json:"game"`
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	Who      string `json:"who"` // the seat and name as the host's page writes them
	Role     string `json:"role"`
	RoleName string `json:"role_name"` // in the request's language
}

// cardSeat returns the seat of /cards/{seat} if tok is its card token.
func (gm *game) cardSeat(r *http.Request, tok string) (int, error) {
	n, err := strconv.Atoi(r.PathValue("seat"))
	if err != nil || n < 1 || n > len(gm.seats) {
		return 0, &engine.Error{Code: httpapi.CodeNotFound}
	}
	if !tokenMatches(tok, gm.seats[n-1].TokenHash) {
		return 0, errBadToken
	}
	return n, nil
}

// getCard answers a player's phone with their card (the token of their
// link as a bearer token), and notes that the seat has seen it.
func (h *Handler) getCard(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	gm, err := h.locked(r.Context(), id)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	defer h.unlock(gm)
	n, err := gm.cardSeat(r, tokenOf(r, id))
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	role := gm.g.Role(engine.Seat(n))
	if !slices.Contains(gm.rec.Viewed, n) {
		gm.rec.Viewed = append(gm.rec.Viewed, n)
		t := gm.table
		t.Data = gm.data()
		if err := h.cfg.Store.UpdateTable(r.Context(), t); err != nil {
			h.cfg.Log.Error("assist: note a card seen", "table", id, "err", err)
		} else {
			gm.table = t
		}
	}
	p := locale.New(langOf(r))
	name := gm.rec.Settings.NameOf(n)
	writeJSON(w, http.StatusOK, cardReply{Game: gm.table.Name, Seat: n, Name: name,
		Who: p.T("assist.who", map[string]any{"Seat": n, "Name": name}), Role: role.String(), RoleName: p.Role(role)})
}

// cardStatus tells the host which seats have opened their card.
func (h *Handler) cardStatus(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	gm, ok := h.hostGame(w, r, id)
	if !ok {
		return
	}
	defer h.unlock(gm)
	viewed := append([]int{}, gm.rec.Viewed...)
	slices.Sort(viewed)
	writeJSON(w, http.StatusOK, map[string]any{"viewed": viewed})
}
