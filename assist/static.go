package assist

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"strconv"
	"sync"

	"mafia/internal/sharedjs"
	"mafia/internal/static"
	"mafia/locale"
)

// The page's files: HTML templates in templates/, scripts, styles and the
// engine module (committed by `go generate`, gzipped) in static/.
//
//go:embed static
var staticFS embed.FS

//go:embed templates/*.html
var templateFS embed.FS

// files are the page's files, with the modules it shares with the browser
// client (sharedjs: js/dom.js, js/i18n.js, js/rolecard.js), served under
// /host/static/<version>/ (package static: a new build is never mixed with
// a phone's cached files; the engine module, stored gzipped, is served as
// engine.wasm).
var files = static.New(staticFS, "static").Include(sharedjs.FS, ".", "js")

// Version names the files' contents: pages load /host/static/<version>/...,
// so a new build is never mixed with a phone's cached files.
func Version() string { return files.Version() }

var (
	tmplOnce sync.Once
	tmpl     *template.Template
)

func templates() *template.Template {
	tmplOnce.Do(func() {
		tmpl = template.Must(template.New("").Funcs(template.FuncMap{
			"add": func(a, b int) int { return a + b },
		}).ParseFS(templateFS, "templates/*.html"))
	})
	return tmpl
}

// page is what every page template gets: the language, a printer for it,
// the languages to switch to, and the files' version.
type page struct {
	Lang    string
	Langs   []pageLang
	Version string
	p       *locale.Printer
}

// pageLang is one language of the language switch: its code and its own
// name for itself (assist.language.<code>, e.g. "ქართული").
type pageLang struct{ Code, Name string }

// T renders a catalog message in the page's language.
func (pg page) T(id string) string { return pg.p.T(id, nil) }

func newPage(r *http.Request) page {
	l := langOf(r)
	p := locale.New(l)
	langs := []pageLang{}
	for _, x := range locale.Langs() {
		langs = append(langs, pageLang{Code: string(x), Name: p.T("assist.language."+string(x), nil)})
	}
	return page{Lang: string(l), Langs: langs, Version: Version(), p: p}
}

// render writes a page template with the headers every page has.
func render(w http.ResponseWriter, r *http.Request, name string, data any) {
	renderStatus(w, r, http.StatusOK, name, data)
}

// renderStatus is render with a status other than 200.
func renderStatus(w http.ResponseWriter, _ *http.Request, status int, name string, data any) {
	var b bytes.Buffer
	if err := templates().ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "template: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	if h.Get("Cache-Control") == "" { // a page may ask for no-store
		h.Set("Cache-Control", "no-cache")
	}
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "+
		"img-src 'self' data:; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// servePage serves the host's page; the page draws every screen itself.
func (h *Handler) servePage(w http.ResponseWriter, r *http.Request) {
	render(w, r, "host.html", newPage(r))
}

// cardPage is the data of a player's card page.
type cardPage struct {
	page
	Game string
	Seat string
}

func (h *Handler) serveCardPage(w http.ResponseWriter, r *http.Request) {
	render(w, r, "card.html", cardPage{page: newPage(r), Game: r.PathValue("id"), Seat: r.PathValue("seat")})
}
