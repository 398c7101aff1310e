package server

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"sort"
	"strings"

	"mafia/engine"
	"mafia/room"
	"mafia/store"
	"mafia/wire"
)

// createRequest is the body of POST /api/tables.
type createRequest struct {
	Name       string            `json:"name"`
	Players    int               `json:"players"`
	Setup      *engine.Setup     `json:"setup"`
	Options    map[string]string `json:"options"`
	TimingsMS  map[string]int64  `json:"timings_ms"`
	Public     bool              `json:"public"`
	BotDelayMS int64             `json:"bot_delay_ms"`
}

// createResponse answers POST /api/tables.
type createResponse struct {
	Table     string     `json:"table"`
	HostToken string     `json:"host_token"`
	Invite    string     `json:"invite"`
	Lobby     wire.Lobby `json:"lobby"`
}

// joinRequest is the body of POST /api/tables/{id}/join.
type joinRequest struct {
	Name string `json:"name"`
	Seat int    `json:"seat"`
}

// joinResponse answers a join.
type joinResponse struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

// errorBody is every API error.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// langOf picks the language for a request: ?lang=, then the "lang" cookie,
// then Accept-Language; English when none is ka, en or ru.
func langOf(r *http.Request) string {
	pick := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		for _, l := range []string{"ka", "ru", "en"} {
			if strings.HasPrefix(s, l) {
				return l
			}
		}
		return ""
	}
	if l := pick(r.URL.Query().Get("lang")); l != "" {
		return l
	}
	if c, err := r.Cookie("lang"); err == nil {
		if l := pick(c.Value); l != "" {
			return l
		}
	}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		if l := pick(strings.SplitN(part, ";", 2)[0]); l != "" {
			return l
		}
	}
	return "en"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// fail answers with a coded error in the request's language.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var e *engine.Error
	if errors.Is(err, store.ErrNotFound) {
		e = &engine.Error{Code: "not_found"}
	} else if !errors.As(err, &e) {
		s.log.Error("request failed", "path", r.URL.Path, "err", err)
		e = &engine.Error{Code: room.CodeInternal}
	}
	var body errorBody
	body.Error.Code = string(e.Code)
	body.Error.Message = s.cfg.Render(langOf(r), e)
	s.metrics.errors.WithLabelValues(string(e.Code)).Inc()
	writeJSON(w, codeStatus(e.Code), body)
}

// decode reads a small JSON body strictly.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, 16<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &engine.Error{Code: room.CodeBadRequest, Name: "body"}
	}
	return nil
}

// tokenOf returns the request's token: a bearer token, or the table's cookie.
func tokenOf(r *http.Request, table string) string {
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		return strings.TrimSpace(strings.TrimPrefix(h, "Bearer "))
	}
	if c, err := r.Cookie(cookieName(table)); err == nil {
		return c.Value
	}
	return ""
}

func cookieName(table string) string { return "mafia_" + table }

func setTokenCookie(w http.ResponseWriter, r *http.Request, table, token string) {
	http.SetCookie(w, &http.Cookie{Name: cookieName(table), Value: token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil, MaxAge: 7 * 24 * 3600})
}

// clientCookie names the cookie that tells one browser from another: a
// random id the server sets once, with no power of its own, by which a
// table gives one browser one seat.
const clientCookie = "mafia_client"

// clientID returns the request's client id, setting a new one (cookie) on
// the response when it carries none (or one the server did not make).
func clientID(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(clientCookie); err == nil && validClientID(c.Value) {
		return c.Value
	}
	id := room.NewToken()[:32]
	http.SetCookie(w, &http.Cookie{Name: clientCookie, Value: id, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil, MaxAge: 365 * 24 * 3600})
	return id
}

func validClientID(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// clientAddr is the address a request came from (the peer's IP), for the
// limits per address.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// addrKey is the key the limits count an address by: an IPv4 address
// itself, an IPv6 address by its /64 (one household, one phone, gets a
// whole /64 and may use any address in it).
func addrKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

func (s *Server) createTable(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	delay, err := room.BotDelayFromMillis(req.BotDelayMS) // range-checked before it is a Duration
	if err != nil {
		s.fail(w, r, err)
		return
	}
	set := room.Settings{Name: strings.TrimSpace(req.Name), Public: req.Public, Options: req.Options,
		TimingMS: req.TimingsMS, BotDelay: delay}
	switch {
	case req.Setup != nil:
		set.Setup = *req.Setup
	default:
		if req.Players == 0 {
			req.Players = 11
		}
		p, err := engine.Preset(req.Players)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		set.Setup = p
	}
	rm, host, err := room.Create(r.Context(), s.roomConfig(), set)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.add(rm)
	clientID(w, r)
	setTokenCookie(w, r, rm.ID(), host)
	writeJSON(w, http.StatusCreated, createResponse{Table: rm.ID(), HostToken: host, Invite: "/t/" + rm.ID(), Lobby: rm.Lobby()})
}

func (s *Server) listTables(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	out := make([]wire.Lobby, 0, len(s.rooms))
	for _, rm := range s.rooms {
		if l := rm.Lobby(); l.Public && l.Status != string(store.StatusEnded) {
			out = append(out, l)
		}
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].Status != out[j].Status {
			return out[i].Status == string(store.StatusLobby)
		}
		return out[i].Table < out[j].Table
	})
	if len(out) > 200 {
		out = out[:200]
	}
	writeJSON(w, http.StatusOK, map[string]any{"tables": out})
}

func (s *Server) getTable(w http.ResponseWriter, r *http.Request) {
	rm, err := s.room(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rm.Lobby())
}

func (s *Server) joinTable(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var req joinRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	rm, err := s.room(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	client := clientID(w, r)
	seat, tok, err := rm.Join(r.Context(), room.JoinRequest{Name: req.Name, Seat: req.Seat, Token: tokenOf(r, id),
		Client: client, Addr: addrKey(clientAddr(r))})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	setTokenCookie(w, r, id, tok)
	writeJSON(w, http.StatusOK, joinResponse{Table: id, Seat: seat, Token: tok})
}

func (s *Server) leaveTable(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	rm, err := s.room(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := rm.Leave(r.Context(), tokenOf(r, id)); err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// tableLog answers GET /api/tables/{id}/log: the whole event log of a game
// that is over (for the timeline of the game-over screen and the record),
// refused with not_over while it goes on.
func (s *Server) tableLog(w http.ResponseWriter, r *http.Request) {
	rm, err := s.room(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	log, players, err := rm.EndedLog(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := make([]wire.Event, len(log))
	for i, e := range log {
		out[i] = wire.FromEvent(e, players)
	}
	writeJSON(w, http.StatusOK, map[string]any{"table": rm.ID(), "players": players, "events": out})
}
