package locale

import (
	"strconv"
	"strings"
)

// FromAcceptLanguage picks from an Accept-Language header the language the
// catalogs hold with the highest q-value (the first of equal ones), and
// reports false when it names none ("*" names none: it says nothing of
// which).
func FromAcceptLanguage(header string) (Lang, bool) {
	best, bestQ := Lang(""), 0.0
	for part := range strings.SplitSeq(header, ",") {
		tag, params, _ := strings.Cut(part, ";")
		l, ok := Parse(tag)
		if !ok {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			if v, found := strings.CutPrefix(strings.TrimSpace(p), "q="); found {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || f < 0 || f > 1 {
					f = 0 // a q-value out of the grammar: not a preference
				}
				q = f
			}
		}
		if q > bestQ {
			best, bestQ = l, q
		}
	}
	return best, bestQ > 0
}
