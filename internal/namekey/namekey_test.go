package namekey

import "testing"

// TestSame_NamesThatReadAlike: case, width, compatibility forms and the
// letters of one script that look like another's are set aside; names
// that look different stay apart.
func TestSame_NamesThatReadAlike(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"Nino", "NINO", true},
		{"Nino", "Ｎｉｎｏ", true},
		{"Nino", "N\u0456no", true},         // Cyrillic і
		{"ashwcbr", "\u0430shwcbr", true},   // Cyrillic а
		{"\u0412\u041e\u0422", "BOT", true}, // ВОТ, upper case only
		{"\ua4d0ot", "Bot", true},           // Lisu ꓐ
		{"apo", "AP0", true},                // 0 and O
		{"Nino", "ნინო", false},
		{"Nino", "Нино", false},
		{"вот", "bot", false}, // lower-case в reads as no b
		{"Gela", "Gele", false},
	} {
		if got := Same(c.a, c.b); got != c.same {
			t.Errorf("Same(%q, %q) = %v, want %v (keys %q %q, shapes %q %q)", c.a, c.b, got, c.same, Key(c.a), Key(c.b), Shape(c.a), Shape(c.b))
		}
	}
}

// TestSame_BothWays: two names read alike whichever is the older, by any
// form of the one meeting any of the other's: a Latin name next to an
// all-Cyrillic one in capitals (whose key keeps small-capital letters)
// meets it by the Cyrillic one's shape.
func TestSame_BothWays(t *testing.T) {
	for _, c := range [][2]string{
		{"\u041a\u041e\u0422", "kot"},               // КОТ
		{"\u041a\u041e\u0422", "KOT"},               // КОТ
		{"\u0412\u0415\u0422", "bet"},               // ВЕТ
		{"\u041d\u041e\u041c\u0415\u0420", "HOMEP"}, // НОМЕР
	} {
		if !Same(c[0], c[1]) || !Same(c[1], c[0]) {
			t.Errorf("%q and %q: Same %v, %v, want both", c[0], c[1], Same(c[0], c[1]), Same(c[1], c[0]))
		}
		common := false
		for _, f := range Forms(c[1]) {
			for _, g := range Forms(c[0]) {
				common = common || f == g
			}
		}
		if !common {
			t.Errorf("%q and %q have no form in common: %q, %q", c[0], c[1], Forms(c[0]), Forms(c[1]))
		}
	}
}
