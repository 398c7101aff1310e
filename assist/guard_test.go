package assist_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"mafia/assist"
	"mafia/internal/httpguard"
	"mafia/store/sqlite"
)

// guardedServer is the assistant on a real SQLite file behind a real
// loopback server, with the guard a `mafia serve --public-url` would give it.
func guardedServer(t *testing.T, publicURL string) string {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	g, err := httpguard.New(httpguard.Config{PublicURL: publicURL})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(assist.New(assist.Config{Store: db, Guard: g}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// post sends a body with the given headers and returns the status, the
// answer's error code (if any) and its cookies.
func post(t *testing.T, url string, body any, hdr map[string]string) (int, string, []*http.Cookie) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(b))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(raw, &e)
	return res.StatusCode, e.Error.Code, res.Cookies()
}

// TestTheHostsStateChangesComeOnlyFromTheServersOwnPages: a page of another
// site cannot create a game or sync a host's entries with the host's
// cookie (403 cross_origin), nor send a cookie-carrying body as text/plain,
// which a foreign page may send without asking (415 json_required); the
// host's own page, and a program with its bearer token, can.
func TestTheHostsStateChangesComeOnlyFromTheServersOwnPages(t *testing.T) {
	base := guardedServer(t, "")
	game := map[string]any{"names": []string{"A", "B", "C", "D", "E", "F", "G"}, "deal": "pass"}
	code, ecode, cookies := post(t, base+"/host/api/games", game, map[string]string{"Content-Type": "application/json"})
	if code != http.StatusCreated || len(cookies) == 0 {
		t.Fatalf("create from a program: %d %s, %d cookies", code, ecode, len(cookies))
	}
	cookie := cookies[0].Name + "=" + cookies[0].Value
	id := strings.TrimPrefix(cookies[0].Name, "assist_")
	sync := base + "/host/api/games/" + id + "/sync"
	empty := map[string]any{"commands": []any{}}
	for _, tc := range []struct {
		name     string
		url      string
		body     any
		hdr      map[string]string
		wantCode int
		wantErr  string
	}{
		{"a foreign page creates a game", base + "/host/api/games", game,
			map[string]string{"Origin": "https://evil.example", "Content-Type": "application/json"}, 403, "cross_origin"},
		{"a foreign page syncs with the host's cookie", sync, empty,
			map[string]string{"Origin": "https://evil.example", "Cookie": cookie, "Content-Type": "application/json"}, 403, "cross_origin"},
		{"a cross-site fetch without an Origin", sync, empty,
			map[string]string{"Sec-Fetch-Site": "cross-site", "Cookie": cookie, "Content-Type": "application/json"}, 403, "cross_origin"},
		{"a cookie-carrying body as text/plain", sync, empty,
			map[string]string{"Cookie": cookie, "Content-Type": "text/plain"}, 415, "json_required"},
		{"a cookie-carrying body with no type", sync, empty,
			map[string]string{"Cookie": cookie}, 415, "json_required"},
		{"the host's own page", sync, empty,
			map[string]string{"Origin": base, "Sec-Fetch-Site": "same-origin", "Cookie": cookie, "Content-Type": "application/json"}, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, ecode, _ := post(t, tc.url, tc.body, tc.hdr)
			if code != tc.wantCode || ecode != tc.wantErr {
				t.Fatalf("got %d %q, want %d %q", code, ecode, tc.wantCode, tc.wantErr)
			}
		})
	}
}

// TestTheHostsCookieIsSecureBehindAnHTTPSProxy: with a public URL of https
// (a TLS proxy in front of a plain listener), the host's cookie is Secure;
// without one, on plain http, it is not.
func TestTheHostsCookieIsSecureBehindAnHTTPSProxy(t *testing.T) {
	game := map[string]any{"names": []string{"A", "B", "C", "D", "E", "F", "G"}, "deal": "pass"}
	for _, tc := range []struct {
		public string
		secure bool
	}{{"https://mafia.example.ge", true}, {"", false}} {
		base := guardedServer(t, tc.public)
		code, ecode, cookies := post(t, base+"/host/api/games", game, map[string]string{"Content-Type": "application/json"})
		if code != http.StatusCreated || len(cookies) != 1 {
			t.Fatalf("public URL %q: create %d %s, %d cookies", tc.public, code, ecode, len(cookies))
		}
		if cookies[0].Secure != tc.secure {
			t.Errorf("public URL %q: the host's cookie Secure=%v, want %v", tc.public, cookies[0].Secure, tc.secure)
		}
	}
}
