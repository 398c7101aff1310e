package server

import (
	"unicode"

	"mafia/locale"
)

// script reports whether every letter of s is of the script of lang
// (Georgian, Cyrillic, else Latin), and s has a letter.
func script(lang locale.Lang, s string) bool {
	letters := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		var ok bool
		switch lang {
		case locale.Ka:
			ok = unicode.Is(unicode.Georgian, r)
		case locale.Ru:
			ok = unicode.Is(unicode.Cyrillic, r)
		default:
			ok = r < unicode.MaxASCII
		}
		if !ok {
			return false
		}
	}
	return letters > 0
}
