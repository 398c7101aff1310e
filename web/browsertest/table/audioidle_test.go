package table

import (
	"mafia/internal/browsertest"
	"mafia/web/internal/webtest"

	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserTheAudioRestsBetweenSignals: once the player's touch has
// unlocked the page's audio, the AudioContext is suspended while nothing
// sounds (a running one renders silence without end: a phone's battery),
// runs for a signal (the speech's warning) and is suspended again after it.
func TestBrowserTheAudioRestsBetweenSignals(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "audio", 360, 740)
	webtest.CreateTable(p, ts.URL, "Dato", 5, map[string]string{
		"speech": "10.8", "last_words": "10.8", "defence": "10.8", "tie_speech": "10.8", "night": "0.3", "vote": "1.5",
	})
	p.Do(10*time.Second, browsertest.Click(chromedp.CSS("#add-bots")))
	// The tap unlocked the audio; with nothing to sound it rests.
	p.WaitJS(5*time.Second, `window.__mafia.sounds.audio === 'suspended'`)
	p.Do(10*time.Second,
		browsertest.WaitEnabled(chromedp.CSS("#start")),
		browsertest.Click(chromedp.CSS("#start")),
	)
	// Our seat is the first: its speech's warning comes 10 s before its end.
	p.WaitJS(15*time.Second, `window.__mafia.sounds.warn >= 1`)
	if n := webtest.Eval[int](p, `window.__mafia.sounds.sounded`); n < 1 {
		t.Fatalf("the warning made no sound (sounded=%d)", n)
	}
	p.WaitJS(5*time.Second, `window.__mafia.sounds.resumed >= 1`)
	p.WaitJS(5*time.Second, `window.__mafia.sounds.audio === 'suspended'`)
}
