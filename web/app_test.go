package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"mafia/locale"
)

// TestAppManifestAndIconsAreServed (issue 28, "What to build" item 5):
// the manifest names the app in the language asked (Georgian when none
// is), starts at / standalone, and lists PNG icons of 192 and 512 pixels
// that decode at their sizes, and the SVG; the worker is served as a
// script never cached by HTTP; the page links the manifest in its
// language, and its CSP lets the manifest and the worker load.
func TestAppManifestAndIconsAreServed(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
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

// TestBrowserTheAppIsInstallableAndSaysItNeedsTheNetwork (issue 28,
// item 5): at 360x740 Chromium reads the page's manifest with no error and
// finds nothing that keeps it from being installed; the page's service
// worker takes the page; with the network cut (the server behind a proxy
// that drops every request), a table's link opens the
// offline page in the language the page was last in (Russian), saying the
// game needs the network, with a button to try again, and no sideways
// scroll; back online the table's page opens again.
func TestBrowserTheAppIsInstallableAndSaysItNeedsTheNetwork(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	back := startServer(t)
	// The phone's network: the server behind a proxy the test can cut
	// (every request then fails, the service worker's too).
	var cut atomic.Bool
	u, err := url.Parse(back.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cut.Load() {
			panic(http.ErrAbortHandler) // the connection drops: no answer
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	ts := struct{ URL string }{front.URL}
	p := newTab(t, "app", 360, 740)
	p.expect("ERR_")
	p.expect("404") // the table of the link is none
	p.do(15*time.Second, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#quick-play, #create")))
	p.waitJS(15*time.Second, `(async () => { const r = await navigator.serviceWorker.getRegistration('/'); return !!(r && r.active && r.active.state === 'activated'); })()`)
	var man page.GetAppManifestResult
	var inst page.GetInstallabilityErrorsResult
	p.do(10*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		var err error
		if man, err = chromedp.Call(ctx, page.GetAppManifest, page.GetAppManifestParams{}); err != nil {
			return err
		}
		inst, err = chromedp.Call(ctx, page.GetInstallabilityErrors, cdp.Empty{})
		return err
	}))
	if len(man.Errors) > 0 || man.Manifest == nil || !strings.Contains(man.Data, `"display":"standalone"`) || !strings.Contains(man.URL, "/manifest.webmanifest?lang=") {
		t.Errorf("the manifest as Chromium read it: %+v %+v", man, man.Errors)
	}
	for _, e := range inst.InstallabilityErrors {
		// The test's tab is a fresh browser context, which Chromium counts
		// as incognito: that is the tab's, not the page's.
		if e.ErrorID != "in-incognito" {
			t.Errorf("Chromium would not install the page: %s %+v", e.ErrorID, e.ErrorArguments)
		}
	}

	// The page tells the worker its language; then the network goes.
	p.do(5*time.Second, tapSetting(`button[data-lang="ru"]`))
	p.waitJS(10*time.Second, `(async () => { const r = await caches.match('/offline-lang'); return !!r && (await r.text()) === 'ru'; })()`)
	offline := func(off bool) {
		cut.Store(off)
		front.CloseClientConnections()
	}
	offline(true)
	p.do(15*time.Second, chromedp.Navigate(ts.URL+"/t/0123abcd"), chromedp.WaitVisible(chromedp.CSS("#offline")))
	ru := locale.New(locale.Ru)
	if got := eval[string](p, `document.querySelector('#offline-text').textContent`); got != ru.T("web.app.offline_text", nil) {
		t.Errorf("the offline page says %q", got)
	}
	if lang := eval[string](p, `document.documentElement.lang`); lang != "ru" {
		t.Errorf("the offline page is in %q", lang)
	}
	if h := eval[float64](p, `document.querySelector('#offline-retry').getBoundingClientRect().height`); h < 44 {
		t.Errorf("the retry button is %.0f px high", h)
	}
	p.shot("93-app-offline-ru-360")
	offline(false)
	// Try again loads the same link (the button's), now online.
	if href := eval[string](p, `document.querySelector('#offline-retry').href`); href != ts.URL+"/t/0123abcd" {
		t.Errorf("try again goes to %q", href)
	}
	p.do(15*time.Second, chromedp.Navigate(ts.URL+"/t/0123abcd"), chromedp.WaitReady(chromedp.CSS(`body[data-ready="true"]`)))
	p.waitJS(15*time.Second, `location.pathname === '/t/0123abcd' && !document.querySelector('#offline') && document.body.dataset.ready === 'true'`)
}
