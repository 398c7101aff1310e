package httpguard

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"mafia/engine"
)

func mustGuard(t *testing.T, cfg Config) *Guard {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func prefixes(t *testing.T, s string) []netip.Prefix {
	t.Helper()
	p, err := ParsePrefixes(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func request(method, remote string, header map[string]string) *http.Request {
	r := httptest.NewRequest(method, "http://mafia.test/api/tables", nil)
	r.RemoteAddr = remote
	for k, v := range header {
		r.Header.Set(k, v)
	}
	return r
}

// TestClientAddr_XForwardedForOnlyFromTrustedProxies: the header is read
// only when the TCP peer is a trusted proxy, from the right, past every
// trusted hop, and never past an entry it cannot read.
func TestClientAddr_XForwardedForOnlyFromTrustedProxies(t *testing.T) {
	g := mustGuard(t, Config{TrustedProxies: prefixes(t, "10.0.0.0/8, 192.168.1.1")})
	for _, c := range []struct {
		name, remote, xff, want string
	}{
		{"no proxy: the peer", "203.0.113.7:5000", "", "203.0.113.7"},
		{"an untrusted peer's header is ignored", "203.0.113.7:5000", "198.51.100.1", "203.0.113.7"},
		{"a trusted proxy's client", "10.1.2.3:80", "198.51.100.1", "198.51.100.1"},
		{"a forged first entry is not believed", "10.1.2.3:80", "6.6.6.6, 198.51.100.1", "198.51.100.1"},
		{"two trusted hops", "10.1.2.3:80", "198.51.100.1, 192.168.1.1", "198.51.100.1"},
		{"all trusted: the leftmost", "10.1.2.3:80", "10.9.9.9", "10.9.9.9"},
		{"garbage stops the walk", "10.1.2.3:80", "198.51.100.1, junk", "10.1.2.3"},
		{"a hop with a port", "10.1.2.3:80", "198.51.100.1:4711", "198.51.100.1"},
		{"an IPv6 hop in brackets", "10.1.2.3:80", "[2001:db8::1]", "2001:db8::1"},
		{"a trusted proxy without the header", "10.1.2.3:80", "", "10.1.2.3"},
		{"an IPv4-mapped peer", "[::ffff:203.0.113.7]:5000", "", "203.0.113.7"},
	} {
		r := request("GET", c.remote, nil)
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		if got := g.ClientAddr(r); got.String() != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// TestKey_IPv6CountsBySlash64: an IPv4 address is its own key; every
// address of one IPv6 /64 shares one.
func TestKey_IPv6CountsBySlash64(t *testing.T) {
	a, b := netip.MustParseAddr("2001:db8:1:2::1"), netip.MustParseAddr("2001:db8:1:2:ffff::9")
	if Key(a) != Key(b) {
		t.Errorf("one /64: %s and %s", Key(a), Key(b))
	}
	if Key(a) == Key(netip.MustParseAddr("2001:db8:1:3::1")) {
		t.Error("two /64s share a key")
	}
	if k := Key(netip.MustParseAddr("203.0.113.7")); k.String() != "203.0.113.7/32" {
		t.Errorf("IPv4 key %s", k)
	}
	if Key(netip.MustParseAddr("::ffff:203.0.113.7")) != Key(netip.MustParseAddr("203.0.113.7")) {
		t.Error("a mapped IPv4 address has another key")
	}
}

// TestSecure_FromThePublicURLOrATrustedProxy: behind a proxy the public
// URL decides; without one, TLS here or a trusted proxy's
// X-Forwarded-Proto; anyone else's header is ignored.
func TestSecure_FromThePublicURLOrATrustedProxy(t *testing.T) {
	proxies := prefixes(t, "10.0.0.0/8")
	https := mustGuard(t, Config{PublicURL: "https://mafia.example.ge", TrustedProxies: proxies})
	plain := mustGuard(t, Config{PublicURL: "http://mafia.example.ge", TrustedProxies: proxies})
	none := mustGuard(t, Config{TrustedProxies: proxies})
	proto := map[string]string{"X-Forwarded-Proto": "https"}
	tlsReq := request("GET", "203.0.113.7:1", nil)
	tlsReq.TLS = &tls.ConnectionState{}
	for _, c := range []struct {
		name string
		g    *Guard
		r    *http.Request
		want bool
	}{
		{"https public URL, plain request", https, request("GET", "10.1.1.1:1", nil), true},
		{"http public URL, proxy says https", plain, request("GET", "10.1.1.1:1", proto), false},
		{"no public URL, plain", none, request("GET", "203.0.113.7:1", nil), false},
		{"no public URL, TLS here", none, tlsReq, true},
		{"no public URL, trusted proxy says https", none, request("GET", "10.1.1.1:1", proto), true},
		{"no public URL, a stranger says https", none, request("GET", "203.0.113.7:1", proto), false},
	} {
		if got := c.g.Secure(c.r); got != c.want {
			t.Errorf("%s: Secure %v, want %v", c.name, got, c.want)
		}
	}
}

func code(err error) engine.Code {
	if e, ok := err.(*engine.Error); ok {
		return e.Code
	}
	if err != nil {
		return "?"
	}
	return ""
}

// TestCheckStateChange_OnlyTheServersOwnPages: a browser request from a
// foreign page is refused by its Origin or Sec-Fetch-Site; a cookie-carrying
// request must declare a JSON body; a bot (no Origin, a bearer token)
// passes.
func TestCheckStateChange_OnlyTheServersOwnPages(t *testing.T) {
	g := mustGuard(t, Config{PublicURL: "https://mafia.example.ge", Origins: []string{"*.club.ge", "https://host.test"}})
	json := "application/json; charset=utf-8"
	for _, c := range []struct {
		name   string
		header map[string]string
		want   engine.Code
	}{
		{"a bot: no Origin, no cookie, any type", map[string]string{"Content-Type": "text/plain"}, ""},
		{"a bot with a bearer token and a cookie", map[string]string{"Authorization": "Bearer x", "Cookie": "a=b", "Content-Type": "text/plain"}, ""},
		{"same host", map[string]string{"Origin": "http://mafia.test", "Content-Type": json, "Cookie": "a=b"}, ""},
		{"the public URL", map[string]string{"Origin": "https://mafia.example.ge", "Content-Type": json, "Cookie": "a=b"}, ""},
		{"the public URL's host over http is another origin", map[string]string{"Origin": "http://mafia.example.ge"}, CodeCrossOrigin},
		{"a pattern", map[string]string{"Origin": "https://tbilisi.club.ge", "Content-Type": json}, ""},
		{"a pattern with a scheme", map[string]string{"Origin": "https://host.test"}, ""},
		{"the pattern's scheme is part of it", map[string]string{"Origin": "http://host.test"}, CodeCrossOrigin},
		{"a foreign page", map[string]string{"Origin": "https://evil.example", "Content-Type": json}, CodeCrossOrigin},
		{"a sandboxed page", map[string]string{"Origin": "null"}, CodeCrossOrigin},
		{"a sibling site says so", map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "https://evil.example.ge"}, CodeCrossOrigin},
		{"cross-site without an Origin", map[string]string{"Sec-Fetch-Site": "cross-site"}, CodeCrossOrigin},
		{"the browser says same-origin", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "https://proxy-rewrote.example", "Content-Type": json, "Cookie": "a=b"}, ""},
		{"cookie and text/plain", map[string]string{"Origin": "http://mafia.test", "Cookie": "a=b", "Content-Type": "text/plain"}, CodeJSONRequired},
		{"cookie and a form", map[string]string{"Sec-Fetch-Site": "same-origin", "Cookie": "a=b", "Content-Type": "application/x-www-form-urlencoded"}, CodeJSONRequired},
		{"cookie and multipart", map[string]string{"Cookie": "a=b", "Content-Type": "multipart/form-data; boundary=x"}, CodeJSONRequired},
		{"cookie and no type", map[string]string{"Cookie": "a=b"}, CodeJSONRequired},
	} {
		r := request("POST", "203.0.113.7:1", c.header)
		if got := code(g.CheckStateChange(r)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestNew_RefusesABadConfiguration: a public URL must be http(s) with a
// host, and a pattern must be one.
func TestNew_RefusesABadConfiguration(t *testing.T) {
	for _, cfg := range []Config{
		{PublicURL: "mafia.example.ge"},
		{PublicURL: "ftp://mafia.example.ge"},
		{PublicURL: "https://"},
		{Origins: []string{"[bad"}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
	if _, err := ParsePrefixes("10.0.0.0/8,nonsense"); err == nil {
		t.Error("a bad prefix was accepted")
	}
	p := prefixes(t, "127.0.0.1, ::1, 10.1.2.3/8")
	if len(p) != 3 || p[0].Bits() != 32 || p[1].Bits() != 128 || p[2].String() != "10.0.0.0/8" {
		t.Errorf("prefixes %v", p)
	}
}
