package review

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/web/internal/webtest"
)

// TestBrowserTheReviewSharesTheStepBeingViewed (issue 28, "What to build"
// item 2's remainder): at 360x740, the review's share box holds the link of
// the step being viewed from its point of view, the address bar's, and
// Copy copies that; moved on a step or to another seat's view, the box
// follows; the link copied, opened in another phone, shows that step from
// that view.
func TestBrowserTheReviewSharesTheStepBeingViewed(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rt := webtest.NewReviewTable(ctx, t, ts, "Share", true)
	rt.Leave()
	rt.WaitEnd(ctx)

	p := webtest.NewTab(t, "review-share", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+rt.ID+"/review"), browsertest.WaitVisible(chromedp.CSS("#rv-stepper")))
	// Copy writes to the clipboard: the test keeps what it was given.
	webtest.Eval[bool](p, `(Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: (s) => { window.__copied = s; return Promise.resolve(); } } }), true)`)
	shared := func(step, view int) string {
		t.Helper()
		want := fmt.Sprintf("%s/t/%s/review#step=%d&view=%d", ts.URL, rt.ID, step, view)
		p.WaitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#rv-step').dataset.step === '%d' && document.querySelector('#rv-step').dataset.view === '%d'`, step, view))
		if got := webtest.Eval[string](p, `document.querySelector('#rv-url').value`); got != want {
			t.Errorf("at step %d from view %d the share box holds %q, want %q", step, view, got, want)
		}
		if got := webtest.Eval[string](p, `location.href`); got != want {
			t.Errorf("at step %d from view %d the address bar holds %q, want %q", step, view, got, want)
		}
		p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-copy")))
		if !p.Eventually(5*time.Second, fmt.Sprintf(`window.__copied === %q`, want)) {
			t.Errorf("at step %d from view %d Copy copied %q, want %q", step, view, webtest.Eval[string](p, `String(window.__copied)`), want)
		}
		return want
	}
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-forward")))
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-forward")))
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-forward")))
	shared(3, 0)
	p.Do(5*time.Second, browsertest.SetValue(chromedp.CSS("#rv-view"), "2"))
	webtest.Eval[bool](p, `(document.querySelector('#rv-view').dispatchEvent(new Event('change')), true)`)
	link := shared(3, 2)
	p.Shot("review-share-360")

	// The link opens that step from that view on another phone.
	q := webtest.NewTab(t, "review-link", 360, 740)
	q.Do(15*time.Second, chromedp.Navigate(link), browsertest.WaitVisible(chromedp.CSS("#rv-stepper")))
	q.WaitJS(10*time.Second, `document.querySelector('#rv-step').dataset.step === '3' && document.querySelector('#rv-step').dataset.view === '2'`)
}
