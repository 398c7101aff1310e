package review

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/web/internal/webtest"
)

// firstPage is what the first page asked for, from the browser's own
// resource timing: the requests, their bytes on the wire (the page's
// included), and the modules a module's import asked for (a waterfall)
// rather than the page's <link rel=modulepreload> (Chromium's resource
// timing says "other" for both: a module is preloaded when the page has
// its link), and the voice tables' modules it asked for (none: they are
// imported by a voice table's screen only).
type firstPage struct {
	Requests  int      `json:"requests"`
	Bytes     int      `json:"bytes"`
	Waterfall []string `json:"waterfall"`
	Voice     []string `json:"voice"`
}

const firstPageScript = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const rs = performance.getEntriesByType('resource').filter((r) => !r.name.includes('/api/'));
  return {
    requests: 1 + rs.length,
    bytes: Math.round((nav ? nav.transferSize : 0) + rs.reduce((n, r) => n + r.transferSize, 0)),
    waterfall: rs.filter((r) => r.name.endsWith('.js') && !r.name.endsWith('/main.js') &&
      ![...document.querySelectorAll('link[rel=modulepreload]')].some((l) => l.href === r.name)).map((r) => r.name.replace(/^.*\/js\//, '')),
    voice: [...rs.map((r) => r.name), ...[...document.querySelectorAll('link[rel=modulepreload]')].map((l) => l.href)].filter((n) => n.endsWith('/voice.js')),
  };
})()`

// TestBrowserTheFirstPagePreloadsItsModules (issue 28, defect 10): the
// lobby at 360 px asks for every module of main.js's import graph from the
// page's own <link rel=modulepreload>, none from a module's import, and
// neither asks for nor preloads voice.js (issue 31: a voice table's screen
// imports it); the requests and bytes are logged (go test -v) for the
// report.
func TestBrowserTheFirstPagePreloadsItsModules(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "first-page", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), browsertest.WaitVisible(chromedp.CSS("#quick-play, #create")))
	p.WaitJS(10*time.Second, `performance.getEntriesByType('resource').some((r) => r.name.includes('/api/i18n/'))`)
	got := webtest.Eval[firstPage](p, firstPageScript)
	t.Logf("the first page: %d requests, %d bytes on the wire", got.Requests, got.Bytes)
	if len(got.Waterfall) > 0 {
		t.Errorf("%d modules were asked for by a module's import, not preloaded by the page: %v", len(got.Waterfall), got.Waterfall)
	}
	if len(got.Voice) > 0 {
		t.Errorf("the first page asked for the voice's module: %v", got.Voice)
	}
}

// usableScript, run in every new document, notes the moment (the page's
// clock, from the navigation's start) when the page's button first exists
// and is enabled: the lobby's Quick (drawn with its handler, together) or
// the offline page's Retry (in its HTML).
const usableScript = `window.__usable = 0;
new MutationObserver(() => {
  const b = document.querySelector('#quick, #offline-retry');
  if (!window.__usable && b && !b.disabled) window.__usable = performance.now();
}).observe(document, { subtree: true, childList: true, attributes: true });`

// TestBrowserQuickIsUsableSoonAfterTheFirstPageLoads (issue 28, defect 10):
// the lobby's Quick button becomes usable, and the test logs when (go test
// -v: the median of five loads of each) against a static page of the same
// server with the same stylesheet, whose button is in its HTML (the offline
// page): what the modules, the catalog and the lobby's first draw add.
func TestBrowserQuickIsUsableSoonAfterTheFirstPageLoads(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "usable", 360, 740)
	p.Do(5*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: usableScript})
		return err
	}))
	median := func(path string) float64 {
		var ms []float64
		for range 5 {
			p.Do(15*time.Second, chromedp.Navigate(ts.URL+path))
			p.WaitJS(15*time.Second, `window.__usable > 0`)
			ms = append(ms, webtest.Eval[float64](p, `window.__usable`))
		}
		sort.Float64s(ms)
		return ms[len(ms)/2]
	}
	static, lobby := median("/offline"), median("/")
	t.Logf("usable after the navigation's start (median of 5): the lobby's Quick %.0f ms, a static page's button %.0f ms (%.1fx)", lobby, static, lobby/static)
}
