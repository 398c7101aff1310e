package web_test

import (
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
	needBrowser(t)
	ts := startServer(t)
	p := newTab(t, "audio", 360, 740)
	createTable(p, ts.URL, "Dato", 5, map[string]string{
		"speech": "10.8", "last_words": "10.8", "defence": "10.8", "tie_speech": "10.8", "night": "0.3", "vote": "1.5",
	})
	p.do(10*time.Second, chromedp.Click(chromedp.CSS("#add-bots")))
	// The tap unlocked the audio; with nothing to sound it rests.
	p.waitJS(5*time.Second, `window.__mafia.sounds.audio === 'suspended'`)
	p.do(10*time.Second,
		chromedp.WaitEnabled(chromedp.CSS("#start")),
		chromedp.Click(chromedp.CSS("#start")),
	)
	// Our seat is the first: its speech's warning comes 10 s before its end.
	p.waitJS(15*time.Second, `window.__mafia.sounds.warn >= 1`)
	if n := eval[int](p, `window.__mafia.sounds.sounded`); n < 1 {
		t.Fatalf("the warning made no sound (sounded=%d)", n)
	}
	p.waitJS(5*time.Second, `window.__mafia.sounds.resumed >= 1`)
	p.waitJS(5*time.Second, `window.__mafia.sounds.audio === 'suspended'`)
}
