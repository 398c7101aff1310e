package room

// This file says what a name may be: a player's display name and a table's
// name. Both are shown to everyone (the lobby, the list of tables, chat), so
// both are bounded in characters and bytes and may not hold characters that
// change how the text around them reads; a player may not be named like one
// of the server's bots.

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"mafia/engine"
)

// The limits of names, in characters (code points) and in bytes of UTF-8.
const (
	MaxName           = 32  // a player's display name
	MaxNameBytes      = 128 // (32 characters of 4 bytes)
	MaxTableName      = 64  // a table's name
	MaxTableNameBytes = 256 // (64 characters of 4 bytes)
	// maxMarks is the longest run of combining marks a name may hold: a
	// letter with accents has one or two; dozens stacked on one letter
	// spill over the lines around it.
	maxMarks = 3
)

// CheckName trims a player's display name and checks it: not empty, at
// most MaxName characters and MaxNameBytes bytes, no character that is
// refused (see badRune), and not read as a bot's name ("Bot 3", "bot3",
// "БОТ 3", "ბოტი 3", in any case and spacing). It returns the trimmed name.
func CheckName(name string) (string, error) {
	name, err := checkText(name, MaxName, MaxNameBytes)
	if err != nil {
		return "", err
	}
	if readsAsBot(name) {
		return "", &engine.Error{Code: CodeNameLikeBot, Name: name}
	}
	return name, nil
}

// CheckTableName trims a table's name and checks it as CheckName does,
// with the limits MaxTableName and MaxTableNameBytes (a table may be
// called anything readable, "Bot night" too).
func CheckTableName(name string) (string, error) {
	return checkText(name, MaxTableName, MaxTableNameBytes)
}

// checkText trims s and checks its length and its characters.
func checkText(s string, maxRunes, maxBytes int) (string, error) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return "", &engine.Error{Code: CodeNameBadCharacter, Value: fmt.Sprintf("0x%02X", s[i])}
		}
		i += n
	}
	s = strings.TrimSpace(s)
	if len(s) > maxBytes || utf8.RuneCountInString(s) > maxRunes {
		return "", &engine.Error{Code: CodeNameTooLong, N: maxRunes}
	}
	marks, visible := 0, false
	for _, r := range s {
		if badRune(r) {
			return "", &engine.Error{Code: CodeNameBadCharacter, Value: fmt.Sprintf("U+%04X", r)}
		}
		if unicode.In(r, unicode.Mn, unicode.Me) {
			if marks++; marks > maxMarks {
				return "", &engine.Error{Code: CodeNameBadCharacter, Value: fmt.Sprintf("U+%04X", r)}
			}
			continue
		}
		marks = 0
		if !unicode.IsSpace(r) && r != zwj && r != zwnj {
			visible = true
		}
	}
	if !visible {
		return "", errCode(CodeNameRequired)
	}
	return s, nil
}

const (
	zwnj = '\u200C' // zero-width non-joiner: part of how some scripts are written
	zwj  = '\u200D' // zero-width joiner: emoji sequences
)

// badRune reports whether a name may not hold r: control characters (NUL,
// newlines, tabs), format characters (the bidi embeddings, overrides and
// isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F,
// U+061C, zero-width spaces, U+FEFF, soft hyphens; the two joiners are
// allowed), line and paragraph separators, private-use characters,
// noncharacters, U+FFFD (what a broken encoding decodes to), and the
// letters that draw nothing (the Hangul fillers, the blank Braille pattern,
// the combining grapheme joiner), with which a name looks empty or like
// another.
func badRune(r rune) bool {
	switch {
	case r == zwj || r == zwnj:
		return false
	case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Zl, unicode.Zp):
		return true
	case r == utf8.RuneError, r&0xFFFE == 0xFFFE, r >= 0xFDD0 && r <= 0xFDEF:
		return true
	}
	switch r {
	case '\u115F', '\u1160', '\u3164', '\uFFA0', '\u2800', '\u034F':
		return true
	}
	return false
}

// botWords are the words the server's bots are named with ("Bot 3"), and
// what the clients show them as in Georgian ("ბოტი 3") and Russian
// ("Бот 3"), each as its skeleton (see skeleton).
var botWords = []string{"bot", "ბოტი", "ბოტ"}

// readsAsBot reports whether a name reads as a bot's: one of botWords,
// then nothing but digits (or nothing), once case, width, spacing,
// punctuation and the Cyrillic and Greek letters that look like Latin ones
// are set aside: "Bot 3", "BOT3", "b o t - 3", "Ｂｏｔ３", "Вот 3", "Бот 3",
// "ბოტი 3".
func readsAsBot(name string) bool {
	s := skeleton(name)
	for _, w := range botWords {
		if rest, ok := strings.CutPrefix(s, w); ok && strings.TrimLeft(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// skeleton folds a name for comparison: compatibility forms (full-width
// letters, ligatures) to their plain ones, lower case, only letters and
// digits kept (those of other scripts as ASCII ones), and look-alike letters to the Latin ones
// they look like. A zero among letters reads as an o ("B0t").
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKC.String(name) {
		r = unicode.ToLower(r)
		switch {
		case unicode.IsDigit(r):
			if r > unicode.MaxASCII {
				r = '1' // a digit of another script: any digit will do
			}
		case unicode.IsLetter(r):
		default:
			continue
		}
		if l, ok := lookalike[r]; ok {
			r = l
		}
		b.WriteRune(r)
	}
	s := []rune(b.String())
	// "B0t": a zero right after a b reads as the o of "bot".
	for i := 1; i < len(s); i++ {
		if s[i] == '0' && s[i-1] == 'b' {
			s[i] = 'o'
		}
	}
	return string(s)
}

// lookalike maps lower-case Cyrillic and Greek letters to the Latin letters
// of "bot" they look like (Cyrillic "бот" is the Russian word itself).
var lookalike = map[rune]rune{
	'о': 'o', 'ο': 'o', 'σ': 'o', 'ö': 'o', 'ò': 'o', 'ó': 'o', 'ô': 'o', 'õ': 'o',
	'б': 'b', 'в': 'b', 'ь': 'b', 'ъ': 'b', 'β': 'b', 'ß': 'b',
	'т': 't', 'τ': 't',
}
