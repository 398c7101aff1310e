// Package namekey owns how two names are told apart: by the key of
// each, which is the same for names that read alike. It folds a name with
// Unicode NFKC (full-width and other compatibility forms to the plain
// ones), full case folding, and the confusable skeleton of Unicode TR39
// (letters of one script that look like another's: Cyrillic "а" and
// Latin "a", "0" and "O"), so that "Nino", "NINO", "Ｎｉｎｏ" and "Nіno" (a
// Cyrillic і) have one key and "ნინო" and "Нино" keys of their own.
//
// The skeleton's table is Unicode's confusables.txt (13.0), as
// github.com/mtibben/confusables keeps it.
package namekey

import (
	"slices"
	"strings"

	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// fold is full case folding, for every script alike.
var fold = cases.Fold()

// Key is the key of a name (trimmed): NFKC, case-folded, its TR39
// skeleton, case-folded again (a skeleton may be upper case: "0" is
// "O"), then NFC.
func Key(name string) string {
	s := fold.String(norm.NFKC.String(strings.TrimSpace(name)))
	return norm.NFC.String(fold.String(confusables.Skeleton(s)))
}

// Shape is the key of a name's letters as written, case and all: its
// TR39 skeleton before folding, then folded. Upper-case look-alikes meet
// here that Key keeps apart ("ВОТ" in Cyrillic is "bot", while its
// lower case "вот" is not).
func Shape(name string) string {
	s := norm.NFKC.String(strings.TrimSpace(name))
	return norm.NFC.String(fold.String(confusables.Skeleton(s)))
}

// Forms are the forms a name is read in: its Key and, when it is another,
// its Shape. Two names read alike when they have a form in common,
// whichever form of the one meets whichever of the other: the older
// Cyrillic "КОТ" (key "ĸoᴛ", shape "kot") and a newer Latin "kot" (key
// and shape "kot") meet only by the older one's shape.
func Forms(name string) []string {
	k, sh := Key(name), Shape(name)
	if k == sh {
		return []string{k}
	}
	return []string{k, sh}
}

// Same reports whether two names read alike: a form of the one (Forms)
// is a form of the other.
func Same(a, b string) bool {
	fb := Forms(b)
	for _, f := range Forms(a) {
		if slices.Contains(fb, f) {
			return true
		}
	}
	return false
}
