package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"

	"mafia/locale"
	"mafia/web/internal/webtest"
)

// TestAppManifestAndIconsAreServed (issue 28, "What to build" item 5):
// the manifest names the app in the language asked (Georgian when none
// is), starts at / standalone, and lists PNG icons of 192 and 512 pixels
// that decode at their sizes, and the SVG; the worker is served as a
// script never cached by HTTP; the page links the manifest in its
// language, and its CSP lets the manifest and the worker load.
func TestAppManifestAndIconsAreServed(t *testing.T) {
	t.Parallel()
	ts := webtest.StartServer(t)
	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %s", path, res.Status)
		}
		return res, b
	}
	for _, c := range []struct{ query, lang string }{{"", "ka"}, {"?lang=en", "en"}, {"?lang=ru", "ru"}} {
		res, b := get("/manifest.webmanifest" + c.query)
		if ct := res.Header.Get("Content-Type"); ct != "application/manifest+json" {
			t.Errorf("manifest%s: Content-Type %q", c.query, ct)
		}
		var m struct {
			Name, ShortName, StartURL, Display, Lang, ThemeColor string
			Icons                                                []struct{ Src, Sizes, Type string }
		}
		var raw map[string]any
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal(b, &m)
		m.ShortName, _ = raw["short_name"].(string)
		m.StartURL, _ = raw["start_url"].(string)
		m.ThemeColor, _ = raw["theme_color"].(string)
		want := locale.New(locale.Lang(c.lang)).T("web.title", nil)
		if m.Name != want || m.ShortName != want || m.Lang != c.lang || m.StartURL != "/" || m.Display != "standalone" || m.ThemeColor == "" {
			t.Errorf("manifest%s: %s", c.query, b)
		}
		sizes := map[string]bool{}
		for _, ic := range m.Icons {
			sizes[ic.Sizes+" "+ic.Type] = true
			if ic.Type != "image/png" {
				continue
			}
			r, body := get(ic.Src)
			img, err := png.Decode(bytes.NewReader(body))
			if err != nil || r.Header.Get("Content-Type") != "image/png" {
				t.Fatalf("%s: %v %s", ic.Src, err, r.Header.Get("Content-Type"))
			}
			if got := fmt.Sprintf("%dx%d", img.Bounds().Dx(), img.Bounds().Dy()); got != ic.Sizes {
				t.Errorf("%s is %v, the manifest says %s", ic.Src, img.Bounds(), ic.Sizes)
			}
		}
		for _, s := range []string{"192x192 image/png", "512x512 image/png", "any image/svg+xml"} {
			if !sizes[s] {
				t.Errorf("manifest%s: no icon %s: %v", c.query, s, sizes)
			}
		}
	}
	res, js := get("/sw.js")
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") || res.Header.Get("Cache-Control") != "no-cache" ||
		!bytes.Contains(js, []byte("const VERSION = ")) {
		t.Errorf("/sw.js: %s %v", ct, res.Header)
	}
	req, _ := http.NewRequest("GET", ts.URL+"/", nil)
	req.Header.Set("Accept-Language", "ru")
	res2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res2.Body)
	res2.Body.Close()
	csp := res2.Header.Get("Content-Security-Policy")
	if !bytes.Contains(page, []byte(`<link rel="manifest" href="/manifest.webmanifest?lang=ru">`)) ||
		!strings.Contains(csp, "manifest-src 'self'") || !strings.Contains(csp, "worker-src 'self'") {
		t.Errorf("the page does not link its manifest in Russian, or its CSP %q keeps it out:\n%s", csp, page)
	}
}
