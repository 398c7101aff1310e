package server

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strings"
	"time"

	"mafia/account"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/httpguard"
	"mafia/internal/secret"
	"mafia/locale"
	"mafia/locale/negotiate"
	"mafia/room"
	"mafia/store"
	"mafia/wire"
)

// createRequest is the body of POST /api/tables.
type createRequest struct {
	Name    string            `json:"name"`
	Players int               `json:"players"`
	Setup   *setupRequest     `json:"setup"`
	Options map[string]string `json:"options"`
	// RulesCode gives the house rules as a club's code (engine.RulesCode:
	// "std", "f1h3"); Options, when given too, change them further. A code
	// no ruleset is written as is refused bad_rules_code.
	RulesCode  string           `json:"rules_code"`
	TimingsMS  map[string]int64 `json:"timings_ms"`
	Public     bool             `json:"public"`
	BotDelayMS int64            `json:"bot_delay_ms"`
	Sandbox    *sandboxRequest  `json:"sandbox"`
	Bots       string           `json:"bots"`
	Pace       string           `json:"pace"`
	// StandInMS is the table's grace period before a bot plays a dropped
	// person's seat (room.Settings.StandIn): absent, room.DefaultStandIn;
	// 0, never.
	StandInMS *int64 `json:"stand_in_ms"`
	// Rated makes a rated table (room.Settings.Rated; docs/ratings.md).
	Rated bool `json:"rated"`
	// Voice makes a voice table (room.Settings.Voice: "seats" or
	// "everyone"; absent or "off": none).
	Voice string `json:"voice"`
}

// sandboxRequest fixes a sandbox table's deal (room.Sandbox): the whole
// deal, or one seat's card.
type sandboxRequest struct {
	Deal []string `json:"deal"`
	Card string   `json:"card"`
	Seat int      `json:"seat"`
}

// setupRequest is a custom deal, by the keys docs/protocol.md names.
type setupRequest struct {
	Don       int `json:"don"`
	Mafia     int `json:"mafia"`
	Maniac    int `json:"maniac"`
	Detective int `json:"detective"`
	Doctor    int `json:"doctor"`
	Citizens  int `json:"citizens"`
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

// langOf is the request's language (negotiate.Lang: ?lang=, the "lang"
// cookie, Accept-Language, else English) as the protocol spells it.
func langOf(r *http.Request) string { return string(negotiate.Lang(r)) }

// tableLang is the language a table is made in (room.Settings.Lang): the one
// its creator's request names, else "" (room.DefaultLang, the server's
// default, which is also langOf's for a request that names none).
func tableLang(r *http.Request) string {
	l, _ := negotiate.Named(r)
	return string(l)
}

// writeJSON answers with v as JSON (httpapi.WriteJSON: no HTML escaping).
func writeJSON(w http.ResponseWriter, status int, v any) { httpapi.WriteJSON(w, status, v) }

// fail answers with a coded error in the request's language (s.resp, the
// one writer of refusals: internal/httpapi).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) { s.resp.Fail(w, r, err) }

// responder is the server's writer of refusals: the store's not-found and
// damaged tables as refusals, a flood's wait as Retry-After, each refusal
// counted (mafia_errors_total).
func (s *Server) responder() *httpapi.Responder {
	return &httpapi.Responder{
		Vocabulary: s.cfg.Vocabulary,
		Render:     s.cfg.Render,
		Log:        s.log,
		Classify: func(err error) (*engine.Error, bool) {
			switch {
			case errors.Is(err, store.ErrNotFound):
				return &engine.Error{Code: httpapi.CodeNotFound}, true
			case errors.Is(err, store.ErrDamaged):
				return &engine.Error{Code: CodeTableDamaged}, true
			}
			return nil, false
		},
		RetryAfter: func(e *engine.Error) int {
			if e.Code == CodeRateLimited || e.Code == CodeFloodWait {
				return e.N // seconds
			}
			return 0
		},
		Counted: func(c engine.Code) { s.metrics.errors.WithLabelValues(string(c)).Inc() },
	}
}

// decode reads a small JSON body strictly (httpapi.ReadJSON: at most 16
// KiB, wire.DecodeStrict).
func decode(r *http.Request, v any) error {
	if !httpapi.ReadJSON(r, 16<<10, v) {
		return &engine.Error{Code: room.CodeBadRequest, Name: "body"}
	}
	return nil
}

// tokenOf returns the request's token: a bearer token, or the table's
// cookie. An account's bearer token (a login's, a bot's) is not a seat's:
// the table's cookie is read instead.
func tokenOf(r *http.Request, table string) string {
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		if tok := strings.TrimSpace(strings.TrimPrefix(h, "Bearer ")); !account.IsCredential(tok) {
			return tok
		}
	}
	if c, err := r.Cookie(cookieName(table)); err == nil {
		return c.Value
	}
	return ""
}

func cookieName(table string) string { return "mafia_" + table }

// setTokenCookie sets a table's token cookie, Secure when the guard says
// the client reaches the server over https.
func (s *Server) setTokenCookie(w http.ResponseWriter, r *http.Request, table, token string) {
	http.SetCookie(w, &http.Cookie{Name: cookieName(table), Value: token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: s.guard.Secure(r), MaxAge: 7 * 24 * 3600})
}

// foreign refuses a state change a foreign page asked for (see
// httpguard.Guard.CheckStateChange) and reports whether it did.
func (s *Server) foreign(w http.ResponseWriter, r *http.Request) bool {
	if err := s.guard.CheckStateChange(r); err != nil {
		s.fail(w, r, err)
		return true
	}
	return false
}

// addrKey is the key the seat limits count a request's client address by
// (httpguard.Key: an IPv4 address, an IPv6 /64), behind trusted proxies
// the real client's; "" when it cannot be read.
func (s *Server) addrKey(r *http.Request) string {
	a := s.guard.ClientAddr(r)
	if !a.IsValid() {
		return ""
	}
	return httpguard.Key(a).String()
}

// clientCookie names the cookie that tells one browser from another: a
// random id the server sets once, with no power of its own, by which a
// table gives one browser one seat.
const clientCookie = "mafia_client"

// clientID returns the request's client id, setting a new one (cookie) on
// the response when it carries none (or one the server did not make).
func (s *Server) clientID(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(clientCookie); err == nil && validClientID(c.Value) {
		return c.Value
	}
	id := secret.Token()[:32]
	http.SetCookie(w, &http.Cookie{Name: clientCookie, Value: id, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: s.guard.Secure(r), MaxAge: 365 * 24 * 3600})
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

func (s *Server) createTable(w http.ResponseWriter, r *http.Request) {
	if s.foreign(w, r) || s.refuseDraining(w, r) {
		return
	}
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
	standIn := room.DefaultStandIn
	if req.StandInMS != nil {
		if standIn, err = room.StandInFromMillis(*req.StandInMS); err != nil { // the same
			s.fail(w, r, err)
			return
		}
	}
	opts, err := optionsOf(req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	set := room.Settings{Name: strings.TrimSpace(req.Name), Public: req.Public, Options: opts,
		TimingMS: req.TimingsMS, BotDelay: delay, Bots: req.Bots, Pace: s.paceOf(req),
		StandIn: standIn, Lang: tableLang(r), Rated: req.Rated, Voice: req.Voice}
	if sb := req.Sandbox; sb != nil {
		set.Sandbox = &room.Sandbox{Deal: sb.Deal, Card: sb.Card, Seat: sb.Seat}
	}
	switch {
	case req.Setup != nil:
		set.Setup = engine.Setup(*req.Setup)
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
	if _, err := room.CheckTableName(set.Name); err != nil {
		s.fail(w, r, err) // a bad request costs no share of the address's tables
		return
	}
	if _, _, err := set.Check(); err != nil {
		s.fail(w, r, err)
		return
	}
	quota, err := s.guards.createAllowed(s.guard.ClientAddr(r), s.cfg.LimitClock.Now(), s.lobbyTables())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rm, host, err := room.Create(r.Context(), s.createConfig(), set)
	if err != nil {
		s.guards.created(quota, "")
		s.fail(w, r, err)
		return
	}
	s.stops.started()
	s.add(rm)
	s.guards.created(quota, rm.ID())
	s.clientID(w, r)
	s.setTokenCookie(w, r, rm.ID(), host)
	writeJSON(w, http.StatusCreated, createResponse{Table: rm.ID(), HostToken: host, Invite: "/t/" + rm.ID(), Lobby: s.owned(rm.Lobby())})
}

// optionsOf is the house rules a create request asks for: its rules code's
// options (none: the defaults), with its options over them.
func optionsOf(req createRequest) (map[string]string, error) {
	if req.RulesCode == "" {
		return req.Options, nil
	}
	rules, err := engine.ParseRulesCode(strings.ToLower(strings.TrimSpace(req.RulesCode)))
	if err != nil {
		return nil, err
	}
	opts := rules.Map()
	for k, v := range req.Options {
		opts[k] = v
	}
	return opts, nil
}

// paceOf is the pace a create request asks for: the one it names, else the
// server's (Config.Pace: human) — but instant for a request that sets
// bot_delay_ms and no pace: a client from before there was a pace chose
// its bots' delay, and gets exactly that delay, as it did.
func (s *Server) paceOf(req createRequest) string {
	switch {
	case req.Pace != "":
		return req.Pace
	case req.BotDelayMS > 0:
		return room.PaceInstant
	}
	return s.cfg.Pace
}

// lobbyTables counts the tables in the lobby.
func (s *Server) lobbyTables() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, rm := range s.rooms {
		if rm.Lobby().Status == string(store.StatusLobby) {
			n++
		}
	}
	return n
}

// inLobby reports whether a table's room runs and is in the lobby.
func (s *Server) inLobby(id string) bool {
	s.mu.Lock()
	rm := s.rooms[id]
	s.mu.Unlock()
	return rm != nil && rm.Lobby().Status == string(store.StatusLobby)
}

// maxListed is the most tables GET /api/tables lists.
const maxListed = 200

// listTables answers GET /api/tables: public tables not yet ended, those
// where a person sits first, then those still in the lobby, then the
// newest (so that a table just made by a real player is never hidden
// behind a heap of empty ones). A node of a cluster lists every node's
// (Cluster.Lobby), in the same order as far as the rows tell it.
func (s *Server) listTables(w http.ResponseWriter, r *http.Request) {
	var out []wire.Lobby
	if s.own != nil && s.own.cfg.Lobby != nil {
		all, err := s.own.cfg.Lobby(r.Context()) // this node's rows among them
		if err == nil {
			// Each node's rows come in their order; across nodes, by the
			// same first rules.
			sort.SliceStable(all, func(i, j int) bool { return listedFirst(all[i], all[j]) < 0 })
			writeJSON(w, http.StatusOK, map[string]any{"tables": all[:min(len(all), maxListed)]})
			return
		}
		s.log.Warn("the cluster's lobby: this node's tables only", "err", err)
	}
	out, _ = s.Tables(r.Context())
	writeJSON(w, http.StatusOK, map[string]any{"tables": out})
}

// listedFirst orders two lobby rows by what the lobby lists first: a table
// where a person sits, then one still in the lobby (-1: a first, 1: b
// first, 0: neither rule decides).
func listedFirst(a, b wire.Lobby) int {
	if pa, pb := seated(a), seated(b); pa != pb {
		if pa {
			return -1
		}
		return 1
	}
	if a.Status != b.Status {
		if a.Status == string(store.StatusLobby) {
			return -1
		}
		if b.Status == string(store.StatusLobby) {
			return 1
		}
	}
	return 0
}

// Tables lists this server's own public tables not yet ended, as GET
// /api/tables orders them (at most maxListed): what a node of a cluster
// gives the others' lobbies (cluster.LobbySource).
func (s *Server) Tables(context.Context) ([]wire.Lobby, error) {
	type listed struct {
		l       wire.Lobby
		created time.Time
	}
	s.mu.Lock()
	all := make([]listed, 0, len(s.rooms))
	for _, rm := range s.rooms {
		if l := rm.Lobby(); l.Public && l.Status != string(store.StatusEnded) {
			all = append(all, listed{l: s.owned(l), created: rm.CreatedAt()})
		}
	}
	s.mu.Unlock()
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if c := listedFirst(a.l, b.l); c != 0 {
			return c < 0
		}
		if !a.created.Equal(b.created) {
			return a.created.After(b.created)
		}
		return a.l.Table < b.l.Table
	})
	out := make([]wire.Lobby, 0, min(len(all), maxListed))
	for _, t := range all[:min(len(all), maxListed)] {
		out = append(out, t.l)
	}
	return out, nil
}

// seated reports whether a person (not a bot) holds a seat.
func seated(l wire.Lobby) bool {
	for _, s := range l.Seats {
		if s.Taken && !s.Bot {
			return true
		}
	}
	return false
}

func (s *Server) getTable(w http.ResponseWriter, r *http.Request) {
	rm, err := s.room(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.owned(rm.Lobby()))
}

func (s *Server) joinTable(w http.ResponseWriter, r *http.Request) {
	if s.foreign(w, r) {
		return
	}
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
	client := s.clientID(w, r)
	jr := room.JoinRequest{Name: req.Name, Seat: req.Seat, Token: tokenOf(r, id), Client: client, Addr: s.addrKey(r),
		Unlimited: httpguard.In(s.guard.ClientAddr(r), s.cfg.Limits.Unlimited)}
	if err := s.asAccount(r, &jr); err != nil {
		s.fail(w, r, err)
		return
	}
	if jr.Account != 0 {
		// A login's address links its person to whoever sits from there,
		// at any table, for a while (seen.go); a refused join too. What
		// every node saw of the joining person is read back first.
		person, login := jr.Account, jr.Account
		if jr.BotAccount {
			person, login = jr.Owner, 0
		}
		if jr.Unlimited {
			login = 0
		}
		s.seeAddr(r.Context(), person, login, jr.Addr, time.Now())
	}
	seat, tok, err := rm.Join(r.Context(), jr)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.setTokenCookie(w, r, id, tok)
	writeJSON(w, http.StatusOK, joinResponse{Table: id, Seat: seat, Token: tok})
}

func (s *Server) leaveTable(w http.ResponseWriter, r *http.Request) {
	if s.foreign(w, r) {
		return
	}
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
// that is over (for the timeline of the game-over screen), to whom may read
// the record (finishedGame), with the record's refusals.
func (s *Server) tableLog(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	rm, err := s.room(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	log, players, _, err := s.finishedGame(r.Context(), rm, tokenOf(r, id))
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

// recordResponse answers GET /api/tables/{id}/record.
type recordResponse struct {
	Table string `json:"table"`
	// Name is the table's name; Public says anyone may read the record
	// (a listed table's), not its players only.
	Name    string       `json:"name"`
	Public  bool         `json:"public,omitempty"`
	Players int          `json:"players"`
	Seats   []recordSeat `json:"seats"`
	Events  []wire.Event `json:"events"`
	// Chat is the table's whole chat, every channel's, in order.
	Chat []recordChat `json:"chat"`
	// Sandbox marks a game whose deal its creator fixed (not for ratings).
	Sandbox bool `json:"sandbox,omitempty"`
}

// recordChat is a line of a finished game's chat, and where in the game it
// was said: after the log's first At events, in Round and Phase ("" in the
// lobby, before the start).
type recordChat struct {
	Channel string `json:"channel"`
	From    int    `json:"from"`
	Name    string `json:"name"`
	Text    string `json:"text"`
	Now     int64  `json:"now"`
	At      int    `json:"at"`
	Round   int    `json:"round"`
	Phase   string `json:"phase"`
	// Bot is what a server's bot's line means (absent for any other line):
	// its kind, the seat it names, a claim's card, a report's answer, a
	// Detective's nights, its phrasing.
	Bot *store.BotLine `json:"bot,omitempty"`
}

// recordSeat is who sat at a seat of a finished game.
type recordSeat struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
}

// tableRecord answers GET /api/tables/{id}/record: a finished game's whole
// record (the game's review reads it), to whom finishedGame lets read it:
// the holder of one of its seats' tokens or its host's (bearer or cookie),
// and at a public table anyone; bad_token to anyone else at a private
// table, not_over while the game goes on.
func (s *Server) tableRecord(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	rm, err := s.room(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	lobby := rm.Lobby()
	log, players, chat, err := s.finishedGame(r.Context(), rm, tokenOf(r, id))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := recordResponse{Table: rm.ID(), Name: lobby.Name, Public: lobby.Public, Players: players, Events: make([]wire.Event, len(log)),
		Chat: make([]recordChat, len(chat)), Sandbox: lobby.Sandbox}
	// A server's bot's line is rendered in the request's language, its
	// name too, and carries what it means (bot) for programs.
	lang := locale.Lang(langOf(r))
	for i, l := range chat {
		out.Chat[i] = recordChat{Channel: l.Channel, From: l.Seat, Name: room.ChatName(lang, l), Text: room.ChatText(lang, l),
			Now: l.At.UnixMilli(), At: l.Log, Round: l.Round, Phase: l.Phase}
		if l.Bot.Kind != "" {
			out.Chat[i].Bot = &l.Bot
		}
	}
	for _, st := range lobby.Seats {
		name := st.Name
		if st.Bot && st.Name == room.BotName(locale.En, st.Seat) {
			name = room.BotName(lang, st.Seat) // a server's bot, named in the reader's language
		}
		out.Seats = append(out.Seats, recordSeat{Seat: st.Seat, Name: name, Bot: st.Bot})
	}
	for i, e := range log {
		out.Events[i] = wire.FromEvent(e, players)
	}
	writeJSON(w, http.StatusOK, out)
}
