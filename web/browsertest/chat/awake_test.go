package chat

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"mafia/internal/browsertest"
	"mafia/web/internal/webtest"
)

// fakeWakeLock stands in for the Screen Wake Lock API (headless Chromium
// refuses the real one): it counts the page's requests and releases, and
// lets the test release a lock as a phone does when the page is hidden.
const fakeWakeLock = `(() => {
  const log = { requests: 0, releases: 0, held: [] };
  window.__fakeWake = log;
  const wakeLock = {
    request: async (type) => {
      log.requests++;
      const s = new EventTarget();
      s.type = type;
      s.released = false;
      s.release = async () => {
        if (s.released) return;
        s.released = true;
        log.releases++;
        log.held = log.held.filter((x) => x !== s);
        s.dispatchEvent(new Event('release'));
      };
      log.held.push(s);
      return s;
    },
  };
  Object.defineProperty(navigator, 'wakeLock', { value: wakeLock, configurable: true });
  // The phone hides the page: it releases the lock itself (not the page).
  window.__sleep = () => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    for (const s of log.held) { s.released = true; s.dispatchEvent(new Event('release')); }
    log.held = [];
    document.dispatchEvent(new Event('visibilitychange'));
  };
  window.__wake = () => {
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  };
})()`

// TestBrowserTheTableKeepsTheScreenAwakeAndComesBackAfterSleep (issue 28,
// item 5): at 360x740 the table asks for no wake lock before the game,
// takes one when the game starts, takes it again when the page is shown
// after the phone hid it (and released the lock), and lets it go when the
// player leaves the table. A socket closed while the phone slept (its
// backoff's next try far off) is opened again at once when the page is
// shown again (pageshow), as when it becomes visible.
func TestBrowserTheTableKeepsTheScreenAwakeAndComesBackAfterSleep(t *testing.T) {
	t.Parallel()
	webtest.NeedBrowser(t)
	ts := webtest.StartServer(t)
	p := webtest.NewTab(t, "awake", 360, 740)
	p.Do(5*time.Second, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fakeWakeLock})
		return err
	}))
	webtest.CreateTable(p, ts.URL, "Dato", 5, map[string]string{
		"speech": "600", "last_words": "600", "defence": "600", "tie_speech": "600", "night": "0.3", "vote": "60",
	})
	if n := webtest.Eval[int](p, `window.__fakeWake.requests`); n != 0 {
		t.Errorf("the pregame asked for the wake lock %d times", n)
	}
	p.Do(10*time.Second,
		browsertest.Click(chromedp.CSS("#add-bots")),
		browsertest.WaitEnabled(chromedp.CSS("#start")),
		browsertest.Click(chromedp.CSS("#start")),
	)
	p.WaitJS(15*time.Second, `window.__fakeWake.requests === 1 && window.__fakeWake.held.length === 1`)

	// The phone sleeps and wakes: the lock is taken again.
	p.WaitJS(5*time.Second, `(() => { window.__sleep(); return window.__fakeWake.held.length === 0; })()`)
	p.WaitJS(5*time.Second, `(() => { window.__wake(); return true; })()`)
	p.WaitJS(5*time.Second, `window.__fakeWake.requests === 2 && window.__fakeWake.held.length === 1`)

	// The socket closed while the phone slept, its next try far off: the
	// page shown again opens it at once.
	for _, ev := range []string{
		`window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }))`,
		`window.__wake()`,
	} {
		p.WaitJS(10*time.Second, `!!window.__mafia.conn.ws && window.__mafia.conn.ws.readyState === WebSocket.OPEN`)
		p.WaitJS(5*time.Second, `(() => { const c = window.__mafia.conn; c.attempt = 30; c.ws.close(); return true; })()`)
		p.WaitJS(5*time.Second, `window.__mafia.conn.ws === null && !!window.__mafia.conn.timer`)
		if ok := webtest.Eval[bool](p, `(() => { `+ev+`; return !!window.__mafia.conn.ws; })()`); !ok {
			t.Errorf("%s: the closed socket is not opened again at once", ev)
		}
	}
	p.WaitJS(10*time.Second, `!!window.__mafia.conn.ws && window.__mafia.conn.ws.readyState === WebSocket.OPEN`)

	// Leaving the table lets the screen sleep.
	p.Do(5*time.Second, browsertest.Click(chromedp.CSS("header .brand")))
	p.WaitJS(5*time.Second, `location.pathname === '/' && window.__fakeWake.held.length === 0 && window.__fakeWake.releases === 1`)
}
