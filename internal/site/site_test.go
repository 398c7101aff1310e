package site_test

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mafia/assist"
	"mafia/internal/site"
	"mafia/locale"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
	"mafia/web"
)

// start serves the public face as mafia serve does: the server's timeouts
// and listener, over a real SQLite file, on loopback.
func start(t *testing.T) string {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: db})
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer(site.Handler(srv, assist.New(assist.Config{Store: db})))
	go func() { _ = hs.Serve(srv.Listener(ln)) }()
	t.Cleanup(func() {
		_ = hs.Close()
		srv.Close()
		_ = db.Close()
	})
	return "http://" + ln.Addr().String()
}

// fetch answers a request without following redirects or unpacking gzip.
func fetch(t *testing.T, method, url, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// TestEachPartAnswersItsOwnPaths: every path is answered by the part that
// owns it, with that part's own headers: the browser client's page (its
// policy), files and catalogs; the server's API and health; the
// assistant's page (its own policy, allowing its worker), files and its
// refusal of a secret in a URL; 404 for a path nobody owns.
func TestEachPartAnswersItsOwnPaths(t *testing.T) {
	base := start(t)
	res, body := fetch(t, "POST", base+"/api/tables", `{"name":"site","players":5}`)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %s %s", res.Status, body)
	}
	var created struct{ Invite string }
	if err := json.Unmarshal([]byte(body), &created); err != nil || !strings.HasPrefix(created.Invite, "/t/") {
		t.Fatalf("create: %v %s", err, body)
	}
	for _, c := range []struct {
		name, path string
		status     int
		header     string // a header the part sets
		has        string // in its value
	}{
		{"the lobby page", "/", 200, "Content-Security-Policy", "script-src 'self';"},
		{"the lobby page's frame policy", "/", 200, "X-Frame-Options", "DENY"},
		{"an invite is the browser's page of the table", created.Invite, 200, "Content-Type", "text/html"},
		{"the page's files", "/static/" + web.Version() + "/js/main.js", 200, "Cache-Control", "immutable"},
		{"the page's icon", "/favicon.ico", 301, "Location", "/static/" + web.Version() + "/icon.svg"},
		{"the page's catalogs", "/api/i18n/ka", 200, "Content-Type", "application/json"},
		{"the server's lobby", "/api/tables", 200, "Content-Type", "application/json"},
		{"the server's health", "/healthz", 200, "", ""},
		{"the assistant's page", "/host/", 200, "Content-Security-Policy", "worker-src 'self'"},
		{"the assistant's bare path", "/host", 301, "Location", "/host/"},
		{"the assistant's worker", "/host/sw.js", 200, "Content-Type", "text/javascript"},
		{"the assistant's engine", "/host/static/" + assist.Version() + "/engine.wasm", 200, "Content-Type", "application/wasm"},
		{"the assistant refuses a secret in a URL", "/host/api/games?token=x", 400, "Content-Type", "application/json"},
		{"a path nobody owns", "/nothing-here", 404, "", ""},
		{"the web's files are not the assistant's", "/static/" + web.Version() + "/engine.wasm", 404, "", ""},
	} {
		res, body := fetch(t, "GET", base+c.path, "")
		if res.StatusCode != c.status {
			t.Errorf("%s: GET %s: %s (%.80q), want %d", c.name, c.path, res.Status, body, c.status)
			continue
		}
		if c.header != "" && !strings.Contains(res.Header.Get(c.header), c.has) {
			t.Errorf("%s: GET %s: %s %q, want it to hold %q", c.name, c.path, c.header, res.Header.Get(c.header), c.has)
		}
	}
}

// TestThePageStartsFromTheRoomsDefaultClocks: the create form of the page
// mafia serve mounts starts from the clocks a table gets when it names
// none (room.DefaultTimings, docs/rules.md's), each with its name in every
// catalog.
func TestThePageStartsFromTheRoomsDefaultClocks(t *testing.T) {
	base := start(t)
	_, page := fetch(t, "GET", base+"/", "")
	m := regexp.MustCompile(`(?s)<script type="application/json" id="boot">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no boot data in the page")
	}
	var boot struct {
		Timings map[string]int64 `json:"timings_ms"`
	}
	if err := json.Unmarshal([]byte(m[1]), &boot); err != nil {
		t.Fatal(err)
	}
	want := room.DefaultTimings().Millis()
	if !maps.Equal(boot.Timings, want) {
		t.Errorf("the page's clocks are %v, the room's %v", boot.Timings, want)
	}
	if want["speech"] != 60000 || want["night"] != 45000 {
		t.Errorf("the room's clocks %v, not docs/rules.md's", want)
	}
	for _, l := range locale.Langs() {
		for k := range want {
			if locale.Messages(l)["web.timing."+k] == nil {
				t.Errorf("%s lacks web.timing.%s", l, k)
			}
		}
	}
}
