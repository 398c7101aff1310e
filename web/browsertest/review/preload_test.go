package review

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/web/internal/webtest"
)

// firstPage is what the first page asked for, from the browser's own
// resource timing: the requests, their bytes on the wire (the page's
// included), and the modules a module's import asked for (a waterfall)
// rather than the page's <link rel=modulepreload> (Chromium's resource
// timing says "other" for both: a module is preloaded when the page has
// its link).
type firstPage struct {
	Requests  int      `json:"requests"`
	Bytes     int      `json:"bytes"`
	Waterfall []string `json:"waterfall"`
}

const firstPageScript = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const rs = performance.getEntriesByType('resource').filter((r) => !r.name.includes('/api/'));
  return {
    requests: 1 + rs.length,
    bytes: Math.round((nav ? nav.transferSize : 0) + rs.reduce((n, r) => n + r.transferSize, 0)),
    waterfall: rs.filter((r) => r.name.endsWith('.js') && !r.name.endsWith('/main.js') &&
      ![...document.querySelectorAll('link[rel=modulepreload]')].some((l) => l.href === r.name)).map((r) => r.name.replace(/^.*\/js\//, '')),
  };
})()`

// TestBrowserTheFirstPagePreloadsItsModules (issue 28, defect 10): the
// lobby at 360 px asks for every module of main.js's import graph from the
// page's own <link rel=modulepreload>, none from a module's import; the
// requests and bytes are logged (go test -v) for the report.
func TestBrowserTheFirstPagePreloadsItsModules(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "first-page", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#quick-play, #create")))
	p.WaitJS(10*time.Second, `performance.getEntriesByType('resource').some((r) => r.name.includes('/api/i18n/'))`)
	got := webtest.Eval[firstPage](p, firstPageScript)
	t.Logf("the first page: %d requests, %d bytes on the wire", got.Requests, got.Bytes)
	if len(got.Waterfall) > 0 {
		t.Errorf("%d modules were asked for by a module's import, not preloaded by the page: %v", len(got.Waterfall), got.Waterfall)
	}
}
