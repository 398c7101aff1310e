package assist

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"time"

	"mafia/assist/record"
	"mafia/store"
)

// Summary is one game in the club's history.
type Summary struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Players int       `json:"players"`
	Ended   bool      `json:"ended"`
	Winner  string    `json:"winner,omitempty"`
}

// listGames answers GET /host/api/games: the in-person games, newest first
// (?limit=, default 100, at most 1000), with their results. Nothing secret is
// listed: no cards, no names.
func (h *Handler) listGames(w http.ResponseWriter, r *http.Request) {
	limit := 100
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 {
		limit = min(n, 1000)
	}
	out := []Summary{}
	for _, st := range []store.Status{StatusLive, StatusEnded} {
		tables, err := h.cfg.Store.Tables(r.Context(), store.KindInPerson, store.TableFilter{Status: st, Limit: limit})
		if err != nil {
			h.fail(w, r, err, nil)
			return
		}
		for _, t := range tables {
			s := Summary{ID: t.ID, Name: t.Name, Created: t.CreatedAt, Updated: t.UpdatedAt,
				Ended: t.Status == StatusEnded, Winner: t.Winner}
			var c stored
			if json.Unmarshal(t.Data, &c) == nil && c.InPerson != nil {
				s.Players = len(c.InPerson.Settings.Names)
			}
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	if len(out) > limit {
		out = out[:limit]
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": out})
}

// gameReply answers GET /host/api/games/{id} for the host: everything to
// rebuild the game on a phone (the settings with the deal, and the entries).
type gameReply struct {
	ID       string           `json:"id"`
	Settings record.Settings  `json:"settings"`
	Commands []record.Command `json:"commands"`
	Events   int              `json:"events"`
	Ended    bool             `json:"ended"`
}

func (h *Handler) getGame(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	gm, ok := h.hostGame(w, r, id)
	if !ok {
		return
	}
	defer h.unlock(gm)
	writeJSON(w, http.StatusOK, gameReply{ID: id, Settings: gm.rec.Settings,
		Commands: append([]record.Command{}, gm.rec.Commands...), Events: len(gm.log), Ended: gm.g.Ended()})
}
