package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"mafia/internal/httpguard"
)

// browserPost is a POST as a browser sends it: with the cookie it was
// given, an Origin, and a Content-Type ("" for none).
func browserPost(ctx context.Context, t *testing.T, base, path, cookie, origin, ctype, body string) (int, string, *http.Response) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e apiError
	_ = json.NewDecoder(resp.Body).Decode(&e)
	return resp.StatusCode, e.Error.Code, resp
}

// TestCookies_SecureBehindAnHTTPSProxyAndOnlyForOurOrigin: behind a proxy
// at https://mafia.example.ge (--public-url), the cookies are Secure though
// the server itself speaks plain HTTP; a cookie-carrying state change from
// a foreign page (its Origin, or Sec-Fetch-Site) or of a type a foreign
// page may send without asking (text/plain, a form, none) is refused with
// its code; the public URL's origin is trusted, for the API and the
// WebSocket.
func TestCookies_SecureBehindAnHTTPSProxyAndOnlyForOurOrigin(t *testing.T) {
	const public = "https://mafia.example.ge"
	g, err := httpguard.New(httpguard.Config{PublicURL: public})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServerWith(t, "", both(localized, func(c *Config) { c.Guard = g }))
	ctx := within(t, 30*time.Second)
	base := ts.api.Base

	status, _, resp := browserPost(ctx, t, base, "/api/tables", "", public, "application/json", `{"name":"proxied","players":5}`)
	if status != http.StatusCreated {
		t.Fatalf("create: %d", status)
	}
	var host *http.Cookie
	for _, c := range resp.Cookies() {
		if strings.HasPrefix(c.Name, "mafia_") {
			host = c
		}
	}
	if host == nil || !host.Secure || !host.HttpOnly || host.SameSite != http.SameSiteStrictMode {
		t.Fatalf("the host's cookie behind an https proxy: %+v", host)
	}
	table := strings.TrimPrefix(host.Name, "mafia_")
	cookie := host.Name + "=" + host.Value
	join := "/api/tables/" + table + "/join"
	body := `{"name":"Nino"}`
	for _, c := range []struct {
		name, origin, ctype string
		header              map[string]string
		status              int
		code                string
	}{
		{"a foreign page", "https://evil.example", "application/json", nil, http.StatusForbidden, "cross_origin"},
		{"the public URL over http", "http://mafia.example.ge", "application/json", nil, http.StatusForbidden, "cross_origin"},
		{"a sibling site without an Origin", "", "application/json", map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden, "cross_origin"},
		{"text/plain", public, "text/plain", nil, http.StatusUnsupportedMediaType, "json_required"},
		{"a form", public, "application/x-www-form-urlencoded", nil, http.StatusUnsupportedMediaType, "json_required"},
		{"no type", public, "", nil, http.StatusUnsupportedMediaType, "json_required"},
	} {
		req, _ := http.NewRequestWithContext(ctx, "POST", base+join+"?lang=ka", strings.NewReader(body))
		req.Header.Set("Cookie", cookie)
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		if c.ctype != "" {
			req.Header.Set("Content-Type", c.ctype)
		}
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e apiError
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != c.status || e.Error.Code != c.code {
			t.Errorf("%s: %d %q, want %d %q", c.name, resp.StatusCode, e.Error.Code, c.status, c.code)
		}
		checkSentence(t, c.name, "ka", e.Error.Code, e.Error.Message)
	}
	if l, _ := ts.api.Table(ctx, table); l.Seats[0].Taken {
		t.Fatal("a refused join took a seat")
	}
	// Leave too is a state change.
	if status, code, _ := browserPost(ctx, t, base, "/api/tables/"+table+"/leave", cookie, "https://evil.example", "application/json", ""); status != http.StatusForbidden || code != "cross_origin" {
		t.Errorf("a foreign page's leave: %d %q", status, code)
	}
	// Our own page, through the proxy: the join takes the host's seat.
	status, code, resp := browserPost(ctx, t, base, join, cookie, public, "application/json", body)
	if status != http.StatusOK {
		t.Fatalf("our page's join: %d %q", status, code)
	}
	for _, c := range resp.Cookies() {
		if !c.Secure {
			t.Errorf("the seat's cookie is not Secure: %+v", c)
		}
	}
	// A bot (a bearer token, no Origin, any type) is not a page.
	status, code, _ = browserPost(ctx, t, base, "/api/tables", "", "", "text/plain", `{"name":"bot table","players":5}`)
	if status != http.StatusCreated {
		t.Errorf("a bot's create: %d %q", status, code)
	}
	// The WebSocket: the public URL's origin is ours, another is not.
	c, _, err := dialWS(ctx, base, table, "", 0, dialOpts{header: http.Header{"Origin": {public}}})
	if err != nil {
		t.Fatalf("a WebSocket from the public URL's page: %v", err)
	}
	c.close()
	_, resp, err = dialWS(ctx, base, table, "", 0, dialOpts{header: http.Header{"Origin": {"https://evil.example"}}})
	refusedWith(t, "a WebSocket from a foreign page", resp, err, http.StatusForbidden, "cross_origin", "en")
}

// TestTrustedProxy_LimitsCountTheRealClient: behind a trusted proxy (here
// 127.0.0.1) the per-address limits count the address in X-Forwarded-For;
// from any other peer that header is ignored.
func TestTrustedProxy_LimitsCountTheRealClient(t *testing.T) {
	g, err := httpguard.New(httpguard.Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServerWith(t, "", both(localized, func(c *Config) { c.Guard = g; c.Limits.ConnsPerAddr = 1 }))
	ctx := within(t, 30*time.Second)
	tb := lobbyTable(ctx, t, ts)
	via := func(client string) dialOpts {
		return dialOpts{header: http.Header{"X-Forwarded-For": {client}}}
	}
	a := open(ctx, t, ts.api.Base, tb.id, "", via("198.51.100.1"))
	defer a.close()
	_, resp, err := dialWS(ctx, ts.api.Base, tb.id, "", 0, via("198.51.100.1"))
	refusedWith(t, "the same client again through the proxy", resp, err, http.StatusTooManyRequests, "too_many_connections", "en")
	b := open(ctx, t, ts.api.Base, tb.id, "", via("198.51.100.2"))
	defer b.close()
	// Not through the proxy: the header is the client's own word.
	stranger := dialOpts{http: fromAddr("127.0.13.1"), header: http.Header{"X-Forwarded-For": {"198.51.100.3"}}}
	c := open(ctx, t, ts.api.Base, tb.id, "", stranger)
	defer c.close()
	stranger.header = http.Header{"X-Forwarded-For": {"198.51.100.4"}}
	_, resp, err = dialWS(ctx, ts.api.Base, tb.id, "", 0, stranger)
	refusedWith(t, "a stranger changing its X-Forwarded-For", resp, err, http.StatusTooManyRequests, "too_many_connections", "en")
}
