package assist

import (
	"crypto/subtle"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"mafia/account"
	"mafia/assist/bridge"
	"mafia/assist/record"
	"mafia/club"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/httpguard"
	"mafia/internal/secret"
	"mafia/locale"
	"mafia/locale/negotiate"
	"mafia/seating"
	"mafia/store"
)

// The store statuses of in-person tables (store.KindInPerson), the
// assistant's own: the online server neither lists nor loads a table of
// that kind, whatever its status.
const (
	StatusLive  store.Status = "in_person"       // the game goes on
	StatusEnded store.Status = "in_person_ended" // the game is over
)

// Config is what the assistant needs.
type Config struct {
	Store Store
	Log   *slog.Logger     // nil: discard
	Now   func() time.Time // nil: the wall clock
	// Seed returns the seed of a new deal (nil: a random one). Tests fix it
	// to replay the same deal.
	Seed func() uint64
	// Guard decides whether a cookie is Secure and whether a state change
	// comes from one of the server's own pages (nil: a guard with no public
	// URL and no trusted proxy, as the server's own default).
	Guard *httpguard.Guard
	// MaxGames is how many games are kept in memory at most, the least
	// recently used dropped first (0: DefaultMaxGames); a game dropped is
	// read from the store again when it is next asked for.
	MaxGames int
	// MaxEntries is the most entries a game may hold (0:
	// DefaultMaxEntries; limits.go).
	MaxEntries int
	// Shared says the store is shared with other servers (the nodes of a
	// cluster, any of which a host's phone may reach): a game kept in
	// memory is checked against the store's row at each use, and read
	// again when another server changed it since.
	Shared bool
	// Accounts are the site's accounts (nil: none): a game made by a
	// logged-in account is listed in its history, and a logged-in owner or
	// host of a club may make the club's games.
	Accounts *account.Service
	// Clubs are the clubs a game may count for (package clubhttp's
	// Handler; nil: none, a game that names a club is refused and a game's
	// score is by the default rules).
	Clubs Clubs
	// Vocabulary gives every code its kind, and so its status: the one
	// vocabulary of the program, built once from every package's Kinds
	// where the packages are wired (site.Vocabulary, in cmd/mafia), so a
	// code has one status from every handler (nil: this package's own
	// codes and those it passes on).
	Vocabulary *httpapi.Vocabulary
	// NewGames bounds the new games of each client address (nil: none;
	// `mafia serve` gives NewGameRates()); Unlimited are the addresses it
	// does not count (the server's --unlimited).
	NewGames *httpguard.Rates
	// Seatings bounds the new seatings of each client address that the
	// seating cards' page makes (nil: none; `mafia serve` gives
	// SeatingRates()); Unlimited's addresses are not counted either.
	Seatings  *httpguard.Rates
	Unlimited []netip.Prefix
}

// Handler serves the assistant under /host/.
type Handler struct {
	cfg   Config
	mux   *http.ServeMux
	mu    sync.Mutex
	games *gameCache // guarded by mu
	// resp writes every refusal (fail, internal/httpapi).
	resp *httpapi.Responder
	// seatings makes /host/seating's seatings, one at a time (seating_gate.go).
	seatings seatingGate
}

// New makes the assistant's handler on a store.
func New(cfg Config) *Handler {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Seed == nil {
		cfg.Seed = randomSeed
	}
	if cfg.Guard == nil {
		cfg.Guard, _ = httpguard.New(httpguard.Config{}) // an empty config cannot fail
	}
	if cfg.Clubs == nil {
		cfg.Clubs = noClubs{}
	}
	if cfg.Vocabulary == nil {
		cfg.Vocabulary = Vocabulary
	}
	if cfg.MaxEntries <= 0 {
		cfg.MaxEntries = DefaultMaxEntries
	}
	h := &Handler{cfg: cfg, games: newGameCache(cfg.MaxGames), resp: responder(cfg.Log, cfg.Vocabulary),
		seatings: seatingGate{generate: seating.Generate}}
	h.routes()
	return h
}

// ServeHTTP serves a request for /host/ and below. A request with a secret
// in its URL is refused whatever it asks for (secrets.go), and so is one
// with a bot account's token (bot_credential): a bot is a seat, never a
// host.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if tokenInURL(r) {
		h.refuseTokenInURL(w, r)
		return
	}
	if account.IsBotToken(account.TokenOf(r)) {
		// A bot account's token takes its seats and is no login here: it
		// makes no club, lists no games, hosts nothing.
		h.fail(w, r, &engine.Error{Code: account.CodeBotCredential}, nil)
		return
	}
	h.mux.ServeHTTP(w, r)
}

// Front puts a part mounted under /host/ beside the assistant (the
// clubs': package clubhttp, whose paths the assistant's page calls)
// behind the assistant's front door: a request with a secret in its URL
// (secrets.go) or a bot account's token is refused, as the assistant's
// own are, before that part reads it.
func (h *Handler) Front(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tokenInURL(r) {
			h.refuseTokenInURL(w, r)
			return
		}
		if account.IsBotToken(account.TokenOf(r)) {
			h.fail(w, r, &engine.Error{Code: account.CodeBotCredential}, nil)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (h *Handler) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /host/{$}", h.servePage)
	m.HandleFunc("GET /host", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/host/", http.StatusMovedPermanently)
	})
	m.Handle("GET /host/static/{ver}/{path...}", files)
	m.HandleFunc("GET /host/sw.js", serveWorker)
	m.HandleFunc("GET /host/card/{id}/{seat}", h.serveCardPage)
	m.HandleFunc("GET /host/games/{id}", h.servePrint)
	m.HandleFunc("GET /host/seating", h.serveSeating)
	m.HandleFunc("GET /host/api/games", h.listGames)
	m.HandleFunc("POST /host/api/games", h.createGame)
	m.HandleFunc("GET /host/api/games/{id}", h.getGame)
	m.HandleFunc("POST /host/api/games/{id}/sync", h.syncGame)
	m.HandleFunc("DELETE /host/api/games/{id}", h.deleteGame)
	m.HandleFunc("PUT /host/api/games/{id}/names", h.setNames)
	m.HandleFunc("PUT /host/api/games/{id}/people", h.setPeople)
	m.HandleFunc("GET /host/api/games/{id}/cards", h.cardStatus)
	m.HandleFunc("GET /host/api/games/{id}/cards/{seat}", h.getCard)
	m.HandleFunc("GET /host/api/games/{id}/protocol.json", h.protocolJSON)
	m.HandleFunc("GET /host/api/games/{id}/protocol.csv", h.protocolCSV)
	m.HandleFunc("PUT /host/api/games/{id}/score", h.setScore)
	m.HandleFunc("POST /host/api/games/{id}/cohosts", h.invite)
	m.HandleFunc("POST /host/api/games/{id}/cohosts/join", h.joinCohost)
	m.HandleFunc("POST /host/api/games/{id}/cohosts/account", h.joinByAccount)
	m.HandleFunc("GET /host/api/invitations", h.invitations)
	m.HandleFunc("DELETE /host/api/games/{id}/cohosts/{cid}", h.revoke)
	m.HandleFunc("POST /host/api/games/{id}/cohosts/{cid}/code", h.reissue)
	m.HandleFunc("GET /host/api/games/{id}/live", h.live)
	m.HandleFunc("POST /host/api/games/{id}/fixes", h.propose)
	m.HandleFunc("PUT /host/api/games/{id}/fixes/{seq}", h.resolve)
	m.HandleFunc("PUT /host/api/games/{id}/clock", h.setClock)
	h.mux = m
}

// The codes of the assistant's own refusals (the rest are the engine's and
// HTTP layer's: bad_token, not_found, bad_request, internal, in httpapi).
const (
	CodeOutOfOrder engine.Code = "out_of_order" // an entry's place is beyond the next one: send from Applied
	CodeDiverged   engine.Code = "diverged"     // the server holds another entry at that place (another phone)
)

// errorBody is a refusal of a phone's sync: the server's body
// (httpapi.ErrorBody), with the entries the server holds.
type errorBody struct {
	httpapi.ErrorBody
	Applied *int `json:"applied,omitempty"` // sync: the entries the server holds
}

// Kinds are the kinds of the assistant's own codes (engine.Kind).
var Kinds = map[engine.Code]engine.Kind{
	CodeOutOfOrder: engine.KindConflict, CodeDiverged: engine.KindConflict, CodeIDTaken: engine.KindConflict,
	CodeDealMismatch: engine.KindConflict, CodeGameEndedKept: engine.KindConflict, CodeBadGameID: engine.KindInvalid,
	CodeBadHostToken: engine.KindInvalid, CodeTokenInURL: engine.KindInvalid,
	account.CodeBotCredential: engine.KindForbidden,
	// co-hosting's (cohost.go)
	CodeNotCohost: engine.KindForbidden, CodeInviteUsed: engine.KindGone, CodeCohostsFull: engine.KindTooMany,
	CodeFixesFull: engine.KindTooMany, CodeFixResolved: engine.KindConflict, CodeFixNotFound: engine.KindNotFound,
	CodeBadFix: engine.KindInvalid, CodeBadClock: engine.KindInvalid, CodeClockTooOften: engine.KindTooMany, CodeCohostNotFound: engine.KindNotFound,
	CodeCohostNoAccount: engine.KindInvalid, CodeCohostNotHost: engine.KindForbidden, CodeRewritesFull: engine.KindTooMany,
	// limits.go's
	CodeEntriesFull: engine.KindTooMany, CodeRateLimited: engine.KindTooMany,
	// seating_gate.go's
	CodeSeatingBusy: engine.KindBusy,
}

// Vocabulary is every code the assistant answers with: the engine's and
// the record's (an entry or the settings refused), the guard's, the HTTP
// layer's, the club's and its own (Config.Vocabulary's default; `mafia
// serve` gives the program's one, which holds these).
var Vocabulary = httpapi.NewVocabulary(engine.Kinds, record.Kinds, httpguard.Kinds, httpapi.Kinds, Kinds, club.Kinds, seating.Kinds)

// fail answers with a coded error in the request's language (h.resp, the
// one writer of refusals: internal/httpapi); applied, for a sync, is the
// entries the server holds, sent with the refusal.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error, applied *int) {
	e, status := h.resp.Refusal(r, err)
	h.resp.Write(w, r, e, status, errorBody{ErrorBody: h.resp.Body(r, e), Applied: applied})
}

// responder is the assistant's writer of refusals: a game not kept is
// not_found, the sentences are the phone's own (bridge.Sentence).
func responder(log *slog.Logger, v *httpapi.Vocabulary) *httpapi.Responder {
	return &httpapi.Responder{Vocabulary: v, Log: log, What: "assist: request failed",
		RetryAfter: func(e *engine.Error) int {
			if e.Code == CodeRateLimited {
				return e.N
			}
			return 0
		},
		Render: func(lang string, err error) string {
			l, ok := locale.Parse(lang)
			if !ok {
				l = locale.En
			}
			var e *engine.Error
			if !errors.As(err, &e) {
				return err.Error()
			}
			return bridge.Sentence(locale.New(l), e)
		},
		Classify: func(err error) (*engine.Error, bool) {
			if errors.Is(err, store.ErrNotFound) {
				return &engine.Error{Code: httpapi.CodeNotFound}, true
			}
			return nil, false
		}}
}

// writeJSON answers with v as JSON, never cached (httpapi.WriteJSON).
func writeJSON(w http.ResponseWriter, status int, v any) { httpapi.WriteJSON(w, status, v) }

// decode reads a JSON body strictly, up to limit bytes (httpapi.ReadJSON).
func decode(r *http.Request, v any, limit int64) error {
	if !httpapi.ReadJSON(r, limit, v) {
		return &engine.Error{Code: httpapi.CodeBadRequest, Name: "body"}
	}
	return nil
}

// langOf is the request's language (negotiate.Lang, as the server's API
// and the browser page choose it).
func langOf(r *http.Request) locale.Lang { return negotiate.Lang(r) }

// foreign refuses a state change that a page of another site asked for
// (httpguard.Guard.CheckStateChange: its Origin, and JSON for a request
// that carries cookies), and reports whether it did.
func (h *Handler) foreign(w http.ResponseWriter, r *http.Request) bool {
	if err := h.cfg.Guard.CheckStateChange(r); err != nil {
		h.fail(w, r, err, nil)
		return true
	}
	return false
}

func tokenMatches(tok, hash string) bool {
	return tok != "" && hash != "" && subtle.ConstantTimeCompare([]byte(secret.Hash(tok)), []byte(hash)) == 1
}

// hostCookie names the cookie that holds a game's host token on the host's
// phone, so that the printable page opens in a new tab.
func hostCookie(id string) string { return "assist_" + id }

// bearer is a request's bearer token ("" for none).
func bearer(r *http.Request) string {
	if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") {
		return strings.TrimSpace(strings.TrimPrefix(a, "Bearer "))
	}
	return ""
}

// loggedIn is the person's account a request is logged in as (0: none, a
// bot's token, or no accounts on this site).
func (h *Handler) loggedIn(r *http.Request) int64 {
	if h.cfg.Accounts == nil || account.TokenOf(r) == "" {
		return 0
	}
	p, err := h.cfg.Accounts.FromRequest(r)
	if err != nil || p.Bot() {
		return 0
	}
	return p.Account.ID
}

// tokenOf returns a request's token for a game: a bearer token, or the
// game's host cookie (never the URL, which logs and history keep: see
// secrets.go).
func tokenOf(r *http.Request, id string) string {
	if tok := bearer(r); tok != "" {
		return tok
	}
	if c, err := r.Cookie(hostCookie(id)); err == nil {
		return c.Value
	}
	return ""
}
