package game

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheScreenStaysOnWhileAGameIsOpen checks the screen wake lock: the
// page holds one while a game is open, asks again when it is shown after
// the lock was dropped (the browser drops it whenever the page is hidden),
// lets it go on leaving the game, and where the browser has no such API
// the game goes on without a word.
func TestTheScreenStaysOnWhileAGameIsOpen(t *testing.T) {
	t.Parallel()
	ts := hosttest.StartServer(t)
	h := hosttest.OpenHost(t, ts, "host")
	// A phone's browser grants a shown page the screen wake lock; Chromium's
	// headless shell, which the tests run in, refuses it unless the
	// permission is granted ("Wake Lock permission request denied"; full
	// Chromium grants it): grant it to this tab's browser context.
	h.Do(5*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission:       &browser.PermissionDescriptor{Name: "screen-wake-lock"},
			Setting:          browser.PermissionSettingGranted,
			Origin:           ts.URL,
			BrowserContextID: chromedp.FromContext(ctx).BrowserContextID,
		})
		return err
	}))
	h.Create(hosttest.GameSpec{Names: hosttest.Names11[:7], Deal: record.DealPass})
	h.WaitJS(5*time.Second, `!!window.__assistWakeLock && !window.__assistWakeLock.released`)

	// The system drops the lock (the page was hidden); the page is shown again.
	hosttest.Eval[bool](h.Tab, `(() => { const s = window.__assistWakeLock; window.__assistOldLock = s;
		s.release().then(() => document.dispatchEvent(new Event('visibilitychange'))); return true; })()`)
	h.WaitJS(5*time.Second, `window.__assistWakeLock !== window.__assistOldLock && !window.__assistWakeLock.released`)

	// Leaving the game lets the screen go dark again.
	h.Do(5*time.Second, chromedp.Navigate(ts.URL+"/host/#/"))
	h.WaitJS(5*time.Second, `window.__assistWakeLock.released`)

	// A browser without the API: the game opens and plays, and nothing is said.
	old := hosttest.NewTab(t, "old-phone", 360, 740)
	old.Do(5*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `delete Navigator.prototype.wakeLock;`})
		return err
	}))
	old.Do(30*time.Second, chromedp.Navigate(ts.URL+"/host/"))
	old.WaitJS(30*time.Second, `window.__assistReady === true && !('wakeLock' in navigator)`)
	o := &hosttest.Host{Tab: old, Ts: ts}
	o.Create(hosttest.GameSpec{Names: hosttest.Names11[:7], Deal: record.DealPass})
	o.WaitJS(5*time.Second, `!!document.querySelector('[data-t="reveal"]')`)
	if hosttest.Eval[bool](old, `!!document.querySelector('.toast.show')`) {
		t.Errorf("without the API the page says something: %s", old.Text())
	}
}
