package browsertest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// drive returns the organiser tests' ways of working a page in the tab of
// ctx, each failing t with the page's text when it cannot: page (its
// text), wait (until a JavaScript expression holds; a poll cut by the
// page's navigation is polled again), eval (an expression into out),
// press (a button tapped from the page: a tap aimed from the test can be
// lost while the page redraws under it) and wide (an error if the page
// scrolls sideways at 360 px).
func drive(t *testing.T, ctx context.Context) (page func() string, wait func(what, expr string),
	eval func(what, expr string, out any), press func(what, sel string), wide func(what string)) {
	page = func() string {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ''`))
		return text
	}
	wait = func(what, expr string) {
		t.Helper()
		for {
			_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond),
				chromedp.WithPollingTimeout(2*time.Minute)))
			if err == nil {
				return
			}
			if ctx.Err() != nil || !strings.Contains(err.Error(), "navigated") && !strings.Contains(err.Error(), "context with specified id") {
				t.Fatalf("%s: %v\npage:\n%s", what, err, page())
			}
		}
	}
	eval = func(what, expr string, out any) {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](expr))
		if err == nil {
			err = json.Unmarshal(v, out)
		}
		if err != nil {
			t.Fatalf("%s: %v\npage:\n%s", what, err, page())
		}
	}
	press = func(what, sel string) {
		t.Helper()
		var ok bool
		eval(what, `(() => { const b = document.querySelector(`+string(mustJSON(sel))+`); if (!b) return false; b.click(); return true; })()`, &ok)
		if !ok {
			t.Fatalf("%s: no %s\npage:\n%s", what, sel, page())
		}
	}
	wide = func(what string) {
		t.Helper()
		var w bool
		eval(what, `document.documentElement.scrollWidth > innerWidth + 1`, &w)
		if w {
			t.Errorf("%s: the page scrolls sideways at 360 px", what)
		}
	}
	return page, wait, eval, press, wide
}
