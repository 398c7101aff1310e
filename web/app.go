package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"mafia/locale"
)

// The player's page as an installable web app (issue 28, "What to build"
// item 5): its manifest (/manifest.webmanifest, in the page's language),
// its icons as PNG (/icon-192.png, /icon-512.png: the brand icon drawn by
// icon.go), its service worker (/sw.js, scope /) and the page the worker
// shows with no network (/offline?lang=). The page registers the worker
// and keeps the screen awake in a game (static/js/app.js).

//go:embed templates/sw.js templates/offline.html
var appFS embed.FS

// themeColour is the page's background: the app's splash and bar.
const themeColour = "#15161d"

// iconSizes are the PNG icons' sizes, in pixels (a phone's launcher and
// splash screen want 192 and 512).
var iconSizes = []int{192, 512}

// mountApp adds the app's routes to mux.
func mountApp(mux *http.ServeMux) {
	mux.HandleFunc("GET /manifest.webmanifest", serveManifest)
	mux.HandleFunc("GET /sw.js", serveServiceWorker)
	mux.HandleFunc("GET /offline", serveOffline)
	for _, n := range iconSizes {
		mux.HandleFunc("GET /icon-"+strconv.Itoa(n)+".png", func(w http.ResponseWriter, r *http.Request) { servePNG(w, r, n) })
	}
}

// langParam is the language a request names in ?lang=, else Georgian,
// the club's own.
func langParam(r *http.Request) locale.Lang {
	if l, ok := locale.Parse(r.URL.Query().Get("lang")); ok {
		return l
	}
	return locale.Ka
}

// manifestIcon is one icon of the manifest.
type manifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose"`
}

// manifest is the web app manifest of the player's page.
type manifest struct {
	ID              string         `json:"id"`
	Name            string         `json:"name"`
	ShortName       string         `json:"short_name"`
	Description     string         `json:"description"`
	Lang            string         `json:"lang"`
	StartURL        string         `json:"start_url"`
	Scope           string         `json:"scope"`
	Display         string         `json:"display"`
	Orientation     string         `json:"orientation"`
	BackgroundColor string         `json:"background_color"`
	ThemeColor      string         `json:"theme_color"`
	Icons           []manifestIcon `json:"icons"`
}

// serveManifest serves the manifest in the language of ?lang= (the page
// names its own), else Georgian.
func serveManifest(w http.ResponseWriter, r *http.Request) {
	lang := langParam(r)
	msgs := locale.New(lang)
	m := manifest{
		ID: "/", Name: msgs.T("web.title", nil), ShortName: msgs.T("web.title", nil), Description: msgs.T("web.app.about", nil),
		Lang: string(lang), StartURL: "/", Scope: "/", Display: "standalone", Orientation: "portrait",
		BackgroundColor: themeColour, ThemeColor: themeColour,
	}
	for _, n := range iconSizes {
		s := strconv.Itoa(n)
		m.Icons = append(m.Icons, manifestIcon{Src: "/icon-" + s + ".png", Sizes: s + "x" + s, Type: "image/png", Purpose: "any"})
	}
	m.Icons = append(m.Icons, manifestIcon{Src: "/static/" + Version() + "/icon.svg", Sizes: "any", Type: "image/svg+xml", Purpose: "any"})
	b, err := json.Marshal(m)
	if err != nil {
		http.Error(w, "manifest: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/manifest+json")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(b)
}

var (
	workerOnce sync.Once
	workerJS   []byte
)

// serveServiceWorker serves the worker with its version, languages and
// the files the offline page shows written above its code. It is never
// cached by HTTP: the browser compares it byte for byte to find a new one.
func serveServiceWorker(w http.ResponseWriter, _ *http.Request) {
	workerOnce.Do(func() {
		code, err := appFS.ReadFile("templates/sw.js")
		if err != nil {
			panic("web: templates/sw.js: " + err.Error())
		}
		shell, _ := json.Marshal([]string{"/static/" + Version() + "/app.css", "/static/" + Version() + "/icon.svg"})
		langs, _ := json.Marshal([]locale.Lang{locale.Ka, locale.En, locale.Ru})
		var b bytes.Buffer
		b.WriteString("const VERSION = " + strconv.Quote(Version()) + ";\n")
		b.WriteString("const LANGS = " + string(langs) + ";\n")
		b.WriteString("const SHELL = " + string(shell) + ";\n")
		b.Write(code)
		workerJS = b.Bytes()
	})
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(workerJS)))
	_, _ = w.Write(workerJS)
}

var (
	offlineOnce sync.Once
	offlineTmpl *template.Template
)

// offlinePage is the data of the offline page's template.
type offlinePage struct {
	Lang, Title, Version, Heading, Text, Retry string
}

// serveOffline serves the page the worker shows with no network, in the
// language of ?lang=: the game needs the network; try again.
func serveOffline(w http.ResponseWriter, r *http.Request) {
	offlineOnce.Do(func() { offlineTmpl = template.Must(template.ParseFS(appFS, "templates/offline.html")) })
	lang := langParam(r)
	msgs := locale.New(lang)
	var b bytes.Buffer
	err := offlineTmpl.Execute(&b, offlinePage{
		Lang: string(lang), Title: msgs.T("web.title", nil), Version: Version(),
		Heading: msgs.T("web.app.offline_heading", nil), Text: msgs.T("web.app.offline_text", nil), Retry: msgs.T("web.app.retry", nil),
	})
	if err != nil {
		http.Error(w, "template: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", pageCSP)
	_, _ = w.Write(b.Bytes())
}

// servePNG serves the brand icon as a PNG of n x n pixels.
func servePNG(w http.ResponseWriter, r *http.Request, n int) {
	b := iconPNG(n)
	h := w.Header()
	h.Set("Content-Type", "image/png")
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

// manifestLink is the page's link to its manifest in language lang.
func manifestLink(lang locale.Lang) string {
	return "/manifest.webmanifest?lang=" + strings.ToLower(string(lang))
}
