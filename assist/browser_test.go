package assist_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"mafia/assist"
	"mafia/clubhttp"
	"mafia/internal/browsertest"
	"mafia/store/sqlite"
)

// The browser tests drive the host's page in a real Chromium through
// chromedp, against the assistant on loopback over a real SQLite file.
// Without Chromium they are skipped, except in CI (CI=true), where a
// missing browser is a failure.

// browser is the package's one Chromium.
var browser = browsertest.New("mafia/assist",
	// A plain-http name that is not loopback (browser_reload_test.go).
	chromedp.Flag("host-resolver-rules", "MAP lan.test 127.0.0.1"))

// theBrowser returns the running Chromium, or skips the test when there is
// none (fails it when CI=true).
func theBrowser(t *testing.T) context.Context { return browser.Context(t) }

// testServer is the assistant on loopback over a SQLite file, behind a
// switch that can cut the host's connection: while down, every request to
// /host/api/ has its connection closed without an answer; dropAnswers
// makes the next sync requests be applied and then lose their answer.
type testServer struct {
	URL         string
	db          *sqlite.DB
	h           *assist.Handler
	clubs       http.Handler // the clubs beside the assistant (withClubs), nil: none
	down        atomic.Bool
	dropAnswers atomic.Int32
	syncs       atomic.Int32 // sync requests that reached the handler

	mu       sync.Mutex
	requests []string // every request line's target that reached the server
}

// requestURIs returns the target of every request that reached the server
// (path and query, as the request line and so every log holds it).
func (ts *testServer) requestURIs() []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]string(nil), ts.requests...)
}

func startServer(t *testing.T) *testServer {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	// Deals are fixed (seeds 1, 2, 3, ... in the order games are made), so
	// a failure replays with the same cards.
	var seeds atomic.Uint64
	ts := &testServer{db: db}
	ts.withClubs(assist.Config{Seed: func() uint64 { return seeds.Add(1) }})
	hs := httptest.NewServer(http.HandlerFunc(ts.serve))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		db.Close()
	})
	ts.URL = hs.URL
	return ts
}

func (ts *testServer) serve(w http.ResponseWriter, r *http.Request) {
	ts.mu.Lock()
	ts.requests = append(ts.requests, r.RequestURI)
	ts.mu.Unlock()
	api := strings.HasPrefix(r.URL.Path, "/host/api/")
	if api && ts.down.Load() {
		hangUp(w)
		return
	}
	if api && strings.HasSuffix(r.URL.Path, "/sync") {
		ts.syncs.Add(1)
		if ts.dropAnswers.Load() > 0 {
			ts.dropAnswers.Add(-1)
			ts.h.ServeHTTP(httptest.NewRecorder(), r) // applied, and the answer is lost
			hangUp(w)
			return
		}
	}
	if ts.clubs != nil && (strings.HasPrefix(r.URL.Path, "/host/api/clubs") || strings.HasPrefix(r.URL.Path, "/host/clubs/")) {
		ts.clubs.ServeHTTP(w, r)
		return
	}
	ts.h.ServeHTTP(w, r)
}

// withClubs makes the assistant of cfg on ts.db with the clubs beside it,
// wired and mounted as `mafia serve` does (package clubhttp, behind the
// assistant's Front), and returns the clubs.
func (ts *testServer) withClubs(cfg assist.Config) *clubhttp.Handler {
	clubs := clubhttp.New(clubhttp.Config{Store: ts.db, Games: assist.ClubGames(ts.db, nil), Accounts: cfg.Accounts,
		Guard: cfg.Guard, Files: assist.Version()})
	cfg.Store, cfg.Clubs = ts.db, clubs
	ts.h = assist.New(cfg)
	ts.clubs = ts.h.Front(clubs)
	return clubs
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("no hijacker")
	}
	c, _, err := hj.Hijack()
	if err == nil {
		c.Close()
	}
}

// slack multiplies the bound of every wait for a page (browsertest.Slack).
const slack = browsertest.Slack

// tab is a phone: a tab of its own in a browser context of its own.
type tab struct {
	t    *testing.T
	ctx  context.Context
	name string
	mu   sync.Mutex
	errs []string
}

func newTab(t *testing.T, name string, width, height int64, opts ...chromedp.ContextOption) *tab {
	t.Helper()
	return newTabIn(t, theBrowser(t), name, width, height, append([]chromedp.ContextOption{chromedp.WithNewBrowserContext()}, opts...)...)
}

// newTabIn opens a tab in browser context root (a tab of the package's
// browser, or the first tab of a browser of the test's own).
func newTabIn(t *testing.T, root context.Context, name string, width, height int64, opts ...chromedp.ContextOption) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(root, opts...)
	t.Cleanup(cancel)
	tb := &tab{t: t, ctx: ctx, name: name}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatalf("%s: viewport: %v", name, err)
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

// do runs actions with a timeout.
func (tb *tab) do(d time.Duration, steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, slack*d)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		tb.t.Fatalf("%s: %v\npage:\n%s", tb.name, err, tb.text())
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, slack*10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.t.Fatalf("%s: eval %s: %v\npage:\n%s", tb.name, expr, err, tb.text())
	}
	return v
}

// waitJS waits until a JavaScript expression is true (bounded by the
// context alone: chromedp's own 30-second bound of a poll is off).
func (tb *tab) waitJS(d time.Duration, expr string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, slack*d)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(30*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		tb.t.Fatalf("%s: waiting for %s: %v\npage:\n%s", tb.name, expr, err, tb.text())
	}
}

// click clicks the element that a CSS selector finds (waiting for it).
func (tb *tab) click(sel string) {
	tb.t.Helper()
	tb.do(10*time.Second, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// tap clicks a data-t element.
func (tb *tab) tap(testid string) { tb.t.Helper(); tb.click(`[data-t="` + testid + `"]`) }

// text returns the page's visible text (for failure messages).
func (tb *tab) text() string {
	ctx, cancel := context.WithTimeout(tb.ctx, 3*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	if err != nil {
		return "(no text: " + err.Error() + ")"
	}
	return s
}

// shot saves a screenshot of the whole page as name.png and returns its
// path, where screenshots are kept (browsertest.KeepShots; "" otherwise).
func (tb *tab) shot(name string) string {
	tb.t.Helper()
	if !browsertest.KeepShots() {
		return "" // kept nowhere: not taken
	}
	ctx, cancel := context.WithTimeout(tb.ctx, 10*time.Second)
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

// offline cuts the tab's network (and says so to the page) or restores it.
func (tb *tab) offline(off bool) {
	tb.t.Helper()
	tb.do(5*time.Second, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
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

// lines is a helper for failure messages.
func lines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// navigate loads a page.
func navigate(url string) chromedp.Action[chromedp.Void] { return chromedp.Navigate(url) }

// httptestServer serves ts on loopback and returns its URL.
func httptestServer(t *testing.T, ts *testServer) string {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(ts.serve))
	t.Cleanup(hs.Close)
	return hs.URL
}
