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
	if l, ok := locale.Parse(r.URL.Query().Get("lang")); ok {
		return l
	}
	if c, err := r.Cookie("lang"); err == nil {
		if l, ok := locale.Parse(c.Value); ok {
			return l
		}
	}
	if l, ok := locale.FromAcceptLanguage(r.Header.Get("Accept-Language")); ok {
		return l
	}
	return locale.En
}
