package assist

import (
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
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

// listGames answers GET /host/api/games: the in-person games the request
// may see, newest first (?limit=, default 100, at most 1000), with their
// results. Nothing secret is listed: no cards, no names. A game is listed
// to its host: the phone that holds its host token (the game's cookie, or
// a bearer token), and the account logged in when it was made; and a
// club's game to the club (its code as a bearer token, or a logged-in
// member of any role). Anybody else gets an empty list: the server's games
// are nobody's business but their hosts' and clubs'. With ?club=ID the
// list is that club's games only (the club's list on a phone that keeps
// the club), and only for a request that may see the club's games: games
// of other clubs and games of no club, even this phone's, are left out.
// The newest scanGames games of each status are searched.
func (h *Handler) listGames(w http.ResponseWriter, r *http.Request) {
	limit := 100
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 {
		limit = min(n, 1000)
	}
	see := h.gameViewer(r)
	if id := r.URL.Query().Get("club"); id != "" {
		see = nil
		if h.cfg.Clubs.Sees(r, id) {
			see = func(_ store.Table, rec *inPerson) bool {
				return rec != nil && rec.Settings.Club != nil && rec.Settings.Club.Club == id
			}
		}
	}
	out := []Summary{}
	if see == nil { // nothing to see by: no search
		writeJSON(w, http.StatusOK, map[string]any{"games": out})
		return
	}
	for _, st := range []store.Status{StatusLive, StatusEnded} {
		tables, err := h.cfg.Store.Tables(r.Context(), store.KindInPerson, store.TableFilter{Status: st, Limit: scanGames})
		if err != nil {
			h.fail(w, r, err, nil)
			return
		}
		for _, t := range tables {
			var c stored
			_ = json.Unmarshal(t.Data, &c)
			if !see(t, c.InPerson) {
				continue
			}
			s := Summary{ID: t.ID, Name: t.Name, Created: t.CreatedAt, Updated: t.UpdatedAt,
				Ended: t.Status == StatusEnded, Winner: t.Winner}
			if c.InPerson != nil {
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

// scanGames is how many of the newest games of each status the history
// searches for the ones a request may see.
const scanGames = 2000

// gameViewer is which games a request may see in the history (listGames):
// those whose host token it holds (bearer or the game's cookie), those made
// by its login, and those of a club whose code it holds or whose member it
// is logged in as. It is nil for a request with nothing to see by (no
// login, no bearer token, no game's cookie).
func (h *Handler) gameViewer(r *http.Request) func(t store.Table, rec *inPerson) bool {
	acct := h.loggedIn(r)
	tok := bearer(r)
	if acct == 0 && tok == "" && !slices.ContainsFunc(r.Cookies(), func(c *http.Cookie) bool { return strings.HasPrefix(c.Name, hostCookie("")) }) {
		return nil
	}
	clubs := map[string]bool{}
	ofClub := func(id string) bool {
		v, ok := clubs[id]
		if !ok {
			v = h.cfg.Clubs.Sees(r, id) // the club's code, or a login of a member
			clubs[id] = v
		}
		return v
	}
	return func(t store.Table, rec *inPerson) bool {
		if tokenMatches(tok, t.HostToken) {
			return true
		}
		if c, err := r.Cookie(hostCookie(t.ID)); err == nil && tokenMatches(c.Value, t.HostToken) {
			return true
		}
		if rec == nil {
			return false
		}
		if acct != 0 && rec.Account == acct {
			return true
		}
		return rec.Settings.Club != nil && rec.Settings.Club.Club != "" && ofClub(rec.Settings.Club.Club)
	}
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
	if tok := tokenOf(r, id); func() bool { c, err := r.Cookie(hostCookie(id)); return err != nil || c.Value != tok }() {
		// A phone the game moved to (it sent the token it was handed):
		// it holds the game's cookie from now on, as the phone that made
		// it does, and so finds it in the history (listGames).
		h.setHostCookie(w, r, id, tok)
	}
	writeJSON(w, http.StatusOK, gameReply{ID: id, Settings: gm.rec.Settings,
		Commands: append([]record.Command{}, gm.rec.Commands...), Events: len(gm.log), Ended: gm.g.Ended()})
}
