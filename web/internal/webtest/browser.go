package webtest

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafia/assist"
	"mafia/engine"
	"mafia/internal/browsertest"
	"mafia/internal/site"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
)

// Browser is the package's one Chromium, started by the first test that
// needs it; each test opens tabs in browser contexts of their own
// (separate cookies, as separate players' phones).
var Browser = browsertest.New("mafia/web")

// NeedBrowser skips the test without Chromium, or fails it in CI.
func NeedBrowser(t *testing.T) string { return Browser.Need(t) }

func theBrowser(t *testing.T) context.Context { return Browser.Context(t) }

// Slack multiplies the bound of every wait for a page (browsertest.Slack).
const Slack = browsertest.Slack

// Tab is one player's page: a tab in a browser context of its own.
type Tab struct {
	T    *testing.T
	Ctx  context.Context
	Name string
	mu   sync.Mutex
	errs []string // uncaught exceptions and console errors
	ok   []string // console errors expected (as substrings)
}

// Expect lets the page log errors that contain s (a 404 the test asks for).
func (tb *Tab) Expect(s string) {
	tb.mu.Lock()
	tb.ok = append(tb.ok, s)
	tb.mu.Unlock()
}

// NewTab opens a tab of width x height CSS pixels (a phone at 360).
func NewTab(t *testing.T, name string, width, height int64) *Tab {
	t.Helper()
	return NewTabIn(t, theBrowser(t), name, width, height)
}

// NewTabIn opens a tab of width x height in a browser context of its own
// in the browser of root (a package's own Chromium, started with flags of
// its own: the voice tests' fake microphones).
func NewTabIn(t *testing.T, root context.Context, name string, width, height int64) *Tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	tb := &Tab{T: t, Ctx: ctx, Name: name}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatalf("%s: viewport: %v", name, err)
	}
	if err := browsertest.Quiet(ctx); err != nil {
		t.Fatalf("%s: quiet: %v", name, err)
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
	next:
		for _, e := range tb.errs {
			// A closed WebSocket (the server going away at the test's end,
			// a reload) is logged by Chromium; nothing else may be.
			for _, ok := range append(tb.ok, "WebSocket") {
				if strings.Contains(e, ok) {
					continue next
				}
			}
			t.Errorf("%s: the page logged an error: %s", name, e)
		}
	})
	return tb
}

// Do runs actions with a timeout, one by one. A live table draws its parts
// again with each frame: a node an action found may be gone by the time it
// acts on it ("Could not find node with given id"), and such an action,
// which did nothing, is tried again on the node drawn in its place.
func (tb *Tab) Do(d time.Duration, steps ...chromedp.Action[chromedp.Void]) {
	tb.T.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, Slack*d)
	defer cancel()
	for _, step := range steps {
		err := chromedp.Do(ctx, step)
		for try := 0; err != nil && strings.Contains(err.Error(), "Could not find node with given id") && try < 5 && ctx.Err() == nil; try++ {
			time.Sleep(50 * time.Millisecond)
			err = chromedp.Do(ctx, step)
		}
		if err != nil {
			tb.T.Fatalf("%s: %v\n%s", tb.Name, err, tb.Text())
		}
	}
}

// Eval evaluates a JavaScript expression (a promise it gives is awaited).
func Eval[T any](tb *Tab, expr string) T {
	tb.T.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, Slack*10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.T.Fatalf("%s: eval %s: %v", tb.Name, expr, err)
	}
	return v
}

// WaitJS waits until a JavaScript expression is true (bounded by the
// context alone: chromedp's own 30-second bound of a poll is off).
func (tb *Tab) WaitJS(d time.Duration, expr string) {
	tb.T.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, Slack*d)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		tb.T.Fatalf("%s: waiting for %s: %v\npage:\n%s", tb.Name, expr, err, tb.Text())
	}
}

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

// Shot checks that nothing sticks out sideways and, where screenshots
// are kept (browsertest.KeepShots), saves one of the whole page as
// name.png and returns its path.
func (tb *Tab) Shot(name string) string {
	tb.T.Helper()
	// Nothing may stick out sideways: the page is made for a phone first.
	if wide := Eval[string](tb, `(() => {
		window.scrollTo(0, 0);
		const w = document.documentElement.clientWidth;
		const over = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 1 && e.offsetParent !== null);
		return document.documentElement.scrollWidth > w ? over.slice(0, 3).map((e) => e.tagName + '.' + e.className + '#' + e.id).join(' ') || 'page' : '';
	})()`); wide != "" {
		tb.T.Errorf("%s: %s: the page is wider than the screen: %s", tb.Name, name, wide)
	}
	if !browsertest.KeepShots() {
		return "" // kept nowhere: not taken
	}
	ctx, cancel := context.WithTimeout(tb.Ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.T.Fatalf("%s: screenshot: %v", tb.Name, err)
	}
	path := filepath.Join(shotDir(tb.T), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.T.Fatal(err)
	}
	return path
}

var (
	shotOnce sync.Once
	shotRoot string
)

// shotDir is where screenshots are kept: $MAFIA_SCREENSHOTS (or
// $MAFIA_ARTIFACTS), or the test's artifact directory (kept with go test
// -artifacts).
func shotDir(t *testing.T) string {
	t.Helper()
	d := os.Getenv("MAFIA_SCREENSHOTS")
	if d == "" {
		d = os.Getenv("MAFIA_ARTIFACTS")
	}
	if d != "" {
		shotOnce.Do(func() { _ = os.MkdirAll(d, 0o755) })
		shotRoot = d
		return d
	}
	return t.ArtifactDir()
}

// TestServer is the real server, on loopback, over a SQLite file.
type TestServer struct {
	URL string
	srv *server.Server
	DB  *sqlite.DB
}

// StartServer starts the real server on loopback over a SQLite file in
// the test's folder, with the page and the assistant mounted as mafia
// serve mounts them; it is closed at the test's end.
func StartServer(t *testing.T) *TestServer {
	t.Helper()
	return StartServerWith(t, nil)
}

// StartServerWith starts the server with its config changed by edit (a
// table of people all joined from the test's one address, say).
func StartServerWith(t *testing.T, edit func(*server.Config)) *TestServer {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	// The bots move at once (instant pace): the pages are tested, not the
	// bots' time (room's tests pin human pace).
	cfg := server.Config{Store: db, Render: Render, Pace: room.PaceInstant}
	if edit != nil {
		edit(&cfg)
	}
	if cfg.LimitClock == nil {
		// The pages send on their own timers (pings, the night's beat, one
		// frame a second of real time) whatever the test does with the
		// games' clock: the limits they meet run on the wall clock, or a
		// test holding a fake clock still would see them refused.
		cfg.LimitClock = room.RealClock{}
	}
	srv := server.New(cfg)
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The page beside the server's API (and the assistant), as mafia serve
	// mounts them.
	hs := httptest.NewServer(site.Handler(srv, assist.New(assist.Config{Store: db})))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		db.Close()
	})
	return &TestServer{URL: hs.URL, srv: srv, DB: db}
}

// Render is the server's refusal sentence, as mafia serve renders it.
func Render(lang string, err error) string {
	l, ok := locale.Parse(lang)
	if !ok {
		l = locale.En
	}
	return locale.New(l).Refusal(err)
}

// Game replays a table's game from the store: the truth the pages are
// checked against.
func (ts *TestServer) Game(t *testing.T, table string) (*engine.Game, []engine.Event) {
	t.Helper()
	evs, err := ts.DB.Events(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) == 0 {
		t.Fatal("no game yet")
	}
	g, err := engine.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	return g, evs
}

// TableOf returns the table id of a page at /t/{id}.
func (tb *Tab) TableOf() string {
	tb.T.Helper()
	loc := Eval[string](tb, `location.pathname`)
	id, ok := strings.CutPrefix(loc, "/t/")
	if !ok {
		tb.T.Fatalf("%s: not at a table: %s", tb.Name, loc)
	}
	return id
}

// ContextWithTimeout returns the tab's context with a timeout.
func ContextWithTimeout(tb *Tab, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(tb.Ctx, d)
}
