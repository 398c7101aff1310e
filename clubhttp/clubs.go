package clubhttp

// This file serves a club itself (docs/club.md): its making with a secret
// token, which every change and the roster's search need (as a bearer
// token, or a login of an owner or host: members.go), its name and
// scoring, its roster (search in any script, add, merge) and its seasons.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"mafia/club"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/secret"
	"mafia/store"
)

// clubs is the store's clubs.
func (h *Handler) clubs() store.Clubs { return h.cfg.Store }

// clubJSON is a club as the API answers it.
type clubJSON struct {
	ID      string        `json:"id"`
	Name    string        `json:"name"`
	Scoring club.Scoring  `json:"scoring"`
	Token   string        `json:"token,omitempty"` // only in the answer to the create
	Seasons []club.Season `json:"seasons,omitempty"`
	Merges  []mergeJSON   `json:"merges,omitempty"`
	People  []keyedPerson `json:"people,omitempty"`
	// Members are the club's members; Links the roster's entries linked
	// to accounts (entry id to the account's name).
	Members []memberJSON      `json:"members,omitempty"`
	Links   map[string]string `json:"links,omitempty"`
	// Tournaments are the club's tournaments, oldest first (tournaments.go).
	Tournaments []tournamentItem `json:"tournaments,omitempty"`
}

// keyedPerson is a roster entry with its name folded for search
// (club.Fold): the phone keeps the roster with these keys and searches it
// without the server.
type keyedPerson struct {
	club.Person
	Key string `json:"key"`
}

type mergeJSON struct {
	Seq  int    `json:"seq"`
	From string `json:"from"`
	Into string `json:"into"`
	At   string `json:"at"`
}

// clubRequest is the body of a club's create and change.
type clubRequest struct {
	Name    string        `json:"name"`
	Scoring *club.Scoring `json:"scoring,omitempty"` // nil: the defaults (create) or unchanged
}

// loadClub reads a club and its scoring (the defaults where none is kept).
func (h *Handler) loadClub(ctx context.Context, id string) (store.Club, club.Scoring, error) {
	c, err := h.clubs().Club(ctx, id)
	if err != nil {
		return c, club.Scoring{}, err
	}
	sc := club.DefaultScoring()
	if len(c.Scoring) > 0 {
		if err := json.Unmarshal(c.Scoring, &sc); err != nil {
			return c, sc, errors.Join(store.ErrDamaged, err)
		}
	}
	return c, sc, nil
}

// clubFor loads a club for a request that carries its token or comes from
// a logged-in owner or host of it (accessOf); otherwise it answers the
// request itself and returns false.
func (h *Handler) clubFor(w http.ResponseWriter, r *http.Request) (store.Club, club.Scoring, bool) {
	c, sc, err := h.loadClub(r.Context(), r.PathValue("club"))
	if err != nil {
		h.fail(w, r, err)
		return c, sc, false
	}
	if err := h.accessOf(r, c).atLeastHost(); err != nil {
		h.fail(w, r, err)
		return c, sc, false
	}
	return c, sc, true
}

// clubChange begins a change to a club: refused from a foreign page, its
// body (at most limit bytes) decoded into req, and the club loaded and its
// token checked (clubFor); false when it has answered a refusal.
func (h *Handler) clubChange(w http.ResponseWriter, r *http.Request, req any, limit int64) (store.Club, club.Scoring, bool) {
	if h.foreign(w, r) {
		return store.Club{}, club.Scoring{}, false
	}
	if err := decode(r, req, limit); err != nil {
		h.fail(w, r, err)
		return store.Club{}, club.Scoring{}, false
	}
	return h.clubFor(w, r)
}

func (h *Handler) createClub(w http.ResponseWriter, r *http.Request) {
	if h.foreign(w, r) {
		return
	}
	var req clubRequest
	if err := decode(r, &req, 4<<10); err != nil {
		h.fail(w, r, err)
		return
	}
	sc := club.DefaultScoring()
	var preset error
	if req.Scoring != nil {
		sc, preset = req.Scoring.WithPreset()
	}
	req.Name = strings.TrimSpace(req.Name)
	if err := errors.Join(club.CheckName(req.Name, "name"), preset, sc.Check()); err != nil {
		h.fail(w, r, err)
		return
	}
	cs := h.clubs()
	tok := secret.Token()
	b, _ := json.Marshal(sc)
	c := store.Club{ID: secret.Token()[:16], Name: req.Name, TokenHash: secret.Hash(tok), Scoring: b, CreatedAt: h.cfg.Now().UTC()}
	if err := cs.CreateClub(r.Context(), c); err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.ownNewClub(r, c.ID); err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, clubJSON{ID: c.ID, Name: c.Name, Scoring: sc, Token: tok})
}

func (h *Handler) getClub(w http.ResponseWriter, r *http.Request) {
	c, sc, ok := h.clubFor(w, r)
	if !ok {
		return
	}
	out := clubJSON{ID: c.ID, Name: c.Name, Scoring: sc}
	seasons, err := h.clubs().Seasons(r.Context(), c.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	for _, s := range seasons {
		out.Seasons = append(out.Seasons, club.Season{ID: s.ID, Name: s.Name, From: s.From, To: s.To})
	}
	merges, err := h.clubs().Merges(r.Context(), c.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	for _, m := range merges {
		out.Merges = append(out.Merges, mergeJSON{Seq: m.Seq, From: m.From, Into: m.Into, At: m.At.Format("2006-01-02T15:04:05Z")})
	}
	people, err := h.people(r.Context(), c.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	for _, p := range people {
		out.People = append(out.People, keyedPerson{Person: p, Key: club.Fold(p.Name)})
	}
	if out.Members, out.Links, err = h.membersOf(r.Context(), c.ID); err != nil {
		h.fail(w, r, err)
		return
	}
	if out.Tournaments, err = h.tournamentItems(r.Context(), c.ID); err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *Handler) updateClub(w http.ResponseWriter, r *http.Request) {
	var req clubRequest
	c, sc, ok := h.clubChange(w, r, &req, 4<<10)
	if !ok {
		return
	}
	var preset error
	if req.Scoring != nil {
		sc, preset = req.Scoring.WithPreset()
	}
	if req.Name = strings.TrimSpace(req.Name); req.Name != "" {
		c.Name = req.Name
	}
	if err := errors.Join(club.CheckName(c.Name, "name"), preset, sc.Check()); err != nil {
		h.fail(w, r, err)
		return
	}
	c.Scoring, _ = json.Marshal(sc)
	if err := h.clubs().UpdateClub(r.Context(), c); err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, clubJSON{ID: c.ID, Name: c.Name, Scoring: sc})
}

// people is a club's roster as package club reads it.
func (h *Handler) people(ctx context.Context, clubID string) ([]club.Person, error) {
	ps, err := h.clubs().People(ctx, clubID)
	if err != nil {
		return nil, err
	}
	out := make([]club.Person, 0, len(ps))
	for _, p := range ps {
		out = append(out, club.Person{ID: p.ID, Name: p.Name, MergedInto: p.MergedInto})
	}
	return out, nil
}

// maxFound is the most people a roster search answers with.
const maxFound = 20

// searchPeople answers GET /host/api/clubs/{club}/people?q=: the roster's
// entries (not merged away) whose name matches q in any script
// (club.Match), by name, at most maxFound.
func (h *Handler) searchPeople(w http.ResponseWriter, r *http.Request) {
	c, _, ok := h.clubFor(w, r)
	if !ok {
		return
	}
	people, err := h.people(r.Context(), c.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	found := club.NewRoster(people).Search(r.URL.Query().Get("q"))
	slices.SortStableFunc(found, func(a, b club.Person) int { return cmp.Compare(club.Fold(a.Name), club.Fold(b.Name)) })
	if len(found) > maxFound {
		found = found[:maxFound]
	}
	writeJSON(w, http.StatusOK, map[string]any{"people": found})
}

// personRequest is the body of a new roster entry. Again says the host
// knows the roster has an entry of that name and this is another person.
type personRequest struct {
	Name  string `json:"name"`
	Again bool   `json:"again,omitempty"`
}

// samePerson is an entry of the name a new entry asked for, with what
// tells it apart from the one being added: its id, when it was added, how
// many of the club's games it played and on which day it last played,
// and whether an account is linked to it.
type samePerson struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Since  string `json:"since"` // YYYY-MM-DD
	Games  int    `json:"games"`
	Last   string `json:"last,omitempty"` // the day of its last game
	Linked bool   `json:"linked"`
}

// personExists is the refusal of a name already on the roster
// (club.CodePersonExists), with the entries of that name.
type personExists struct {
	httpapi.ErrorBody
	Same []samePerson `json:"same"`
}

// refuseSameName answers a new entry refused for its name: the entries of
// that name on the roster (unmerged), each with what tells it apart.
func (h *Handler) refuseSameName(w http.ResponseWriter, r *http.Request, clubID, name string) {
	ctx := r.Context()
	people, err := h.clubs().People(ctx, clubID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	games, err := h.clubGames(ctx, clubID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	same := []samePerson{}
	for _, p := range people {
		if p.MergedInto != "" || !store.SameName(p.Name, name) {
			continue
		}
		sp := samePerson{ID: p.ID, Name: p.Name, Since: p.CreatedAt.Format("2006-01-02"), Linked: p.AccountID != nil}
		for _, g := range games {
			if slices.ContainsFunc(g.Seats, func(s club.Seat) bool { return s.Person == p.ID }) {
				sp.Games++
				sp.Last = max(sp.Last, g.Date)
			}
		}
		same = append(same, sp)
	}
	e := &engine.Error{Code: club.CodePersonExists, Name: "person", Value: name}
	_, status := h.resp.Refusal(r, e)
	h.resp.Write(w, r, e, status, personExists{ErrorBody: h.resp.Body(r, e), Same: same})
}

func (h *Handler) addPerson(w http.ResponseWriter, r *http.Request) {
	var req personRequest
	c, _, ok := h.clubChange(w, r, &req, 1<<10)
	if !ok {
		return
	}
	req.Name = strings.TrimSpace(req.Name)
	if err := club.CheckName(req.Name, "person"); err != nil {
		h.fail(w, r, err)
		return
	}
	p := store.ClubPerson{ID: secret.Token()[:12], Name: req.Name, CreatedAt: h.cfg.Now().UTC(), NameOnce: !req.Again}
	if err := h.clubs().AddPerson(r.Context(), c.ID, p); err != nil {
		if errors.Is(err, store.ErrConflict) && p.NameOnce {
			h.refuseSameName(w, r, c.ID, req.Name)
			return
		}
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, club.Person{ID: p.ID, Name: p.Name})
}

// mergeRequest is the body of a merge: entry From's games count as Into's.
type mergeRequest struct {
	From string `json:"from"`
	Into string `json:"into"`
}

func (h *Handler) mergePeople(w http.ResponseWriter, r *http.Request) {
	var req mergeRequest
	c, _, ok := h.clubChange(w, r, &req, 1<<10)
	if !ok {
		return
	}
	people, err := h.people(r.Context(), c.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if err := club.NewRoster(people).CheckMerge(req.From, req.Into); err != nil {
		h.fail(w, r, err)
		return
	}
	_, links, err := h.membersOf(r.Context(), c.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	both := links[req.From] != "" && links[req.Into] != ""
	m, err := h.clubs().MergePeople(r.Context(), c.ID, req.From, req.Into, h.cfg.Now())
	switch {
	case errors.Is(err, store.ErrConflict) && both:
		err = &engine.Error{Code: club.CodeLinkTaken, Name: "merge"} // two accounts are two people
	case errors.Is(err, store.ErrConflict):
		err = &engine.Error{Code: club.CodeBadMerge, Name: "merged"} // another merge got there first
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, mergeJSON{Seq: m.Seq, From: m.From, Into: m.Into, At: m.At.Format("2006-01-02T15:04:05Z")})
}

// seasonRequest is the body of a season.
type seasonRequest struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

// validSeasonID: 1 to 32 of a-z, 0-9 and "-".
func validSeasonID(s string) bool {
	if len(s) == 0 || len(s) > 32 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

func (h *Handler) saveSeason(w http.ResponseWriter, r *http.Request) {
	var req seasonRequest
	c, _, ok := h.clubChange(w, r, &req, 1<<10)
	if !ok {
		return
	}
	s := club.Season{ID: r.PathValue("season"), Name: strings.TrimSpace(req.Name), From: req.From, To: req.To}
	if !validSeasonID(s.ID) {
		h.fail(w, r, &engine.Error{Code: club.CodeBadClub, Name: "season_id"})
		return
	}
	if err := s.Check(); err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.clubs().SaveSeason(r.Context(), c.ID, store.ClubSeason{ID: s.ID, Name: s.Name, From: s.From, To: s.To}); err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s)
}
