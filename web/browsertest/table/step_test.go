package table

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/locale"
	"mafia/web/internal/webtest"
)

// TestBrowserAButtonIsForTheStepItWasDrawnIn: a button the page drew in one
// step names that step, so a tap that arrives after the step ended is
// refused as stale_step (with its sentence), not applied to a later step.
// The page's own "end my speech" is pressed, then the button drawn before
// it (a stale copy, as a late tap would be) is pressed again.
func TestBrowserAButtonIsForTheStepItWasDrawnIn(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "step", 1280, 900)
	long := map[string]string{"speech": "600", "defence": "600", "tie_speech": "600", "last_words": "600", "night": "1", "vote": "600"}
	webtest.CreateTable(p, ts.URL, "Nino", 5, long)
	p.Do(10*time.Second,
		browsertest.Click(chromedp.CSS("#add-bots")),
		browsertest.WaitEnabled(chromedp.CSS("#start")),
		browsertest.Click(chromedp.CSS("#start")),
		browsertest.WaitVisible(chromedp.CSS("#my-card")),
	)
	// Seat 1 holds the floor first on day 1: its speech, or its last words
	// if the night took it; after a bot's last words, when the night took a
	// bot (4 to 10 s at a person's pace, docs/bots.md).
	const pass = `#t-act button[data-verb=pass]:not([disabled])`
	p.WaitJS(45*time.Second, fmt.Sprintf(`!!document.querySelector(%q)`, pass))
	step := webtest.Eval[int](p, fmt.Sprintf(`(() => { window.__stale = document.querySelector(%q); return window.__mafia.state.view.step; })()`, pass))
	if step < 2 {
		t.Fatalf("the view's step is %d on day 1", step)
	}
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS(pass)))
	p.WaitJS(10*time.Second, fmt.Sprintf(`window.__mafia.state.view.step > %d && !window.__mafia.state.busy`, step))
	p.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`window.__stale.click()`))
	want := locale.New(locale.En).T("error.stale_step", nil)
	p.WaitJS(10*time.Second, fmt.Sprintf(`(document.querySelector('#alert-text') || {}).textContent === %q`, want))
}
