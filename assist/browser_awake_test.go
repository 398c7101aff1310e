package assist_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"mafia/assist/record"
)

// TestTheScreenStaysOnWhileAGameIsOpen checks the screen wake lock: the
// page holds one while a game is open, asks again when it is shown after
// the lock was dropped (the browser drops it whenever the page is hidden),
// lets it go on leaving the game, and where the browser has no such API
// the game goes on without a word.
func TestTheScreenStaysOnWhileAGameIsOpen(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	h := openHost(t, ts, "host")
	h.create(gameSpec{Names: names11[:7], Deal: record.DealPass})
	h.waitJS(5*time.Second, `!!window.__assistWakeLock && !window.__assistWakeLock.released`)

	// The system drops the lock (the page was hidden); the page is shown again.
	eval[bool](h.tab, `(() => { const s = window.__assistWakeLock; window.__assistOldLock = s;
		s.release().then(() => document.dispatchEvent(new Event('visibilitychange'))); return true; })()`)
	h.waitJS(5*time.Second, `window.__assistWakeLock !== window.__assistOldLock && !window.__assistWakeLock.released`)

	// Leaving the game lets the screen go dark again.
	h.do(5*time.Second, chromedp.Navigate(ts.URL+"/host/#/"))
	h.waitJS(5*time.Second, `window.__assistWakeLock.released`)

	// A browser without the API: the game opens and plays, and nothing is said.
	old := newTab(t, "old-phone", 360, 740)
	old.do(5*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `delete Navigator.prototype.wakeLock;`})
		return err
	}))
	old.do(30*time.Second, chromedp.Navigate(ts.URL+"/host/"))
	old.waitJS(30*time.Second, `window.__assistReady === true && !('wakeLock' in navigator)`)
	o := &host{tab: old, ts: ts}
	o.create(gameSpec{Names: names11[:7], Deal: record.DealPass})
	o.waitJS(5*time.Second, `!!document.querySelector('[data-t="reveal"]')`)
	if eval[bool](old, `!!document.querySelector('.toast.show')`) {
		t.Errorf("without the API the page says something: %s", old.text())
	}
}
