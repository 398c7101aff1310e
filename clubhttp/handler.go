package clubhttp

import (
	"bytes"
	"crypto/subtle"
	"embed"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"mafia/account"
	"mafia/club"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/httpguard"
	"mafia/internal/secret"
	"mafia/locale"
	"mafia/locale/negotiate"
	"mafia/seating"
	"mafia/store"
	"mafia/tournament"
)

// Config is what the clubs' handler needs.
type Config struct {
	Store Store
	// Games are the games a club counts, read by the host's assistant
	// (assist.ClubGames; nil: none, every club's sheet is empty).
	Games Games
	// Accounts are the site's accounts (nil: none): a logged-in account
	// that owns or hosts a club may change it as the club's code may, and
	// a club made by a logged-in account is owned by it (members.go).
	Accounts *account.Service
	// Guard decides whether a state change comes from one of the server's
	// own pages (nil: a guard with no public URL and no trusted proxy, as
	// the server's own default).
	Guard *httpguard.Guard
	// Files is the version of the assistant's files (assist.Version) the
	// printable standings load their style and script from, under
	// /host/static/<Files>/.
	Files string
	Log   *slog.Logger     // nil: discard
	Now   func() time.Time // nil: the wall clock
	// Vocabulary gives every code its kind, and so its status: the one
	// vocabulary of the program, built once from every package's Kinds
	// where the packages are wired (site.Vocabulary, in cmd/mafia), so a
	// code has one status from every handler (nil: this package's own
	// codes and those it passes on).
	Vocabulary *httpapi.Vocabulary
}

// Handler serves a club's HTTP: under /host/api/clubs and /host/clubs/
// (the paths the assistant's page calls), and the club's leaderboard
// at /api/clubs/{club}/ratings. It also offers the assistant what a game needs of
// its club (assist.Clubs) and the accounts a player's clubs
// (PlayerClubs).
type Handler struct {
	cfg  Config
	mux  *http.ServeMux
	resp *httpapi.Responder // writes every refusal (fail)
	// online are the server's tables an online tournament opens
	// (ServeOnline; nil: none).
	online *onlinePlay
	// referees move a tournament's games' invitations to its new referee
	// (InviteWith; nil: none moved).
	referees Referees
}

// New makes the clubs' handler.
func New(cfg Config) *Handler {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Guard == nil {
		cfg.Guard, _ = httpguard.New(httpguard.Config{}) // an empty config cannot fail
	}
	if cfg.Vocabulary == nil {
		cfg.Vocabulary = Vocabulary
	}
	h := &Handler{cfg: cfg, resp: responder(cfg.Log, cfg.Vocabulary)}
	h.routes()
	return h
}

// ServeHTTP serves a club's request. Under /host/, a bot account's token
// is refused (bot_credential): a bot is a seat, never a club's host (the
// club's board, under /api/, is anyone's to read).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/host/") && account.IsBotToken(account.TokenOf(r)) {
		h.fail(w, r, &engine.Error{Code: account.CodeBotCredential})
		return
	}
	h.mux.ServeHTTP(w, r)
}

// The club's routes (docs/club.md): a club is made with a secret token,
// which every change and the roster's search need (as a bearer token);
// the standings and the games' CSV are the club's public sheet.
func (h *Handler) routes() {
	m := http.NewServeMux()
	m.HandleFunc("POST /host/api/clubs", h.createClub)
	m.HandleFunc("GET /host/api/clubs/{club}", h.getClub)
	m.HandleFunc("PUT /host/api/clubs/{club}", h.updateClub)
	m.HandleFunc("GET /host/api/clubs/{club}/people", h.searchPeople)
	m.HandleFunc("POST /host/api/clubs/{club}/people", h.addPerson)
	m.HandleFunc("POST /host/api/clubs/{club}/merges", h.mergePeople)
	m.HandleFunc("PUT /host/api/clubs/{club}/seasons/{season}", h.saveSeason)
	m.HandleFunc("GET /host/api/clubs/{club}/seasons/{season}/standings.json", h.standingsJSON)
	m.HandleFunc("GET /host/api/clubs/{club}/seasons/{season}/standings.csv", h.standingsCSV)
	m.HandleFunc("GET /host/api/clubs/{club}/games.csv", h.clubGamesCSV)
	m.HandleFunc("GET /host/api/clubs/{club}/games/{game}/export.json", h.gameExport)
	m.HandleFunc("GET /host/api/clubs/{club}/seasons/{season}/games.json", h.seasonExport)
	m.HandleFunc("GET /host/clubs/{club}/seasons/{season}", h.serveStandings)
	m.HandleFunc("GET /host/clubs/{club}/seasons/{season}/wall", h.serveWall)
	m.HandleFunc("GET /host/clubs/{club}/seasons/{season}/people/{person}", h.servePerson)
	m.HandleFunc("GET /host/api/clubs/mine", h.myClubs)
	m.HandleFunc("GET /host/api/clubs/mine/tournaments", h.myTournaments)
	m.HandleFunc("GET /host/api/clubs/{club}/members", h.listMembers)
	m.HandleFunc("PUT /host/api/clubs/{club}/members/{name}", h.setMember)
	m.HandleFunc("DELETE /host/api/clubs/{club}/members/{name}", h.removeMember)
	m.HandleFunc("PUT /host/api/clubs/{club}/people/{person}", h.renamePerson)
	m.HandleFunc("PUT /host/api/clubs/{club}/people/{person}/account", h.linkPerson)
	m.HandleFunc("DELETE /host/api/clubs/{club}/people/{person}/account", h.unlinkPerson)
	m.HandleFunc("GET /api/clubs/{club}/ratings", h.board)
	h.tournamentRoutes(m)
	h.organiserRoutes(m)
	h.mux = m
}

// Vocabulary is every code the clubs answer with: the club's, the
// accounts', the guard's and the HTTP layer's (Config.Vocabulary's
// default; `mafia serve` gives the program's one, which holds these).
var Vocabulary = httpapi.NewVocabulary(httpguard.Kinds, httpapi.Kinds, club.Kinds, account.Kinds, tournament.Kinds, seating.Kinds)

// responder is the clubs' writer of refusals (internal/httpapi): a club
// not kept is not_found, the sentences are the catalogs' refusals.
func responder(log *slog.Logger, v *httpapi.Vocabulary) *httpapi.Responder {
	return &httpapi.Responder{Vocabulary: v, Log: log, What: "clubs: request failed",
		Render: func(lang string, err error) string {
			l, ok := locale.Parse(lang)
			if !ok {
				l = locale.En
			}
			return locale.New(l).Refusal(err)
		},
		Classify: func(err error) (*engine.Error, bool) {
			if errors.Is(err, store.ErrNotFound) {
				return &engine.Error{Code: httpapi.CodeNotFound}, true
			}
			return nil, false
		}}
}

// fail answers with a coded error in the request's language.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) { h.resp.Fail(w, r, err) }

// errBadToken refuses a change without the club's code or a login that
// may make it.
var errBadToken = &engine.Error{Code: httpapi.CodeBadToken}

// writeJSON answers with v as JSON, never cached (httpapi.WriteJSON).
func writeJSON(w http.ResponseWriter, status int, v any) { httpapi.WriteJSON(w, status, v) }

// decode reads a JSON body strictly, up to limit bytes (httpapi.ReadJSON).
func decode(r *http.Request, v any, limit int64) error {
	if !httpapi.ReadJSON(r, limit, v) {
		return &engine.Error{Code: httpapi.CodeBadRequest, Name: "body"}
	}
	return nil
}

// langOf is the request's language (negotiate.Lang).
func langOf(r *http.Request) locale.Lang { return negotiate.Lang(r) }

// foreign refuses a state change that a page of another site asked for
// (httpguard.Guard.CheckStateChange), and reports whether it did.
func (h *Handler) foreign(w http.ResponseWriter, r *http.Request) bool {
	if err := h.cfg.Guard.CheckStateChange(r); err != nil {
		h.fail(w, r, err)
		return true
	}
	return false
}

func tokenMatches(tok, hash string) bool {
	return tok != "" && hash != "" && subtle.ConstantTimeCompare([]byte(secret.Hash(tok)), []byte(hash)) == 1
}

// bearer is a request's bearer token ("" for none).
func bearer(r *http.Request) string {
	if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") {
		return strings.TrimSpace(strings.TrimPrefix(a, "Bearer "))
	}
	return ""
}

// The printable pages' templates (the standings, and the page of one not
// found), styled by the assistant's print.css.
//
//go:embed templates/*.html
var templateFS embed.FS

var (
	tmplOnce sync.Once
	tmpl     *template.Template
)

func templates() *template.Template {
	tmplOnce.Do(func() { tmpl = template.Must(template.ParseFS(templateFS, "templates/*.html")) })
	return tmpl
}

// page is what every page template gets: the language, a printer for it,
// the languages to switch to, and the assistant's files' version.
type page struct {
	Lang    string
	Langs   []pageLang
	Version string
	p       *locale.Printer
}

// pageLang is one language of the language switch: its code and its own
// name for itself.
type pageLang struct{ Code, Name string }

// T renders a catalog message in the page's language.
func (pg page) T(id string) string { return pg.p.T(id, nil) }

func (h *Handler) newPage(r *http.Request) page {
	l := langOf(r)
	p := locale.New(l)
	langs := []pageLang{}
	for _, x := range locale.Langs() {
		langs = append(langs, pageLang{Code: string(x), Name: p.T("assist.language."+string(x), nil)})
	}
	return page{Lang: string(l), Langs: langs, Version: h.cfg.Files, p: p}
}

// render writes a page template with the headers the assistant's pages
// have.
func render(w http.ResponseWriter, status int, name string, data any) {
	var b bytes.Buffer
	if err := templates().ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "template: "+err.Error(), http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; "+
		"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
	hd.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}
