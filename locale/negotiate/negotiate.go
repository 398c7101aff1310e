// Package negotiate chooses the language of an HTTP request, for every
// part of the program that answers one (the API, the browser page, the
// host's assistant). It owns that choice and nothing else; it is apart
// from package locale so that locale, which the assistant's WebAssembly
// engine carries, does not bring net/http with it.
package negotiate

import (
	"net/http"

	"mafia/locale"
)

// Lang is the one choice of language for an HTTP request, the API's,
// the browser page's and the host's assistant's alike: ?lang= (a link
// that names its language), then the "lang" cookie (the page's language
// switch sets it), then the preferred language of Accept-Language that
// the catalogs hold (by q-value, then order; q=0 refuses a language);
// English when none is held.
func Lang(r *http.Request) locale.Lang {
	if l, ok := Named(r); ok {
		return l
	}
	return locale.En
}

// Named is the language the request names, by Lang's order, and false when
// it names none the catalogs hold (where Lang falls back to English): a
// table records its creator's language this way, and one made by a request
// that names none gets the club's own.
func Named(r *http.Request) (locale.Lang, bool) {
	if l, ok := locale.Parse(r.URL.Query().Get("lang")); ok {
		return l, true
	}
	if c, err := r.Cookie("lang"); err == nil {
		if l, ok := locale.Parse(c.Value); ok {
			return l, true
		}
	}
	return locale.FromAcceptLanguage(r.Header.Get("Accept-Language"))
}
