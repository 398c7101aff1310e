package account

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// MaxName is the longest account name, in characters.
const MaxName = 24

// fold is the case folding names are compared by (Unicode's full folding,
// for every script alike).
var fold = cases.Fold()

// CheckName normalises a name (trimmed, Unicode NFC) and checks it: 1 to
// MaxName characters, each a letter, a mark, a digit, or one of "_-."
// (no spaces: a name is a player's page's address). It returns the name as
// shown and the key it is unique by (the NFC form case-folded, then NFC
// again), so that "Nino", "NINO" and "nino" are one account and "ნინო"
// another.
func CheckName(name string) (shown, key string, err error) {
	if !utf8.ValidString(name) {
		return "", "", &nameError
	}
	shown = norm.NFC.String(strings.TrimSpace(name))
	n := utf8.RuneCountInString(shown)
	if n == 0 || n > MaxName {
		return "", "", &nameError
	}
	for _, r := range shown {
		if !(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.') {
			return "", "", &nameError
		}
	}
	return shown, Key(shown), nil
}

// Key is the form a name is looked up by: NFC, case-folded, NFC again. A
// name that CheckName would refuse still has a key (one no account holds).
func Key(name string) string {
	return norm.NFC.String(fold.String(norm.NFC.String(strings.TrimSpace(name))))
}
