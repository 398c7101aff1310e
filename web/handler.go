package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mafia/bot"
	"mafia/engine"
	"mafia/internal/qrsvg"
	"mafia/locale"
	"mafia/locale/negotiate"
)

// Config is what the browser client is told by whoever mounts it.
type Config struct {
	// Timings are a new table's default clocks by name, in milliseconds
	// (the room's, room.DefaultTimings().Millis()): the create form starts
	// from them.
	Timings map[string]int64
	// StandIn is a new table's default wait, in milliseconds, before a bot
	// plays for a person whose connection dropped (the room's
	// DefaultStandIn); the create form starts from it.
	StandIn int64
	// Paces are the bots' paces a table may have, the default first (the
	// room's: human, then instant).
	Paces []string
	// Accounts says that accounts are served (/api/account/, package
	// account): the page offers signing up and logging in.
	Accounts bool
}

// Mount adds the browser client's routes to mux, beside the server's API
// and the host's assistant (internal/site composes the three): the page at
// / and at every invite link /t/{id} (the page opens the table itself)
// and its game's review /t/{id}/review, at a player's page /players/{name}
// and the account's screen /account, its files under /static/<version>/
// and /favicon.ico, and the message catalogs at /api/i18n/{lang}
// (catalog.go).
func Mount(mux *http.ServeMux, cfg Config) {
	b, err := json.Marshal(bootData(cfg))
	if err != nil {
		panic("web: " + err.Error())
	}
	index := func(w http.ResponseWriter, r *http.Request) { serveIndex(w, r, template.JS(b)) }
	mux.HandleFunc("GET /{$}", index)
	mux.HandleFunc("GET /t/{id}", index)
	mux.HandleFunc("GET /t/{id}/review", index)  // the game's review (review.js)
	mux.HandleFunc("GET /players/{name}", index) // a player's page (package account's)
	mux.HandleFunc("GET /ratings", index)        // the leaderboards (leaderboard.js)
	mux.HandleFunc("GET /account", index)        // sign up, log in, the account's settings
	mux.Handle("GET /static/{ver}/{path...}", files)
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/static/"+Version()+"/icon.svg", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /api/i18n/{lang}", serveCatalog)
	mountApp(mux) // the manifest, the icons, the service worker (app.go)
}

// page is the data of the page's template.
type page struct {
	Lang    string
	Title   string
	Version string
	Boot    template.JS
	Modules []string // main.js's imports, preloaded (preload.go)
	// Manifest is the link to the web app's manifest in the page's
	// language (app.go).
	Manifest string
}

// The page's template: it names the version of the files it loads.
//
//go:embed templates/index.html
var templateFS embed.FS

var (
	indexOnce sync.Once
	indexTmpl *template.Template
)

func loadIndex() {
	indexTmpl = template.Must(template.ParseFS(templateFS, "templates/index.html"))
}

// serveIndex serves the page with its boot data. It is never cached: it
// names the version of the files it loads. The language it is first drawn
// in is pageLang's; the page then takes the player's own choice.
func serveIndex(w http.ResponseWriter, r *http.Request, boot template.JS) {
	if r.URL.Query().Has("qr") && r.PathValue("id") != "" {
		serveQR(w, r)
		return
	}
	indexOnce.Do(loadIndex)
	lang := pageLang(r)
	var b bytes.Buffer
	err := indexTmpl.Execute(&b, page{
		Lang: string(lang), Title: locale.New(lang).T("web.title", nil), Version: Version(), Boot: boot, Modules: preloads(),
		Manifest: manifestLink(lang),
	})
	if err != nil {
		http.Error(w, "template: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	if r.Method != http.MethodHead {
		_, _ = w.Write(b.Bytes())
	}
}

// pageCSP is the Content-Security-Policy of the page (and of its offline
// page, app.go): its own scripts, styles, images, manifest and service
// worker alone.
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; media-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// serveQR answers /t/{id}?qr=ORIGIN with the QR code (SVG) of the
// table's invite link, ORIGIN/t/{id}, and /t/{id}/review?qr=ORIGIN with the
// game's review's, ORIGIN/t/{id}/review (with &step=N&view=S, the link of
// that step from that point of view, ORIGIN/t/{id}/review#step=N&view=S):
// the page shows it for a friend's phone to read. ORIGIN is the page's own (location.origin), http or
// https with no path; the invite holds no secret (the id is the
// invitation), and the code is small and bounded.
func serveQR(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	origin := r.URL.Query().Get("qr")
	u, err := url.Parse(origin)
	if err != nil || len(origin) > 200 || len(id) > 64 || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil || strings.Trim(id, "0123456789abcdef") != "" {
		http.Error(w, "bad qr request", http.StatusBadRequest)
		return
	}
	link := strings.TrimSuffix(origin, "/") + "/t/" + id
	if strings.HasSuffix(r.URL.Path, "/review") {
		link += "/review" // the game's review, to share
		q := r.URL.Query()
		if q.Has("step") || q.Has("view") {
			step, view := q.Get("step"), q.Get("view")
			if !qrNumber(step) || !qrNumber(view) {
				http.Error(w, "bad qr request", http.StatusBadRequest)
				return
			}
			link += "#step=" + step + "&view=" + view // the step being viewed, from its point of view
		}
	}
	svg, err := qrsvg.Draw(link)
	if err != nil {
		http.Error(w, "bad qr request", http.StatusBadRequest)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	_, _ = w.Write([]byte(svg))
}

// qrNumber reports whether s is a review's step or point of view as the
// QR code's link may carry it: one to five decimal digits.
func qrNumber(s string) bool {
	return len(s) > 0 && len(s) <= 5 && strings.Trim(s, "0123456789") == ""
}

// pageLang is the language the page opens in: the request's when it names
// one the catalogs hold (negotiate.Lang, as the API's: ?lang=, the "lang"
// cookie, then Accept-Language), else Georgian, the club's own: a browser
// that says nothing, or names only other languages, gets the page in
// Georgian (the API's sentences stay English for a client that says
// nothing; the page always names its language to the API).
func pageLang(r *http.Request) locale.Lang {
	if _, ok := locale.Parse(r.URL.Query().Get("lang")); ok {
		return negotiate.Lang(r)
	}
	if c, err := r.Cookie("lang"); err == nil {
		if _, ok := locale.Parse(c.Value); ok {
			return negotiate.Lang(r)
		}
	}
	if _, ok := locale.FromAcceptLanguage(r.Header.Get("Accept-Language")); ok {
		return negotiate.Lang(r)
	}
	return locale.Ka
}

// boot is what the page needs before its first request: the languages, and
// the rulebook's options, presets and limits and the room's default
// timings (Config.Timings) for the form that creates a table.
type boot struct {
	Langs   []locale.Lang          `json:"langs"`
	Options []option               `json:"options"`
	Presets map[int]map[string]int `json:"presets"`
	Seats   [2]int                 `json:"seats"` // fewest and most players
	Timings map[string]int64       `json:"timings_ms"`
	// Bots are the bots' levels, the one the form starts from first;
	// Paces the bots' paces, the default first; StandIn the default wait
	// before a bot plays for a dropped player, in ms (Config).
	Bots    []string `json:"bots"`
	Paces   []string `json:"paces"`
	StandIn int64    `json:"stand_in_ms"`
	// Accounts: the page may sign up and log in (Config.Accounts).
	Accounts bool `json:"accounts,omitempty"`
}

// option is one house rule of docs/rules.md (or the engine's round_limit): its
// values, the default first (none for a number, which takes min..max).
type option struct {
	Name    string   `json:"name"`
	Values  []string `json:"values,omitempty"`
	Default string   `json:"default"`
	Min     int      `json:"min,omitempty"`
	Max     int      `json:"max,omitempty"`
}

func bootData(cfg Config) boot {
	b := boot{Langs: []locale.Lang{locale.Ka, locale.En, locale.Ru}, Presets: map[int]map[string]int{},
		Seats: [2]int{engine.MinSeats, engine.MaxSeats}, Timings: cfg.Timings,
		Bots: formLevels(), Paces: cfg.Paces, StandIn: cfg.StandIn, Accounts: cfg.Accounts}
	def := engine.DefaultRules()
	for _, o := range engine.Options {
		v, _ := def.Get(o.Name)
		b.Options = append(b.Options, option{Name: o.Name, Values: o.Values, Default: v, Min: o.Min, Max: o.Max})
	}
	for n := engine.PresetMin; n <= engine.PresetMax; n++ {
		s, err := engine.Preset(n)
		if err != nil {
			continue
		}
		b.Presets[n] = setupMap(s)
	}
	return b
}

// formLevels lists the bots' levels as the create form offers them: the
// strongest first (the bot package lists them weakest first), so that the
// form starts from expert (a person sitting down with bots wants a real
// game; docs/balance.md has the figures that it beats smart on either side).
func formLevels() []string {
	levels := slices.Clone(bot.Levels())
	slices.Reverse(levels)
	return levels
}

// setupMap names a setup's counts as the page's form does (the create
// request spells the same names in lower case).
func setupMap(s engine.Setup) map[string]int {
	return map[string]int{"Don": s.Don, "Mafia": s.Mafia, "Maniac": s.Maniac, "Detective": s.Detective,
		"Doctor": s.Doctor, "Citizens": s.Citizens}
}
