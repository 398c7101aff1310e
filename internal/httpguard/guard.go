package httpguard

import (
	"fmt"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"strings"

	"mafia/engine"
)

// Refusal codes (catalog id "error.<code>").
const (
	// CodeCrossOrigin refuses a browser request made by a page of another
	// origin than the server's (403).
	CodeCrossOrigin engine.Code = "cross_origin"
	// CodeJSONRequired refuses a cookie-carrying request whose body is not
	// declared application/json (415): a foreign page can send text/plain,
	// a form or no type at all without the browser asking the server first.
	CodeJSONRequired engine.Code = "json_required"
)

// Config is what a Guard is made from.
type Config struct {
	// PublicURL is where players reach the server (e.g.
	// https://mafia.example.ge) when a reverse proxy stands in front of
	// it: cookies are Secure exactly when its scheme is https, and its
	// origin is trusted. Empty: each request's own scheme decides (TLS on
	// this listener, or a trusted proxy's X-Forwarded-Proto).
	PublicURL string
	// TrustedProxies are the peers whose X-Forwarded-For and
	// X-Forwarded-Proto are believed. From any other peer they are ignored.
	TrustedProxies []netip.Prefix
	// Origins are further trusted origins, as host patterns ("*.example.ge",
	// matched with path.Match; a pattern with "://" is matched against
	// scheme://host).
	Origins []string
}

// Guard makes the checks of one server's configuration. Its methods are
// safe from any goroutine.
type Guard struct {
	secure   int    // +1: the public URL is https; -1: it is http; 0: no public URL
	origin   string // the public URL's origin, scheme://host[:port], lower case
	proxies  []netip.Prefix
	patterns []string
}

// New checks a configuration and makes its Guard.
func New(cfg Config) (*Guard, error) {
	g := &Guard{proxies: cfg.TrustedProxies}
	if cfg.PublicURL != "" {
		u, err := url.Parse(cfg.PublicURL)
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, fmt.Errorf("public URL %q: want http:// or https:// and a host", cfg.PublicURL)
		}
		g.origin = strings.ToLower(u.Scheme + "://" + u.Host)
		g.secure = -1
		if u.Scheme == "https" {
			g.secure = 1
		}
	}
	for _, p := range cfg.Origins {
		p = strings.ToLower(strings.TrimSpace(p))
		if p == "" {
			continue
		}
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("origin pattern %q: %w", p, err)
		}
		g.patterns = append(g.patterns, p)
	}
	return g, nil
}

// ParsePrefixes reads a comma-separated list of CIDR prefixes; a bare
// address stands for itself alone (/32 or /128).
func ParsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR prefix", s)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// PeerAddr is the address of the TCP peer of a request's RemoteAddr
// ("host:port"); the zero Addr when it cannot be read.
func PeerAddr(remoteAddr string) netip.Addr {
	if ap, err := netip.ParseAddrPort(remoteAddr); err == nil {
		return ap.Addr().Unmap()
	}
	if a, err := netip.ParseAddr(remoteAddr); err == nil {
		return a.Unmap()
	}
	return netip.Addr{}
}

// Key is the unit per-address limits count by: an IPv4 address alone, or
// the /64 an IPv6 address is in (one subscriber usually holds a whole /64).
func Key(a netip.Addr) netip.Prefix {
	a = a.Unmap()
	if !a.IsValid() {
		return netip.Prefix{}
	}
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.Prefix(64)
	return p
}

// In reports whether a is in one of the prefixes.
func In(a netip.Addr, prefixes []netip.Prefix) bool {
	a = a.Unmap()
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Trusted reports whether a TCP peer is one of the trusted proxies.
func (g *Guard) Trusted(peer netip.Addr) bool { return In(peer, g.proxies) }

// ClientAddr is the address of the client a request comes from: the TCP
// peer, or, when the peer is a trusted proxy, the address that proxy (and
// any trusted proxy before it) put in X-Forwarded-For: the rightmost
// address of the header that is not a trusted proxy's.
func (g *Guard) ClientAddr(r *http.Request) netip.Addr {
	peer := PeerAddr(r.RemoteAddr)
	if !g.Trusted(peer) {
		return peer
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(h, ",")...)
	}
	addr := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHop(hops[i])
		if !ok {
			break // what is left of the header cannot be believed
		}
		addr = a
		if !g.Trusted(a) {
			break
		}
	}
	return addr
}

// parseHop reads one X-Forwarded-For entry: an address, perhaps with a
// port or in brackets.
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

// Secure reports whether cookies set in answer to r are to be marked
// Secure: the public URL is https; or, without a public URL, r came over
// TLS to this listener or through a trusted proxy that says
// X-Forwarded-Proto: https.
func (g *Guard) Secure(r *http.Request) bool {
	switch g.secure {
	case 1:
		return true
	case -1:
		return false
	}
	if r.TLS != nil {
		return true
	}
	if g.Trusted(PeerAddr(r.RemoteAddr)) {
		proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
		return strings.EqualFold(strings.TrimSpace(proto), "https")
	}
	return false
}

var (
	errCrossOrigin  = &engine.Error{Code: CodeCrossOrigin}
	errJSONRequired = &engine.Error{Code: CodeJSONRequired}
)

// CheckOrigin refuses (CodeCrossOrigin) a request that a browser sent for a
// page of a foreign origin. A browser says so itself (Sec-Fetch-Site:
// same-origin) or by its Origin header, which must then be the request's own
// host, the public URL's origin, or match a configured pattern. A request
// with neither header is not from a browser page and passes: a bot holds
// its token itself and cannot be tricked into sending it.
func (g *Guard) CheckOrigin(r *http.Request) error {
	site := r.Header.Get("Sec-Fetch-Site")
	if site == "same-origin" || site == "none" {
		return nil
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		if site != "" {
			return errCrossOrigin // a browser's cross-site request without an Origin
		}
		return nil
	}
	if g.trustedOrigin(origin, r.Host) {
		return nil
	}
	return errCrossOrigin
}

func (g *Guard) trustedOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false // "null" (a sandboxed frame, a file), or nonsense
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	full := strings.ToLower(u.Scheme + "://" + u.Host)
	if g.origin != "" && full == g.origin {
		return true
	}
	for _, p := range g.patterns {
		target := strings.ToLower(u.Host)
		if strings.Contains(p, "://") {
			target = full
		}
		if ok, _ := path.Match(p, target); ok {
			return true
		}
	}
	return false
}

// CheckStateChange is CheckOrigin, and for a request that carries cookies
// and no bearer token (a browser's, authenticated by its cookie) also
// refuses (CodeJSONRequired) a Content-Type other than application/json:
// a foreign page can send text/plain, a form or no type at all without the
// browser asking the server first, application/json it cannot. Call it on
// every request that changes state.
func (g *Guard) CheckStateChange(r *http.Request) error {
	if err := g.CheckOrigin(r); err != nil {
		return err
	}
	if len(r.Header.Values("Cookie")) == 0 || strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		return nil
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return errJSONRequired
	}
	return nil
}

// Status is the HTTP status of this package's refusal codes (0 for any
// Kinds are the kinds of the guard's codes: a foreign page is forbidden,
// a body that is not JSON unsupported.
var Kinds = map[engine.Code]engine.Kind{CodeCrossOrigin: engine.KindForbidden, CodeJSONRequired: engine.KindUnsupported}
