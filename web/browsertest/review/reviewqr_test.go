package review

import (
	"mafia/web/internal/webtest"

	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/internal/qrsvg"
)

// TestBrowserTheReviewsQRCodeIsOfTheStepBeingViewed (issue 28, the
// shared review's leftover): at 360x740, the QR code under the review's
// share box is the code of the link the box holds, the step being viewed
// from its point of view (…/review#step=N&view=S), not the review's first
// step; it follows each move: a step on, another seat's view. The image the
// page loaded is compared with the code drawn for that link.
func TestBrowserTheReviewsQRCodeIsOfTheStepBeingViewed(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rt := webtest.NewReviewTable(ctx, t, ts, "QR", true)
	rt.Leave()
	rt.WaitEnd(ctx)

	p := webtest.NewTab(t, "review-qr-step", 360, 740)
	p.Do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+rt.ID+"/review"), browsertest.WaitVisible(chromedp.CSS("#rv-stepper")))
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-share summary")))
	qrOf := func(step, view int) {
		t.Helper()
		link := fmt.Sprintf("%s/t/%s/review#step=%d&view=%d", ts.URL, rt.ID, step, view)
		p.WaitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#rv-step').dataset.step === '%d' && document.querySelector('#rv-step').dataset.view === '%d'`, step, view))
		if got := webtest.Eval[string](p, `document.querySelector('#rv-url').value`); got != link {
			t.Fatalf("at step %d from view %d the share box holds %q, want %q", step, view, got, link)
		}
		p.WaitJS(10*time.Second, `(() => { const i = document.querySelector('#rv-qr'); return i && i.complete && i.naturalWidth > 0; })()`)
		src := webtest.Eval[string](p, `document.querySelector('#rv-qr').src`)
		resp, err := http.Get(src)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		want, err := qrsvg.Draw(link)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || string(body) != want {
			t.Errorf("at step %d from view %d the QR code (%s: %d) is not the code of %q", step, view, src, resp.StatusCode, link)
		}
	}
	qrOf(0, 0)
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-forward")))
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-forward")))
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-forward")))
	qrOf(3, 0)
	p.Do(5*time.Second, browsertest.SetValue(chromedp.CSS("#rv-view"), "2"))
	webtest.Eval[bool](p, `(document.querySelector('#rv-view').dispatchEvent(new Event('change')), true)`)
	qrOf(3, 2)
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("#rv-forward")))
	qrOf(4, 2)
	p.Shot("review-qr-step-360")
}
