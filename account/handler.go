package account

// This file serves the accounts over HTTP, under /api/account/.

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/httpguard"
	"mafia/store"
)

// CookieName is the cookie a browser's login is kept in (HttpOnly,
// SameSite=Lax, Secure behind TLS).
const CookieName = "mafia_login"

// HandlerConfig is what a Handler is made from.
type HandlerConfig struct {
	Service *Service
	// Guard checks the origin of state changes and decides Secure cookies
	// and the client's address (the server's own guard).
	Guard *httpguard.Guard
	// Render turns a refusal into a sentence in a language (nil: the code).
	Render func(lang string, err error) string
	Log    *slog.Logger // nil: discard
	// Vocabulary gives every code its kind, and so its status: the one
	// vocabulary of the program, built once from every package's Kinds
	// where the packages are wired (site.Vocabulary, in cmd/mafia), so a
	// code has one status from every handler (nil: this package's own
	// codes and those it passes on).
	Vocabulary *httpapi.Vocabulary
	// Ratings, when set, is a player's ratings as their profile shows
	// them (the ratings' part fills it; nil: the profile has none).
	Ratings func(ctx context.Context, account int64) (any, error)
	// Clubs, when set, is a player's clubs and in-person games as their
	// profile shows them (the clubs fill it: clubhttp's PlayerClubs;
	// nil: the profile has none).
	Clubs func(ctx context.Context, account int64) (PlayerClubs, error)
	// Tables, when set, is the account's tables in its clubs' online
	// tournaments that wait for it or play (clubhttp's PlayerTables),
	// shown on its own page to the account alone (nil: none shown).
	Tables func(ctx context.Context, account int64) ([]TournamentTableJSON, error)
	// Running, when set, is the tournaments the account referees or runs
	// as an owner or host of their club (clubhttp's PlayerTournaments),
	// shown on its own page to the account alone (nil: none shown).
	Running func(ctx context.Context, account int64) ([]TournamentRunJSON, error)
	// Hold is how long the refusal of an address whose attempts are spent
	// is held before it is sent (0: half a second; negative: not held): a flood
	// over keep-alive connections then gets one refusal a connection a
	// Hold, not as many as the server can write.
	Hold time.Duration
	// HoldEvery spaces the held refusals of one address (0: a quarter of
	// a second): however many connections a flood opens, an address gets
	// at most one refusal each HoldEvery, each connection's refusal
	// waiting for the address's next turn, but never longer than HoldMax
	// (0: 20 s, under the server's 30 s to write an answer).
	HoldEvery, HoldMax time.Duration
}

// Handler serves /api/account/ (signup, login, logout, logout-all,
// password, me, bots, keep) and /api/players/{name} (Profiles).
type Handler struct {
	cfg HandlerConfig
	svc *Service
	mux *http.ServeMux
	// resp writes every refusal (fail, internal/httpapi).
	resp *httpapi.Responder
	// pace holds a spent address's refusals in turn (spent).
	pace *pacer
}

// maxPacedAddrs is how many spent addresses the handler paces each on
// its own (pacer); past that, a new one's refusal waits HoldMax.
const maxPacedAddrs = 10000

// vocabulary is every code the handler answers with
// (HandlerConfig.Vocabulary's default).
var vocabulary = httpapi.NewVocabulary(Kinds, httpapi.Kinds, httpguard.Kinds)

// NewHandler makes the accounts' handler.
func NewHandler(cfg HandlerConfig) *Handler {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Render == nil {
		cfg.Render = func(_ string, err error) string { return err.Error() }
	}
	if cfg.Guard == nil {
		cfg.Guard, _ = httpguard.New(httpguard.Config{})
	}
	if cfg.Vocabulary == nil {
		cfg.Vocabulary = vocabulary
	}
	if cfg.Hold == 0 {
		cfg.Hold = 500 * time.Millisecond
	}
	if cfg.HoldEvery == 0 {
		cfg.HoldEvery = 250 * time.Millisecond
	}
	if cfg.HoldMax == 0 {
		cfg.HoldMax = 20 * time.Second
	}
	h := &Handler{cfg: cfg, svc: cfg.Service, mux: http.NewServeMux(),
		pace: newPacer(cfg.HoldEvery, cfg.Hold, cfg.HoldMax, maxPacedAddrs)}
	h.resp = &httpapi.Responder{Vocabulary: cfg.Vocabulary, Render: cfg.Render, Log: cfg.Log, What: "account request failed",
		RetryAfter: func(e *engine.Error) int {
			switch e.Code {
			case CodeLoginBusy:
				return 2
			case CodeLoginLimited:
				return 60
			}
			return 0
		}}
	h.mux.HandleFunc("POST /api/account/signup", h.signup)
	h.mux.HandleFunc("POST /api/account/login", h.login)
	h.mux.HandleFunc("POST /api/account/logout", h.logout)
	h.mux.HandleFunc("POST /api/account/logout-all", h.logoutAll)
	h.mux.HandleFunc("POST /api/account/password", h.password)
	h.mux.HandleFunc("POST /api/account/keep", h.keep)
	h.mux.HandleFunc("GET /api/account/me", h.me)
	h.mux.HandleFunc("GET /api/account/bots", h.bots)
	h.mux.HandleFunc("POST /api/account/bots", h.createBot)
	h.mux.HandleFunc("POST /api/account/bots/{name}/token", h.rotateBot)
	h.mux.HandleFunc("GET /api/players/{name}", h.profile)
	h.mux.HandleFunc("/api/account/", func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, &engine.Error{Code: httpapi.CodeNotFound})
	})
	return h
}

// Service is the handler's service (for the server's joins).
func (h *Handler) Service() *Service { return h.svc }

// ServeHTTP serves the accounts' routes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// TokenOf is a request's account credential: a bearer token that is one
// (IsCredential), else the login cookie; "" for none. A seat's bearer
// token is not one.
func TokenOf(r *http.Request) string {
	if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") {
		if tok := strings.TrimSpace(strings.TrimPrefix(a, "Bearer ")); IsCredential(tok) {
			return tok
		}
	}
	if c, err := r.Cookie(CookieName); err == nil && IsCredential(c.Value) {
		return c.Value
	}
	return ""
}

// FromRequest is who a request is (TokenOf, Authenticate): CodeNotLoggedIn
// without a credential.
func (s *Service) FromRequest(r *http.Request) (Principal, error) {
	tok := TokenOf(r)
	if tok == "" {
		return Principal{}, refuse(CodeNotLoggedIn)
	}
	return s.Authenticate(r.Context(), tok)
}

// fail answers with a coded error in the request's language (h.resp, the
// one writer of refusals: internal/httpapi).
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) { h.resp.Fail(w, r, err) }

// foreign refuses a state change a foreign page asked for.
func (h *Handler) foreign(w http.ResponseWriter, r *http.Request) bool {
	if err := h.cfg.Guard.CheckStateChange(r); err != nil {
		h.fail(w, r, err)
		return true
	}
	return false
}

func (h *Handler) read(w http.ResponseWriter, r *http.Request, v any) bool {
	if h.foreign(w, r) {
		return false
	}
	if r.ContentLength == 0 && v == nil {
		return true
	}
	if !httpapi.ReadJSON(r, 4<<10, v) {
		h.fail(w, r, &engine.Error{Code: httpapi.CodeBadRequest, Name: "body"})
		return false
	}
	return true
}

// spent refuses (login_limited) a login or signup from an address whose
// attempts are spent (Service.AddrSpent), before its body is read or
// decoded, and reports whether it did: the refusal a flood gets costs no
// more than a map's look-up, and is held for HandlerConfig.Hold (or until
// the client leaves) before it is sent, so that each of the flood's
// connections waits instead of asking again at once; and an address's
// refusals are sent in turn, HoldEvery apart (pacer), so that opening
// more connections does not buy more of them. A browser that
// carries device tokens is left to LoginFrom, which lets a known device
// past its address's limit.
func (h *Handler) spent(w http.ResponseWriter, r *http.Request) bool {
	if _, err := r.Cookie(DeviceCookie); err == nil {
		return false
	}
	addr := h.addr(r)
	if !h.svc.AddrSpent(addr, h.svc.cfg.Now()) {
		return false
	}
	if h.cfg.Hold > 0 {
		// The pacer's turns are of the wall clock, as the timer's wait is.
		t := time.NewTimer(h.pace.wait(addr, time.Now()))
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
		}
	}
	h.fail(w, r, errLoginLimited)
	return true
}

func (h *Handler) addr(r *http.Request) string {
	a := h.cfg.Guard.ClientAddr(r)
	if !a.IsValid() {
		return ""
	}
	return httpguard.Key(a).String()
}

func (h *Handler) setCookie(w http.ResponseWriter, r *http.Request, tok string) {
	c := &http.Cookie{Name: CookieName, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: h.cfg.Guard.Secure(r), MaxAge: int(h.svc.cfg.SessionTTL / time.Second)}
	if tok == "" {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// accountJSON is an account as the API shows it.
type accountJSON struct {
	Name    string `json:"name"`
	Created int64  `json:"created_ms"`
	Bot     bool   `json:"bot,omitempty"`
}

func toJSON(a store.Account) accountJSON {
	return accountJSON{Name: a.Name, Created: a.Created.UnixMilli(), Bot: a.IsBot()}
}

// credentials is the body of signup and login. Bearer asks for the login's
// token in the answer (a program's) instead of the cookie (a browser's).
type credentials struct {
	Name     string    `json:"name"`
	Password string    `json:"password"`
	Bearer   bool      `json:"bearer"`
	Keep     *keepJSON `json:"keep"`
}

// keepJSON names a finished game whose guest seat the account keeps: its
// table and the seat's token (absent: the table's seat cookie).
type keepJSON struct {
	Table string `json:"table"`
	Token string `json:"token"`
}

// loginAnswer answers signup and login.
type loginAnswer struct {
	Account accountJSON `json:"account"`
	Token   string      `json:"token,omitempty"`
	Kept    bool        `json:"kept,omitempty"`
}

func (h *Handler) signup(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if h.spent(w, r) || !h.read(w, r, &req) {
		return
	}
	p, tok, err := h.svc.Signup(r.Context(), req.Name, req.Password, h.addr(r))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.answerLogin(w, r, req, p, tok)
}

func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if h.spent(w, r) || !h.read(w, r, &req) {
		return
	}
	p, tok, err := h.svc.LoginFrom(r.Context(), Attempt{Name: req.Name, Password: req.Password, Addr: h.addr(r),
		Devices: devicesOf(r)})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.answerLogin(w, r, req, p, tok)
}

// devicesOf is the device tokens a request's browser holds.
func devicesOf(r *http.Request) []string {
	if c, err := r.Cookie(DeviceCookie); err == nil {
		return Devices(c.Value)
	}
	return nil
}

// setDevice gives the browser (or the program, which may keep cookies) a
// device token of the account it has just logged in to: this browser is
// known to the account from now on (device.go).
func (h *Handler) setDevice(w http.ResponseWriter, r *http.Request, p Principal) {
	http.SetCookie(w, &http.Cookie{Name: DeviceCookie, Value: withDevice(devicesOf(r), DeviceToken(p.Account)),
		Path: "/api/account/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: h.cfg.Guard.Secure(r),
		MaxAge: 400 * 24 * 3600})
}

func (h *Handler) answerLogin(w http.ResponseWriter, r *http.Request, req credentials, p Principal, tok string) {
	out := loginAnswer{Account: toJSON(p.Account)}
	h.setDevice(w, r, p)
	if req.Keep != nil {
		// The account exists and is logged in whatever becomes of the
		// game: a seat that cannot be kept is said (kept false), not
		// refused.
		out.Kept = h.svc.Keep(r.Context(), p, req.Keep.Table, seatToken(r, *req.Keep)) == nil
	}
	if req.Bearer {
		out.Token = tok
	} else {
		h.setCookie(w, r, tok)
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}

// seatToken is a keep's seat token: as given, or the table's seat cookie
// (the server's, "mafia_" and the table's id).
func seatToken(r *http.Request, k keepJSON) string {
	if k.Token != "" {
		return k.Token
	}
	if c, err := r.Cookie("mafia_" + k.Table); err == nil {
		return c.Value
	}
	return ""
}

// principal reads the request's principal or answers the refusal.
func (h *Handler) principal(w http.ResponseWriter, r *http.Request) (Principal, bool) {
	p, err := h.svc.FromRequest(r)
	if err != nil {
		h.fail(w, r, err)
		return Principal{}, false
	}
	return p, true
}

func (h *Handler) act(w http.ResponseWriter, r *http.Request, body any, f func(ctx context.Context, p Principal) error) {
	if !h.read(w, r, body) {
		return
	}
	p, ok := h.principal(w, r)
	if !ok {
		return
	}
	if err := f(r.Context(), p); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) {
	h.act(w, r, nil, func(ctx context.Context, p Principal) error {
		if err := h.svc.Logout(ctx, p); err != nil {
			return err
		}
		h.setCookie(w, r, "")
		return nil
	})
}

func (h *Handler) logoutAll(w http.ResponseWriter, r *http.Request) {
	h.act(w, r, nil, func(ctx context.Context, p Principal) error {
		if err := h.svc.LogoutAll(ctx, p); err != nil {
			return err
		}
		h.setCookie(w, r, "")
		return nil
	})
}

// passwordRequest is the body of /api/account/password.
type passwordRequest struct {
	Old string `json:"old"`
	New string `json:"new"`
}

func (h *Handler) password(w http.ResponseWriter, r *http.Request) {
	var req passwordRequest
	h.act(w, r, &req, func(ctx context.Context, p Principal) error {
		return h.svc.ChangePasswordFrom(ctx, p, req.Old, req.New, h.addr(r))
	})
}

func (h *Handler) keep(w http.ResponseWriter, r *http.Request) {
	var req keepJSON
	h.act(w, r, &req, func(ctx context.Context, p Principal) error {
		return h.svc.Keep(ctx, p, req.Table, seatToken(r, req))
	})
}

// meJSON is who a request is: the account, or the bot and its owner's
// name.
type meJSON struct {
	accountJSON
	Owner string `json:"owner,omitempty"`
	// Games is how many games the account has played, as its page counts
	// them (GET /api/players/{name}'s games: its online games and the club
	// games linked to it); absent when they could not be counted.
	Games *int `json:"games,omitempty"`
}

// meAnswer answers /api/account/me: account is null for nobody logged in.
type meAnswer struct {
	Account *meJSON `json:"account"`
}

// me answers who the request is. A page asks it without knowing whether
// it holds a login (the cookie is HttpOnly): without a credential, or
// with a login cookie that has ended (which it clears), the answer is
// account null; a program's bearer credential that has ended is refused
// (not_logged_in).
func (h *Handler) me(w http.ResponseWriter, r *http.Request) {
	tok := TokenOf(r)
	if tok == "" {
		httpapi.WriteJSON(w, http.StatusOK, meAnswer{})
		return
	}
	p, err := h.svc.Authenticate(r.Context(), tok)
	if err != nil {
		var e *engine.Error
		if b, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); (ok && IsCredential(strings.TrimSpace(b))) ||
			!errors.As(err, &e) || e.Code != CodeNotLoggedIn {
			h.fail(w, r, err)
			return
		}
		h.setCookie(w, r, "")
		httpapi.WriteJSON(w, http.StatusOK, meAnswer{})
		return
	}
	out := &meJSON{accountJSON: toJSON(p.Account)}
	if p.Bot() {
		if o, err := h.svc.cfg.Store.AccountByID(r.Context(), p.Account.Owner); err == nil {
			out.Owner = o.Name
		}
	}
	if n, err := h.gameCount(r.Context(), p.Account.ID); err == nil {
		out.Games = &n
	}
	httpapi.WriteJSON(w, http.StatusOK, meAnswer{Account: out})
}

// gameCount is how many games an account has played, as its page counts
// them: its finished online games and the club games of the roster entries
// linked to it. The first games' hints read it from me, so that a page
// load needs no request for the player's page.
func (h *Handler) gameCount(ctx context.Context, account int64) (int, error) {
	games, err := h.svc.cfg.Store.AccountGames(ctx, account, account, 0)
	if err != nil {
		return 0, err
	}
	n := len(games)
	if h.cfg.Clubs != nil {
		pc, err := h.cfg.Clubs(ctx, account)
		if err != nil {
			return 0, err
		}
		n += len(pc.Games)
	}
	return n, nil
}

// botsAnswer lists an account's bots.
type botsAnswer struct {
	Bots []accountJSON `json:"bots"`
}

func (h *Handler) bots(w http.ResponseWriter, r *http.Request) {
	p, ok := h.principal(w, r)
	if !ok {
		return
	}
	bots, err := h.svc.Bots(r.Context(), p)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out := botsAnswer{Bots: []accountJSON{}}
	for _, b := range bots {
		out.Bots = append(out.Bots, toJSON(b))
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}

// botRequest is the body of POST /api/account/bots.
type botRequest struct {
	Name string `json:"name"`
}

// botAnswer is a bot and its token, shown once.
type botAnswer struct {
	Bot   accountJSON `json:"bot"`
	Token string      `json:"token"`
}

func (h *Handler) createBot(w http.ResponseWriter, r *http.Request) {
	var req botRequest
	if !h.read(w, r, &req) {
		return
	}
	p, ok := h.principal(w, r)
	if !ok {
		return
	}
	b, tok, err := h.svc.CreateBot(r.Context(), p, req.Name)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, botAnswer{Bot: toJSON(b), Token: tok})
}

func (h *Handler) rotateBot(w http.ResponseWriter, r *http.Request) {
	if !h.read(w, r, nil) {
		return
	}
	p, ok := h.principal(w, r)
	if !ok {
		return
	}
	b, tok, err := h.svc.RotateBot(r.Context(), p, r.PathValue("name"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, botAnswer{Bot: toJSON(b), Token: tok})
}
