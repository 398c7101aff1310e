package hosttest

import (
	"bufio"
	"context"
	"fmt"
	"mafia/assist"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/store/sqlite"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Browser is the one Chromium that a test binary's browser tests share,
// started by the first test that needs it; each package's TestMain closes it.
var Browser = browsertest.New("mafia/assist",
	// A plain-http name that is not loopback (the reload tests' lan.test).
	chromedp.Flag("host-resolver-rules", "MAP lan.test 127.0.0.1"),
	// V8 runs the engine's WebAssembly (8 MB of Go) with its baseline
	// compiler only, as it does first on a phone too: the optimising
	// compiler's tier-up of the module's hot functions took about 0.9 of
	// the 1.75 CPU-s a page's renderer spent opening the assistant, again in
	// each of a package's twenty-odd pages, and a test's game is too short
	// to win it back. The rules run the same module either way; a tier is
	// how fast it runs, not what it does.
	chromedp.Flag("js-flags", "--liftoff-only"))

// TheBrowser returns the running Chromium, or skips the test when there is
// none (fails it when CI=true).
func TheBrowser(t *testing.T) context.Context { return Browser.Context(t) }

// Server is the assistant on loopback over a SQLite file, behind a
// switch that can cut the host's connection: while down, every request to
// /host/api/ has its connection closed without an answer; DropAnswers
// makes the next sync requests be applied and then lose their answer.
type Server struct {
	URL         string
	DB          *sqlite.DB
	H           *assist.Handler
	Clubs       http.Handler // the clubs beside the assistant (withClubs), nil: none
	Down        atomic.Bool
	DropAnswers atomic.Int32
	Syncs       atomic.Int32 // sync requests that reached the handler

	mu       sync.Mutex
	requests []string // every request line's target that reached the server
}

// RequestURIs returns the target of every request that reached the server
// (path and query, as the request line and so every log holds it).
func (ts *Server) RequestURIs() []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]string(nil), ts.requests...)
}

// StartServer starts the assistant on loopback over a SQLite file of the
// test's own, with the clubs beside it; it stops when the test ends.
func StartServer(t *testing.T) *Server {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	// Deals are fixed (seeds 1, 2, 3, ... in the order games are made), so
	// a failure replays with the same cards.
	var seeds atomic.Uint64
	ts := &Server{DB: db}
	ts.withClubs(assist.Config{Seed: func() uint64 { return seeds.Add(1) }})
	hs := httptest.NewServer(http.HandlerFunc(ts.Serve))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		db.Close()
	})
	ts.URL = hs.URL
	return ts
}

// Serve answers a request as the server does (the cut connection and the
// lost answers included).
func (ts *Server) Serve(w http.ResponseWriter, r *http.Request) {
	ts.mu.Lock()
	ts.requests = append(ts.requests, r.RequestURI)
	ts.mu.Unlock()
	api := strings.HasPrefix(r.URL.Path, "/host/api/")
	if api && ts.Down.Load() {
		HangUp(w)
		return
	}
	if api && strings.HasSuffix(r.URL.Path, "/sync") {
		ts.Syncs.Add(1)
		if ts.DropAnswers.Load() > 0 {
			ts.DropAnswers.Add(-1)
			ts.H.ServeHTTP(httptest.NewRecorder(), r) // applied, and the answer is lost
			HangUp(w)
			return
		}
	}
	if ts.Clubs != nil && (strings.HasPrefix(r.URL.Path, "/host/api/clubs") || strings.HasPrefix(r.URL.Path, "/host/clubs/")) {
		ts.Clubs.ServeHTTP(w, r)
		return
	}
	ts.H.ServeHTTP(w, r)
}

// WithClubs makes the assistant of cfg on ts.db with the clubs beside it,
// wired and mounted as `mafia serve` does (package clubhttp, behind the
// assistant's Front), and returns the clubs.
func (ts *Server) withClubs(cfg assist.Config) *clubhttp.Handler {
	clubs := clubhttp.New(clubhttp.Config{Store: ts.DB, Games: assist.ClubGames(ts.DB, nil), Accounts: cfg.Accounts,
		Guard: cfg.Guard, Files: assist.Version()})
	cfg.Store, cfg.Clubs = ts.DB, clubs
	ts.H = assist.New(cfg)
	ts.Clubs = ts.H.Front(clubs)
	return clubs
}

// HangUp closes the connection without an answer.
func HangUp(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("no hijacker")
	}
	c, _, err := hj.Hijack()
	if err == nil {
		c.Close()
	}
}

// Slack multiplies the bound of every wait for a page (browsertest.Slack).
const Slack = browsertest.Slack

// Tab is a phone: a tab of its own in a browser context of its own.
type Tab struct {
	t    *testing.T
	Ctx  context.Context
	name string
	mu   sync.Mutex
	errs []string
}

// NewTab opens a tab of width×height in a browser context of its own in
// the package's browser (a phone of its own). A tab given options (a
// listener of the browser's events) keeps every DevTools domain on;
// any other is quiet (browsertest.Quiet).
func NewTab(t *testing.T, name string, width, height int64, opts ...chromedp.ContextOption) *Tab {
	t.Helper()
	return newTabIn(t, TheBrowser(t), name, width, height, len(opts) == 0, append([]chromedp.ContextOption{chromedp.WithNewBrowserContext()}, opts...)...)
}

// NewTabIn opens a tab in browser context root (a tab of the package's
// browser, or the first tab of a browser of the test's own), quiet unless
// given options (as NewTab).
func NewTabIn(t *testing.T, root context.Context, name string, width, height int64, opts ...chromedp.ContextOption) *Tab {
	t.Helper()
	return newTabIn(t, root, name, width, height, len(opts) == 0, opts...)
}

func newTabIn(t *testing.T, root context.Context, name string, width, height int64, quiet bool, opts ...chromedp.ContextOption) *Tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(root, opts...)
	t.Cleanup(cancel)
	tb := &Tab{t: t, Ctx: ctx, name: name}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatalf("%s: viewport: %v", name, err)
	}
	if quiet {
		if err := browsertest.Quiet(ctx); err != nil {
			t.Fatalf("%s: quiet: %v", name, err)
		}
	}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				tb.mu.Lock()
				tb.errs = append(tb.errs, m.String())
				tb.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		for _, e := range tb.errs {
			// A request that fails while the connection is cut is logged
			// by Chromium as a network error; nothing else may be.
			if strings.Contains(e, "Failed to load resource") || strings.Contains(e, "net::ERR_") {
				continue
			}
			t.Errorf("%s: the page logged an error: %s", name, e)
		}
	})
	return tb
}

// Do runs actions with a timeout.
func (tb *Tab) Do(d time.Duration, steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, Slack*d)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		tb.t.Fatalf("%s: %v\npage:\n%s", tb.name, err, tb.Text())
	}
}

// Eval evaluates a JavaScript expression.
func Eval[T any](tb *Tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, Slack*10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.t.Fatalf("%s: eval %s: %v\npage:\n%s", tb.name, expr, err, tb.Text())
	}
	return v
}

// WaitJS waits until a JavaScript expression is true (bounded by the
// context alone: chromedp's own 30-second bound of a poll is off).
func (tb *Tab) WaitJS(d time.Duration, expr string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, Slack*d)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(30*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		tb.t.Fatalf("%s: waiting for %s: %v\npage:\n%s", tb.name, expr, err, tb.Text())
	}
}

// Click taps the element that a CSS selector finds, as a finger does: it
// waits for the element to be on the page, visible and the topmost thing
// at its centre (scrolled into view if need be), and then presses and
// releases the mouse there (DevTools' Input domain: the page hears a
// trusted tap, with the user activation that vibration and sound need).
//
// It costs four DevTools calls (the evaluation, the press, the release, the
// guard read back), where chromedp.Click costs about nine (the
// query, the box model, a visibility call, the scroll, the quads, the press,
// the release) and looks again every 50 ms with several of them: the
// element is looked for, checked and measured inside the page, in one
// evaluation that waits there for it. The element can still move between
// that evaluation and the press (a search that answers late and pushes a
// button down): so the evaluation also arms a guard, for this one tap, that
// swallows any part of it (pointer, mouse, click) that lands outside the
// element, before the page hears it, and the tap is made again from the
// start. A tap whose press landed on its element counts (it is the page's
// to act on it, or to navigate away).
func (tb *Tab) Click(sel string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, Slack*10*time.Second)
	defer cancel()
	var last error
	for ctx.Err() == nil {
		done, err := tap(ctx, sel)
		if done {
			return
		}
		last = err
		if err != nil && ctx.Err() == nil {
			// The page was between documents: look again a moment later,
			// as chromedp's queries do.
			select {
			case <-ctx.Done():
			case <-time.After(browsertest.Every):
			}
		}
	}
	if last == nil {
		last = ctx.Err()
	}
	tb.t.Fatalf("%s: tap %s: %v\npage:\n%s", tb.name, sel, last, tb.Text())
}

// tap tries one tap of Click: it reports whether it landed on its element.
func tap(ctx context.Context, sel string) (bool, error) {
	deadline, _ := ctx.Deadline() // Click always sets one
	limit := time.Until(deadline)
	at, err := chromedp.Run(ctx, chromedp.Evaluate[tapPoint](
		fmt.Sprintf(tapJS, JsString(sel), browsertest.Every.Milliseconds(), limit.Milliseconds()), chromedp.EvalAwaitPromise))
	if err != nil {
		return false, err // the page went away meanwhile (a reload): look again
	}
	if at.Why != "" {
		return false, fmt.Errorf("the element is %s", at.Why)
	}
	if err := chromedp.Do(ctx, MouseTap(at.X, at.Y, 1)); err != nil {
		return false, err
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](tapDoneJS))
	switch {
	case ctx.Err() != nil:
		return false, ctx.Err()
	case err != nil || got == "gone":
		// The tap took the page away (a reload, a link): it was heard.
		return true, nil
	case got == "hit", got == "nowhere":
		// Its press on the element, or no part of it heard by the page
		// at all (a disabled control hears no mouse), as chromedp's tap
		// would have been: done.
		return true, nil
	}
	return false, fmt.Errorf("the tap at %.0f,%.0f landed %s", at.X, at.Y, got)
}

// tapPoint is where tapJS found the element's centre, or Why it did not.
type tapPoint struct {
	X, Y float64
	Why  string
}

// tapJS waits, in the page, for the element of selector %s to be visible
// and the topmost thing at its centre, looking again every %d ms for at
// most %d ms; it arms the tap's guard (window.__hostTap) and returns the
// centre, or why it gave up.
const tapJS = `((sel, every, limit) => new Promise((resolve) => {
	const t0 = performance.now();
	const look = () => {
		let why = 'missing';
		const el = document.querySelector(sel);
		if (el) {
			why = 'not visible';
			if (el.offsetWidth || el.offsetHeight || el.getClientRects().length) {
				let r = el.getBoundingClientRect();
				if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
					el.scrollIntoView({ block: 'center', inline: 'center' });
					r = el.getBoundingClientRect();
				}
				const x = r.left + r.width / 2, y = r.top + r.height / 2;
				const top = document.elementFromPoint(x, y);
				if (top && el.contains(top)) {
					if (window.__hostTap) window.__hostTap.off();
					const g = { hit: false, miss: '' };
					const kinds = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'];
					const check = (e) => {
						if (!e.isTrusted) return;
						if (e.target instanceof Node && el.contains(e.target)) {
							if (e.type === 'pointerdown') g.hit = true;
							return;
						}
						if (!g.miss) g.miss = 'on ' + (e.target instanceof Element ? e.target.outerHTML.slice(0, 80) : String(e.target));
						e.preventDefault();
						e.stopImmediatePropagation();
					};
					g.off = () => { for (const k of kinds) window.removeEventListener(k, check, true); };
					for (const k of kinds) window.addEventListener(k, check, true);
					window.__hostTap = g;
					return resolve({ X: x, Y: y, Why: '' });
				}
				why = top ? 'under ' + top.outerHTML.slice(0, 80) : 'outside the window';
			}
		}
		if (performance.now() - t0 >= limit) return resolve({ X: 0, Y: 0, Why: why });
		setTimeout(look, every);
	};
	look();
}))(%s, %d, %d)`

// tapDoneJS disarms the tap's guard and says where the tap landed: "hit"
// (its press on the element, no part of it elsewhere), the miss, "gone"
// (a new page), or "nowhere" (the page heard none of it).
const tapDoneJS = `(() => {
	const g = window.__hostTap;
	if (!g) return 'gone';
	window.__hostTap = null;
	g.off();
	if (g.miss) return g.miss;
	return g.hit ? 'hit' : 'nowhere';
})()`

// MouseTap is a press and a release of the left mouse button at x, y
// (viewport pixels), the press's click count being count.
func MouseTap(x, y float64, count int64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
			buttons := int64(1)
			if typ == input.DispatchMouseEventTypeMouseReleased {
				buttons = 0
			}
			if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
				Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: buttons, ClickCount: count,
			}); err != nil {
				return err
			}
		}
		return nil
	})
}

// Tap clicks a data-t element.
func (tb *Tab) Tap(testid string) { tb.t.Helper(); tb.Click(`[data-t="` + testid + `"]`) }

// Text returns the page's visible text (for failure messages).
func (tb *Tab) Text() string {
	ctx, cancel := context.WithTimeout(tb.Ctx, 3*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	if err != nil {
		return "(no text: " + err.Error() + ")"
	}
	return s
}

// Shot saves a screenshot of the whole page as name.png and returns its
// path, where screenshots are kept (browsertest.KeepShots; "" otherwise).
func (tb *Tab) Shot(name string) string {
	tb.t.Helper()
	if !browsertest.KeepShots() {
		return "" // kept nowhere: not taken
	}
	ctx, cancel := context.WithTimeout(tb.Ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Fatalf("%s: screenshot: %v", tb.name, err)
	}
	dir := os.Getenv("MAFIA_SCREENSHOTS")
	if dir == "" {
		dir = tb.t.ArtifactDir()
	}
	_ = os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
	return path
}

// Offline cuts the tab's network (and says so to the page) or restores it.
func (tb *Tab) Offline(off bool) {
	tb.t.Helper()
	tb.Do(5*time.Second, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}},
		}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{
			Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	}))
}

// Lines is a helper for failure messages.
func Lines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// Navigate loads a page.
func Navigate(url string) chromedp.Action[chromedp.Void] { return chromedp.Navigate(url) }

// HttptestServer serves ts on loopback and returns its URL.
func HttptestServer(t *testing.T, ts *Server) string {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(ts.Serve))
	t.Cleanup(hs.Close)
	return hs.URL
}
