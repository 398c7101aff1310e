package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

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
	needBrowser(t)
	ts := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rt := newReviewTable(ctx, t, ts, "QR", true)
	rt.leave()
	rt.waitEnd(ctx)

	p := newTab(t, "review-qr-step", 360, 740)
	p.do(15*time.Second, chromedp.Navigate(ts.URL+"/t/"+rt.id+"/review"), chromedp.WaitVisible(chromedp.CSS("#rv-stepper")))
	p.do(5*time.Second, chromedp.Click(chromedp.CSS("#rv-share summary")))
	qrOf := func(step, view int) {
		t.Helper()
		link := fmt.Sprintf("%s/t/%s/review#step=%d&view=%d", ts.URL, rt.id, step, view)
		p.waitJS(5*time.Second, fmt.Sprintf(`document.querySelector('#rv-step').dataset.step === '%d' && document.querySelector('#rv-step').dataset.view === '%d'`, step, view))
		if got := eval[string](p, `document.querySelector('#rv-url').value`); got != link {
			t.Fatalf("at step %d from view %d the share box holds %q, want %q", step, view, got, link)
		}
		p.waitJS(10*time.Second, `(() => { const i = document.querySelector('#rv-qr'); return i && i.complete && i.naturalWidth > 0; })()`)
		src := eval[string](p, `document.querySelector('#rv-qr').src`)
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
	p.do(5*time.Second, chromedp.Click(chromedp.CSS("#rv-forward")))
	p.do(5*time.Second, chromedp.Click(chromedp.CSS("#rv-forward")))
	p.do(5*time.Second, chromedp.Click(chromedp.CSS("#rv-forward")))
	qrOf(3, 0)
	p.do(5*time.Second, chromedp.SetValue(chromedp.CSS("#rv-view"), "2"))
	eval[bool](p, `(document.querySelector('#rv-view').dispatchEvent(new Event('change')), true)`)
	qrOf(3, 2)
	p.do(5*time.Second, chromedp.Click(chromedp.CSS("#rv-forward")))
	qrOf(4, 2)
	p.shot("review-qr-step-360")
}
