package phone

import (
	"context"
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

	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
)

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
	webtest.NeedBrowser(t)
	back := webtest.StartServer(t)
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
	p := webtest.NewTab(t, "app", 360, 740)
	p.Expect("ERR_")
	p.Expect("404") // the table of the link is none
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#quick-play, #create")))
	p.WaitJS(15*time.Second, `(async () => { const r = await navigator.serviceWorker.getRegistration('/'); return !!(r && r.active && r.active.state === 'activated'); })()`)
	var man page.GetAppManifestResult
	var inst page.GetInstallabilityErrorsResult
	p.Do(10*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
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
	p.Do(5*time.Second, webtest.TapSetting(`button[data-lang="ru"]`))
	p.WaitJS(10*time.Second, `(async () => { const r = await caches.match('/offline-lang'); return !!r && (await r.text()) === 'ru'; })()`)
	offline := func(off bool) {
		cut.Store(off)
		front.CloseClientConnections()
	}
	offline(true)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/0123abcd"), browsertest.WaitVisible(chromedp.CSS("#offline")))
	ru := locale.New(locale.Ru)
	if got := webtest.Eval[string](p, `document.querySelector('#offline-text').textContent`); got != ru.T("web.app.offline_text", nil) {
		t.Errorf("the offline page says %q", got)
	}
	if lang := webtest.Eval[string](p, `document.documentElement.lang`); lang != "ru" {
		t.Errorf("the offline page is in %q", lang)
	}
	if h := webtest.Eval[float64](p, `document.querySelector('#offline-retry').getBoundingClientRect().height`); h < 44 {
		t.Errorf("the retry button is %.0f px high", h)
	}
	p.Shot("93-app-offline-ru-360")
	offline(false)
	// Try again loads the same link (the button's), now online.
	if href := webtest.Eval[string](p, `document.querySelector('#offline-retry').href`); href != ts.URL+"/t/0123abcd" {
		t.Errorf("try again goes to %q", href)
	}
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/0123abcd"), browsertest.WaitReady(chromedp.CSS(`body[data-ready="true"]`)))
	p.WaitJS(15*time.Second, `location.pathname === '/t/0123abcd' && !document.querySelector('#offline') && document.body.dataset.ready === 'true'`)
}
