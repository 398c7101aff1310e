package table

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/web/internal/webtest"
)

// TestBrowserSpeechSignals: a speech gives a soft signal 10 s before its
// end (the server's warning) and one at its end; the mute switch silences
// them. The deadline bar follows the server's deadline.
func TestBrowserSpeechSignals(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "signals", 360, 780)
	webtest.CreateTable(p, ts.URL, "Dato", 5, map[string]string{
		"speech": "10.8", "last_words": "10.8", "defence": "10.8", "tie_speech": "10.8", "night": "0.3", "vote": "1.5",
	})
	p.Do(10*time.Second,
		browsertest.Click(chromedp.CSS("#add-bots")),
		browsertest.WaitEnabled(chromedp.CSS("#start")),
		browsertest.Click(chromedp.CSS("#start")),
	)
	// Our seat is the first: day 1's first speech, or our last words.
	p.WaitJS(15*time.Second, `!!document.querySelector('#t-act button[data-verb=pass]')`)
	p.WaitJS(3*time.Second, `window.__mafia.sounds.warn >= 1`)
	if n := webtest.Eval[int](p, `window.__mafia.sounds.sounded`); n < 1 {
		t.Errorf("the warning made no sound (sounded=%d)", n)
	}
	w1 := webtest.Eval[float64](p, `parseFloat(document.querySelector('#t-clock .bar').style.width)`)
	left1 := webtest.Eval[int](p, `+document.querySelector('#t-clock [role=progressbar]').getAttribute('aria-valuenow')`)
	p.Shot("30-speech-clock-360")
	p.Do(5*time.Second, webtest.TapSetting("#mute"))
	if got := webtest.Eval[string](p, `document.querySelector('#mute').getAttribute('aria-pressed')`); got != "true" {
		t.Errorf("mute: aria-pressed=%q", got)
	}
	if left1 > 11 {
		t.Errorf("the deadline bar starts at %ds of a speech of 10.8 s", left1)
	}
	// The bar runs down while our speech goes on: it shows less time, and
	// is shorter, a second or so later.
	p.WaitJS(10*time.Second, fmt.Sprintf(`!!document.querySelector('#t-act button[data-verb=pass]') &&
		+document.querySelector('#t-clock [role=progressbar]').getAttribute('aria-valuenow') < %d &&
		parseFloat(document.querySelector('#t-clock .bar').style.width) < %g`, left1, w1))
	sounded := webtest.Eval[int](p, `window.__mafia.sounds.sounded`)
	p.WaitJS(14*time.Second, `window.__mafia.sounds.end >= 1`)
	if n := webtest.Eval[int](p, `window.__mafia.sounds.sounded`); n != sounded {
		t.Errorf("muted, the end of the speech still made a sound")
	}
}
