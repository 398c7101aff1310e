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
