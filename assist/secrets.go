package assist

import (
	"net/http"
	"net/url"
	"strings"

	"mafia/engine"
)

// Tokens never travel in a URL: a request line is written down by every
// proxy, access log and browser history on the way, and a card token there
// is that player's card. The page sends a token in an Authorization header
// or in a POST body, a link a phone opens carries it in its fragment (which
// no request line holds), and the QR code of a card link is drawn by the
// page itself. A request that carries a token in its path or query anyway
// is refused before any handler reads it.

// CodeTokenInURL refuses a request with a secret in its URL.
const CodeTokenInURL engine.Code = "token_in_url"

// tokenParams are query parameters that name a secret, whatever their value.
var tokenParams = map[string]bool{
	"t": true, "token": true, "host_token": true, "access_token": true, "bearer": true, "auth": true, "key": true,
}

// minTokenLen is the shortest token the assistant makes or takes (a phone's
// host token: 32 hex digits). A game's id (GameIDLen) is shorter.
const minTokenLen = 32

// looksLikeToken reports whether s has the shape of a token: at least
// minTokenLen hex digits and nothing else.
func looksLikeToken(s string) bool {
	if len(s) < minTokenLen {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// tokenInURL reports whether a request's URL carries a secret: a query
// parameter named like one, or a path segment or query value shaped like one.
func tokenInURL(r *http.Request) bool {
	for _, seg := range strings.Split(r.URL.Path, "/") {
		if looksLikeToken(seg) {
			return true
		}
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return true // a query that cannot be read cannot be shown to be clean
	}
	for k, vs := range q {
		if tokenParams[strings.ToLower(k)] {
			return true
		}
		for _, v := range vs {
			if looksLikeToken(v) {
				return true
			}
		}
	}
	return false
}

// refuseTokenInURL answers a request whose URL carries a secret: 400
// token_in_url, not stored by any cache, and nothing of the URL is logged
// or echoed.
func (h *Handler) refuseTokenInURL(w http.ResponseWriter, r *http.Request) {
	h.fail(w, r, &engine.Error{Code: CodeTokenInURL}, nil)
}
