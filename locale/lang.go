package locale

import "strings"

// Lang is a language the catalogs hold, as its ISO 639-1 code.
type Lang string

// The languages.
const (
	En Lang = "en" // English, the default
	Ka Lang = "ka" // Georgian, the club's own language
	Ru Lang = "ru" // Russian
)

// Langs returns every language the catalogs hold, English first.
func Langs() []Lang { return []Lang{En, Ka, Ru} }

// Parse reads a language from a code or a POSIX or BCP 47 locale name:
// "ka", "ka_GE.UTF-8", "ru-RU", "en_US@euro". It reports false for a
// language the catalogs do not hold (and for "C" and "POSIX").
func Parse(s string) (Lang, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexAny(s, "_-"); i >= 0 {
		s = s[:i]
	}
	switch l := Lang(strings.ToLower(s)); l {
	case En, Ka, Ru:
		return l, true
	}
	return "", false
}

// FromEnv picks the language from the environment as getenv reports it:
// the first of LC_ALL, LC_MESSAGES, LANG and the colon-separated list in
// LANGUAGE that names a language the catalogs hold. A locale of "C" or
// "POSIX" met on the way, or nothing usable, gives English.
func FromEnv(getenv func(string) string) Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"} {
		for _, v := range strings.Split(getenv(name), ":") {
			if v == "C" || v == "POSIX" || strings.HasPrefix(v, "C.") {
				return En
			}
			if l, ok := Parse(v); ok {
				return l
			}
		}
	}
	return En
}
