package club

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold spells a name in lowercase Latin letters for search: Georgian
// (Mkhedruli, by the national romanization) and Russian (Cyrillic, by a
// common passport-like table) are transliterated, Latin letters lose their
// diacritics (é → e, ß → ss), case is dropped, and runs of anything that is
// not a letter or digit become one space. "ნინო", "Нино" and "Nino" all
// fold to "nino".
func Fold(s string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) { // a combining mark: the diacritic of the letter before
			// й is и with a breve and ё is е with a diaeresis: both fold with their base.
			continue
		}
		r = unicode.ToLower(r)
		out, ok := translit[r]
		switch {
		case ok:
		case r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			out = string(r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			out = string(r) // another script: kept as it is
		default:
			if b.Len() > 0 {
				space = true
			}
			continue
		}
		if out == "" {
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(out)
	}
	return b.String()
}

// Match reports whether a name matches a search query: every word of the
// folded query begins a word of the folded name, or the folded query is
// found in it whole. An empty query matches every name.
func Match(query, name string) bool {
	q, n := Fold(query), Fold(name)
	if q == "" {
		return true
	}
	if strings.Contains(n, q) {
		return true
	}
	words := strings.Fields(n)
	for _, w := range strings.Fields(q) {
		found := false
		for _, x := range words {
			if strings.HasPrefix(x, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// translit spells the letters of Georgian and Russian (after NFD, so й is
// и and ё is е) and the Latin letters NFD does not decompose.
var translit = map[rune]string{
	// Georgian (Mkhedruli), the national system of 2002.
	'ა': "a", 'ბ': "b", 'გ': "g", 'დ': "d", 'ე': "e", 'ვ': "v", 'ზ': "z", 'თ': "t", 'ი': "i", 'კ': "k",
	'ლ': "l", 'მ': "m", 'ნ': "n", 'ო': "o", 'პ': "p", 'ჟ': "zh", 'რ': "r", 'ს': "s", 'ტ': "t", 'უ': "u",
	'ფ': "p", 'ქ': "k", 'ღ': "gh", 'ყ': "q", 'შ': "sh", 'ჩ': "ch", 'ც': "ts", 'ძ': "dz", 'წ': "ts",
	'ჭ': "ch", 'ხ': "kh", 'ჯ': "j", 'ჰ': "h",
	// Russian.
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ж': "zh", 'з': "z", 'и': "i", 'к': "k",
	'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u", 'ф': "f",
	'х': "kh", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y", 'ь': "", 'э': "e",
	'ю': "yu", 'я': "ya", 'і': "i", 'є': "ye", 'ї': "yi", 'ґ': "g",
	// Latin letters with no decomposition.
	'ß': "ss", 'ø': "o", 'æ': "ae", 'œ': "oe", 'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", 'ı': "i",
}
