package assist

import (
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/store"
)

// StatusDeleted is the store status of an in-person game its host deleted
// from the club's history (one never finished). Its rows stay in the file,
// as a damaged table's do, but nothing lists, serves or resumes it.
const StatusDeleted store.Status = "in_person_deleted"

// CodeGameEndedKept refuses to delete a finished game: its result is the
// club's record.
const CodeGameEndedKept engine.Code = "game_ended_kept"

// Rename is one correction of a player's name after the game was made:
// the game's record keeps every one, in order.
type Rename struct {
	Seat int       `json:"seat"`
	From string    `json:"from"`
	To   string    `json:"to"`
	At   time.Time `json:"at"`
}

// deleteGame answers DELETE /host/api/games/{id} for the game's host, or
// for the club's host when the game is a club's (its code, or a login that
// owns or hosts the club: a game whose phone is gone is closed from the
// club's list): a game that never ended leaves the club's history (and
// every API); a finished one is refused (game_ended_kept).
func (h *Handler) deleteGame(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	id := r.PathValue("id")
	gm, err := h.locked(r.Context(), id)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	defer h.unlock(gm)
	if cl := gm.rec.Settings.Club; !gm.authorized(tokenOf(r, id)) && (cl == nil || cl.Club == "" || !h.cfg.Clubs.Manages(r, cl.Club)) {
		h.fail(w, r, errBadToken, nil)
		return
	}
	if gm.g.Ended() || gm.table.Status == StatusEnded {
		h.fail(w, r, &engine.Error{Code: CodeGameEndedKept}, nil)
		return
	}
	t := gm.table
	t.Status, t.UpdatedAt = StatusDeleted, h.cfg.Now().UTC()
	if err := h.cfg.Store.UpdateTable(r.Context(), t); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	gm.stale = true // no request finds it in memory any more
	h.mu.Lock()
	h.games.remove(id)
	h.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"deleted": id})
}

// namesRequest is the body of PUT /host/api/games/{id}/names: every seat's
// name, in seating order.
type namesRequest struct {
	Names []string `json:"names"`
}

// setNames answers PUT /host/api/games/{id}/names for the game's host: it
// corrects the players' names (the seats and the cards stay), and the
// game's record keeps each change (Rename), which the protocol lists.
func (h *Handler) setNames(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	id := r.PathValue("id")
	var req namesRequest
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
	if len(req.Names) != len(s.Names) {
		h.fail(w, r, &engine.Error{Code: record.CodeBadSettings, Name: "roles", N: len(s.Names)}, nil)
		return
	}
	now := h.cfg.Now().UTC()
	var changes []Rename
	for i, n := range req.Names {
		if n == "" || utf8.RuneCountInString(n) > record.MaxName || strings.TrimSpace(n) == "" {
			h.fail(w, r, &engine.Error{Code: record.CodeBadSettings, Name: "names", Seat: engine.Seat(i + 1)}, nil)
			return
		}
		if n != s.Names[i] {
			changes = append(changes, Rename{Seat: i + 1, From: s.Names[i], To: n, At: now})
		}
	}
	if len(changes) > 0 {
		rec := gm.rec
		rec.Settings.Names = append([]string(nil), req.Names...)
		rec.Renames = append(append([]Rename(nil), gm.rec.Renames...), changes...)
		t := gm.table
		old := gm.rec
		gm.rec = rec
		t.Data, t.UpdatedAt = gm.data(), now
		if err := h.cfg.Store.UpdateTable(r.Context(), t); err != nil {
			gm.rec = old
			h.fail(w, r, err, nil)
			return
		}
		gm.table = t
	}
	writeJSON(w, http.StatusOK, map[string]any{"settings": gm.rec.Settings, "renames": renamesOf(gm.rec.Renames)})
}

func renamesOf(rs []Rename) []Rename {
	if rs == nil {
		return []Rename{}
	}
	return rs
}
