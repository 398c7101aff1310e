package account

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"mafia/internal/namekey"
)

// MaxName is the longest account name, in characters.
const MaxName = 24

// fold is the case folding names are compared by (Unicode's full folding,
// for every script alike).
var fold = cases.Fold()

// CheckName normalises a name (trimmed, Unicode NFC) and checks it: 1 to
// MaxName characters, each a letter, a mark, a digit, or one of "_-."
// (no spaces: a name is a player's page's address); its letters of one
// script (CodeNameMixedScripts: Latin with Cyrillic is how a name passes
// for another); not a word the site keeps (CodeNameForbidden: admin,
// system, host, mafia, bot… in English, Russian and Georgian, however
// written). It returns the name as shown and the key it is unique by
// (Key), so that "Nino", "NINO", "Ｎｉｎｏ" and "nino" are one account and
// "ნინო" another.
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
	if !oneScript(shown) {
		return "", "", refuse(CodeNameMixedScripts)
	}
	if forbidden(shown) {
		return "", "", refuse(CodeNameForbidden)
	}
	return shown, Key(shown), nil
}

// Key is the form a name is looked up and kept unique by: its
// namekey.Key (NFKC, case folding, the TR39 confusable skeleton), so that
// a name that reads as another's is the same name. A name that CheckName
// would refuse still has a key (one no account holds).
func Key(name string) string { return namekey.Key(name) }

// LegacyKey is the key accounts made before look-alikes were folded were
// kept by (NFC, case-folded, NFC again): they are found by it too.
func LegacyKey(name string) string {
	return norm.NFC.String(fold.String(norm.NFC.String(strings.TrimSpace(name))))
}

// scriptGroup is the script a letter counts as for oneScript: its Unicode
// script, the scripts of Chinese, Japanese and Korean writing as one
// ("" for a character of no script: digits, marks, "_-.").
func scriptGroup(r rune) string {
	for _, s := range []string{"Latin", "Cyrillic", "Georgian", "Greek", "Armenian", "Hebrew", "Arabic"} {
		if unicode.Is(unicode.Scripts[s], r) {
			return s
		}
	}
	if unicode.In(r, unicode.Common, unicode.Inherited) {
		return ""
	}
	for _, s := range []string{"Han", "Hiragana", "Katakana", "Hangul", "Bopomofo"} {
		if unicode.Is(unicode.Scripts[s], r) {
			return "CJK"
		}
	}
	for name, t := range unicode.Scripts {
		if unicode.Is(t, r) {
			return name
		}
	}
	return ""
}

// oneScript reports whether the letters of a name (as NFKC reads them:
// full-width Latin is Latin) are of one script.
func oneScript(name string) bool {
	seen := ""
	for _, r := range norm.NFKC.String(name) {
		g := scriptGroup(r)
		if g == "" {
			continue
		}
		if seen != "" && g != seen {
			return false
		}
		seen = g
	}
	return true
}

// reservedWords are the names the site keeps: who speaks for it, in the
// three languages.
var reservedWords = []string{
	"admin", "administrator", "root", "system", "server", "host", "mafia", "bot", "bots",
	"moderator", "mod", "support", "staff", "official", "owner", "operator", "referee", "guest",
	"anonymous", "nobody", "null", "undefined", "everyone",
	"админ", "администратор", "система", "сервер", "ведущий", "мафия", "бот", "модератор", "поддержка", "гость",
	"ადმინი", "ადმინისტრატორი", "სისტემა", "სერვერი", "წამყვანი", "მაფია", "ბოტი", "ბოტ", "მოდერატორი", "სტუმარი",
}

// reserved is the keys of reservedWords, in both of namekey's forms.
var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range reservedWords {
		m[namekey.Key(w)], m[namekey.Shape(w)] = true, true
	}
	return m
}()

// forbidden reports whether a name is a reserved word, read as namekey
// reads it, with its separators and trailing digits set aside ("Admin",
// "ａｄｍｉｎ", "аdmin" in Cyrillic, "ad.min_2", "ꓐot5").
func forbidden(name string) bool {
	bare := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' {
			return -1
		}
		return r
	}, norm.NFKC.String(name))
	bare = strings.TrimRightFunc(bare, unicode.IsDigit)
	return reserved[namekey.Key(bare)] || reserved[namekey.Shape(bare)]
}
