package negotiate_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"mafia/locale"
	"mafia/locale/negotiate"
)

func TestLang_LinkThenCookieThenHeaderThenEnglish(t *testing.T) {
	for _, tc := range []struct {
		name, query, cookie, header string
		want                        locale.Lang
	}{
		{"nothing said: English", "", "", "", locale.En},
		{"the header's language", "", "", "ka-GE,ka;q=0.9", locale.Ka},
		{"the cookie over the header", "", "ru", "ka", locale.Ru},
		{"the link over the cookie", "lang=ka", "ru", "en", locale.Ka},
		{"a link in a language not held falls to the cookie", "lang=de", "ru", "ka", locale.Ru},
		{"a cookie not held falls to the header", "", "xx", "ru-RU", locale.Ru},
		{"the highest q-value wins, not the first", "", "", "ru;q=0.5, ka;q=0.9, en;q=0.1", locale.Ka},
		{"equal q-values: the first", "", "", "ru, ka", locale.Ru},
		{"languages not held are passed over", "", "", "de-DE, fr;q=0.9, ru;q=0.8", locale.Ru},
		{"q=0 refuses a language", "", "", "ka;q=0, ru;q=0.2", locale.Ru},
		{"only refusals and others: English", "", "", "ka;q=0, de", locale.En},
		{"a bad q-value is no preference", "", "", "ka;q=2, ru;q=0.3", locale.Ru},
		{"a wildcard names no language", "", "", "*", locale.En},
		{"a language code that only begins like one held is not it (kab is Kabyle)", "", "", "kab, ru;q=0.5", locale.Ru},
		{"case and white space do not matter", "", "", "  KA-ge ; q=0.8 ", locale.Ka},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/?"+tc.query, nil)
			if tc.cookie != "" {
				r.AddCookie(&http.Cookie{Name: "lang", Value: tc.cookie})
			}
			if tc.header != "" {
				r.Header.Set("Accept-Language", tc.header)
			}
			if got := negotiate.Lang(r); got != tc.want {
				t.Errorf("Lang = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNamed_FalseWhenTheRequestNamesNoLanguageHeld(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/?lang=de", nil)
	r.Header.Set("Accept-Language", "de, fr;q=0.5")
	if l, ok := negotiate.Named(r); ok {
		t.Errorf("a request in German and French names %q", l)
	}
	r.Header.Set("Accept-Language", "de, ru;q=0.5")
	if l, ok := negotiate.Named(r); !ok || l != locale.Ru {
		t.Errorf("a request that accepts Russian names %q, %v", l, ok)
	}
}
