package web

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"mafia/engine"
	"mafia/locale"
)

func get(t *testing.T, h http.Handler, path string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// testTimings are the default clocks the tests mount the page with (the
// room's own are internal/site's to pass, and its test's to check).
var testTimings = map[string]int64{"speech": 61000, "defence": 31000, "tie_speech": 32000, "last_words": 33000, "night": 46000, "vote": 34000}

// handler is a mux with the browser client's routes alone, as Mount adds
// them beside the server's.
func handler() http.Handler {
	mux := http.NewServeMux()
	Mount(mux, Config{Timings: testTimings})
	return mux
}

func TestThePageIsServedAtTheRootAndAtEveryInviteLink(t *testing.T) {
	h := handler()
	for _, path := range []string{"/", "/t/0123456789abcdef"} {
		w := get(t, h, path, nil)
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, w.Code)
		}
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("GET %s: Content-Type %q", path, ct)
		}
		if cc := w.Header().Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache (the page names its files' version)", path, cc)
		}
		body := w.Body.String()
		if !strings.Contains(body, `src="/static/`+Version()+`/js/main.js"`) {
			t.Errorf("GET %s: the page does not load /static/%s/js/main.js", path, Version())
		}
		if w.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: no Content-Security-Policy", path)
		}
	}
	if w := get(t, h, "/nothing-here", nil); w.Code != http.StatusNotFound {
		t.Errorf("GET /nothing-here: %d, want 404", w.Code)
	}
}

func TestTheBootDataNamesTheRulebook(t *testing.T) {
	w := get(t, handler(), "/", nil)
	m := regexp.MustCompile(`(?s)<script type="application/json" id="boot">(.*?)</script>`).FindStringSubmatch(w.Body.String())
	if m == nil {
		t.Fatal("no boot data in the page")
	}
	var b boot
	if err := json.Unmarshal([]byte(m[1]), &b); err != nil {
		t.Fatalf("boot data: %v\n%s", err, m[1])
	}
	if len(b.Options) != len(engine.Options) {
		t.Errorf("%d options, the rulebook has %d", len(b.Options), len(engine.Options))
	}
	def := engine.DefaultRules()
	for _, o := range b.Options {
		if v, _ := def.Get(o.Name); v != o.Default {
			t.Errorf("option %s: default %q, the rulebook's %q", o.Name, o.Default, v)
		}
	}
	for n := engine.PresetMin; n <= engine.PresetMax; n++ {
		p, _ := engine.Preset(n)
		got := b.Presets[n]
		if got["Don"] != p.Don || got["Mafia"] != p.Mafia || got["Citizens"] != p.Citizens || got["Maniac"] != p.Maniac {
			t.Errorf("preset %d: %v, want %+v", n, got, p)
		}
	}
	if !maps.Equal(b.Timings, testTimings) {
		t.Errorf("timings %v, want the ones it was mounted with, %v", b.Timings, testTimings)
	}
}

func TestThePageStartsInTheBrowsersLanguageElseGeorgian(t *testing.T) {
	h := handler()
	for _, c := range []struct {
		header map[string]string
		lang   string
	}{
		{map[string]string{"Accept-Language": "ka-GE,ka;q=0.9,en;q=0.8"}, "ka"},
		{map[string]string{"Accept-Language": "de-DE,ru;q=0.8"}, "ru"},
		// Georgian first: a browser that names no language held, or none.
		{map[string]string{"Accept-Language": "fr"}, "ka"},
		{map[string]string{}, "ka"},
		{map[string]string{"Accept-Language": "ka", "Cookie": "lang=ru"}, "ru"},
	} {
		body := get(t, h, "/", c.header).Body.String()
		if !strings.Contains(body, `<html lang="`+c.lang+`">`) {
			t.Errorf("%v: the page is not in %s", c.header, c.lang)
		}
		l, _ := locale.Parse(c.lang)
		if title := locale.New(l).T("web.title", nil); !strings.Contains(body, "<title>"+title+"</title>") {
			t.Errorf("%v: the title is not %q", c.header, title)
		}
	}
}

// TestThePagesFilesAreServedByVersion checks that the page's files are
// mounted at /static/<version>/ (package static pins the caching, ETags and
// gzip), and that its template is no file of them.
func TestThePagesFilesAreServedByVersion(t *testing.T) {
	h := handler()
	path := "/static/" + Version() + "/js/main.js"
	w := get(t, h, path, nil)
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d", path, w.Code)
	}
	if ct := w.Header().Get("Content-Type"); ct != "text/javascript; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := w.Header().Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("Cache-Control %q, want a long, immutable cache", cc)
	}
	want, _ := fs.ReadFile(staticFS, "static/js/main.js")
	if !bytes.Equal(w.Body.Bytes(), want) {
		t.Error("the body is not the embedded file")
	}
	if w := get(t, h, "/static/0ld/app.css", nil); w.Code != http.StatusOK || w.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("an old version's path: %d %q, want 200 and no-cache", w.Code, w.Header().Get("Cache-Control"))
	}
	for _, p := range []string{"/static/" + Version() + "/index.html", "/static/" + Version() + "/templates/index.html", "/static/" + Version() + "/js/nope.js"} {
		if w := get(t, h, p, nil); w.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, w.Code)
		}
	}
	if w := get(t, h, "/favicon.ico", nil); w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "/static/"+Version()+"/icon.svg" {
		t.Errorf("/favicon.ico: %d to %q", w.Code, w.Header().Get("Location"))
	}
}

func TestTheCatalogsAreServedAsJSON(t *testing.T) {
	mux := handler()
	for _, l := range locale.Langs() {
		w := get(t, mux, "/api/i18n/"+string(l), nil)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d", l, w.Code)
		}
		var c catalogJSON
		if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if c.Lang != string(l) || len(c.Messages) != len(locale.Messages(l)) {
			t.Errorf("%s: lang %q, %d messages", l, c.Lang, len(c.Messages))
		}
		if w.Header().Get("ETag") == "" {
			t.Errorf("%s: no ETag", l)
		}
	}
	w := get(t, mux, "/api/i18n/ru", nil)
	var c catalogJSON
	_ = json.Unmarshal(w.Body.Bytes(), &c)
	if f := c.Messages["web.fouls"]; f["one"] == "" || f["few"] == "" || f["many"] == "" || f["other"] == "" {
		t.Errorf("ru web.fouls: %v, want the four Russian forms", f)
	}
	for _, bad := range []string{"de", "x"} {
		if w := get(t, mux, "/api/i18n/"+bad, nil); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, w.Code)
		}
	}
}

// TestEveryMessageThePageNamesIsInTheCatalogs reads the page's scripts for
// the message ids they name literally, t('web.x') or tn('web.x', n).
func TestEveryMessageThePageNamesIsInTheCatalogs(t *testing.T) {
	re := regexp.MustCompile(`\btn?\(\s*'([a-z_]+\.[A-Za-z0-9_.]+)'`)
	found := 0
	err := fs.WalkDir(staticFS, "static/js", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := fs.ReadFile(staticFS, path)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			found++
			for _, l := range locale.Langs() {
				if locale.Messages(l)[m[1]] == nil {
					t.Errorf("%s names %s, which the %s catalog lacks", path, m[1], l)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 50 {
		t.Errorf("found only %d message ids in the scripts: is the pattern still right?", found)
	}
}

// TestEveryMessageThePageBuildsIsInTheCatalogs checks the ids the page
// builds from the protocol's names (`web.option.${name}` and the like; the
// web.timing.* of the clocks it is mounted with: internal/site's test).
func TestEveryMessageThePageBuildsIsInTheCatalogs(t *testing.T) {
	var ids []string
	for _, o := range engine.Options {
		ids = append(ids, "web.option."+o.Name)
		for _, v := range o.Values {
			ids = append(ids, "web.value."+o.Name+"_"+v)
		}
		if o.Values == nil {
			ids = append(ids, "web.option_help."+o.Name)
		}
	}
	for r := engine.Citizen; r.String() != "?"; r++ {
		ids = append(ids, "web.role_help."+r.String(), "web.role_night."+r.String(), "web.role_win."+r.String())
	}
	for _, s := range []string{"lobby", "playing", "ended"} {
		ids = append(ids, "web.status."+s)
	}
	for _, v := range []string{"kill", "check", "shoot", "heal", "nominate", "vote"} {
		ids = append(ids, "web.act."+v, "web.act."+v+"_target")
	}
	for _, p := range []string{"speech", "defence", "tie_speech", "last_words"} {
		ids = append(ids, "web.act.pass_"+p, "event."+p+"_you")
	}
	for _, c := range []string{"town", "mafia", "dead"} {
		ids = append(ids, "web.chat."+c, "web.chat.closed_"+c)
	}
	for _, k := range []string{"suspect", "vouch", "will_nominate", "report_mafia", "report_not_mafia", "report_maniac"} {
		ids = append(ids, "web.say."+k)
	}
	for v := engine.Claim; v.IsStatement(); v++ {
		ids = append(ids, "event.statement_"+v.String(), "event.statement_"+v.String()+"_you")
	}
	for _, k := range []string{"Don", "Mafia", "Maniac", "Detective", "Doctor", "Citizens"} {
		ids = append(ids, "web.create.count."+k)
	}
	for _, l := range locale.Langs() {
		ids = append(ids, "web.lang_name."+string(l), "web.lang_short."+string(l))
	}
	for _, l := range locale.Langs() {
		msgs := locale.Messages(l)
		for _, id := range ids {
			if msgs[id] == nil {
				t.Errorf("%s lacks %s", l, id)
			}
		}
	}
}

func TestTheInvitesQRCodeIsOnlyOfAnInviteLink(t *testing.T) {
	h := handler()
	ok := get(t, h, "/t/5f71e455a543935b?qr="+url.QueryEscape("https://mafia.example"), nil)
	if ok.Code != http.StatusOK || ok.Header().Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(ok.Body.String(), "<svg") {
		t.Fatalf("the QR code of an invite: %d %q %.40q", ok.Code, ok.Header().Get("Content-Type"), ok.Body.String())
	}
	for _, bad := range []string{
		"javascript:alert(1)", "https://mafia.example/other/path", "https://mafia.example?x=1", "ftp://mafia.example",
		"https://user@mafia.example", "", "https://" + strings.Repeat("a", 300) + ".example",
	} {
		if w := get(t, h, "/t/5f71e455a543935b?qr="+url.QueryEscape(bad), nil); w.Code != http.StatusBadRequest {
			t.Errorf("qr=%q: %d, want 400", bad, w.Code)
		}
	}
	if w := get(t, h, "/t/NOT-AN-ID?qr="+url.QueryEscape("https://mafia.example"), nil); w.Code != http.StatusBadRequest {
		t.Errorf("a QR code of a table id that is no id: %d, want 400", w.Code)
	}
}
