package assist

import (
	"crypto/rand"
	"encoding/binary"
	"net/http"
	"strconv"
	"strings"

	"mafia/assist/record"
	"mafia/engine"
	"mafia/locale"
	"mafia/store"
)

// createRequest is the body of POST /host/api/games.
type createRequest struct {
	Name    string            `json:"name"`
	Names   []string          `json:"names"`             // seat 1 first
	Setup   *setupCounts      `json:"setup,omitempty"`   // nil: the preset for the number of names
	Roles   []string          `json:"roles,omitempty"`   // DealManual: the cards as dealt by hand
	Options map[string]string `json:"options,omitempty"` // house rules
	Timings *record.Timings   `json:"timings,omitempty"` // nil: the defaults
	Deal    string            `json:"deal"`
	Lang    string            `json:"lang,omitempty"`
}

// setupCounts is a custom setup: how many of each card.
type setupCounts struct {
	Don       int `json:"don"`
	Mafia     int `json:"mafia"`
	Maniac    int `json:"maniac"`
	Detective int `json:"detective"`
	Doctor    int `json:"doctor"`
	Citizens  int `json:"citizen"`
}

// Card is one player's card link (DealLinks): the page at URL shows seat's
// card to whoever holds the token (in the link's fragment, never sent in a
// request line).
type Card struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	URL   string `json:"url"` // path and fragment: /host/card/{id}/{seat}#{token}
	Token string `json:"token"`
}

// createReply answers a create: the game's id, the host's secret token (only
// its hash is stored), the settings with the deal, and the card links.
type createReply struct {
	ID        string          `json:"id"`
	HostToken string          `json:"host_token"`
	Settings  record.Settings `json:"settings"`
	Cards     []Card          `json:"cards,omitempty"`
}

// createGame makes an in-person game: checks the settings, deals the cards
// (a seeded shuffle of the setup, or the host's hand deal), and stores the
// table with its first events. The host's token is also set as a cookie for
// /host/ so that the printable protocol opens in a new tab.
func (h *Handler) createGame(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if err := decode(r, &req, 32<<10); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	s, err := settingsOf(&req, h.cfg.Seed)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	g, evs, err := record.Start(&s)
	if err != nil {
		h.fail(w, r, err, nil)
		return
	}
	host := newToken()
	id := newToken()[:16]
	now := h.cfg.Now()
	gm := &game{rec: inPerson{Settings: s, Commands: []record.Command{}}, g: g, log: evs}
	name := s.Name
	if name == "" {
		name = locale.New(langOf(r)).T("assist.default_name", nil)
	}
	gm.table = store.Table{ID: id, Name: name, Status: StatusLive, HostToken: hashToken(host), Seed: g.Seed(),
		CreatedAt: now, UpdatedAt: now}
	gm.table.Config = gm.config()
	reply := createReply{ID: id, HostToken: host, Settings: s}
	for i, n := range s.Names {
		seat := store.Seat{Seat: i + 1, Name: n}
		if s.Deal == record.DealLinks {
			tok := newToken()
			seat.TokenHash = hashToken(tok)
			reply.Cards = append(reply.Cards, Card{Seat: i + 1, Name: n, Token: tok,
				URL: "/host/card/" + id + "/" + strconv.Itoa(i+1) + "#" + tok})
		}
		gm.seats = append(gm.seats, seat)
	}
	if err := h.cfg.Store.CreateTable(r.Context(), gm.table, gm.seats); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	if err := h.cfg.Store.AppendEvents(r.Context(), id, 0, evs); err != nil {
		h.fail(w, r, err, nil)
		return
	}
	h.mu.Lock()
	h.games[id] = gm
	h.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: hostCookie(id), Value: host, Path: "/host/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil, MaxAge: 30 * 24 * 3600})
	writeJSON(w, http.StatusCreated, reply)
}

// randomSeed returns a seed from the system's randomness.
func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("assist: no randomness: " + err.Error())
	}
	return binary.LittleEndian.Uint64(b[:])
}

// settingsOf checks a create request and deals its cards with a seed from
// newSeed.
func settingsOf(req *createRequest, newSeed func() uint64) (record.Settings, error) {
	s := record.Settings{Name: strings.TrimSpace(req.Name), Options: req.Options, Deal: req.Deal,
		Timings: record.DefaultTimings(), Lang: req.Lang}
	for _, n := range req.Names {
		s.Names = append(s.Names, strings.TrimSpace(n))
	}
	if req.Timings != nil {
		s.Timings = *req.Timings
	}
	if s.Options == nil {
		s.Options = map[string]string{}
	}
	n := len(s.Names)
	switch {
	case req.Deal == record.DealManual:
		s.Roles, s.Seed = req.Roles, "0"
	case len(req.Roles) > 0:
		return s, &engine.Error{Code: record.CodeBadSettings, Name: "roles"}
	default:
		var setup engine.Setup
		if req.Setup != nil {
			c := req.Setup
			setup = engine.Setup{Don: c.Don, Mafia: c.Mafia, Maniac: c.Maniac, Detective: c.Detective, Doctor: c.Doctor, Citizens: c.Citizens}
		} else {
			p, err := engine.Preset(n)
			if err != nil {
				return s, err
			}
			setup = p
		}
		if setup.Players() != n {
			return s, &engine.Error{Code: record.CodeBadSettings, Name: "setup", N: n}
		}
		if _, err := setup.Validate(); err != nil {
			return s, err
		}
		seed := newSeed()
		s.Seed = strconv.FormatUint(seed, 10)
		s.Roles = record.RoleNames(setup.Deal(seed, make([]engine.Role, n)))
	}
	_, _, _, err := s.Check()
	return s, err
}
