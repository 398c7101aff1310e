package locale

import "testing"

func TestParseAcceptsCodesAndLocaleNames(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Lang
		ok   bool
	}{
		{"ka", Ka, true},
		{"en", En, true},
		{"ru", Ru, true},
		{"ka_GE.UTF-8", Ka, true},
		{"ru-RU", Ru, true},
		{"ru_RU.UTF-8", Ru, true},
		{"en_US@euro", En, true},
		{"KA", Ka, true},
		{" ru ", Ru, true},
		{"de_DE.UTF-8", "", false},
		{"C", "", false},
		{"POSIX", "", false},
		{"", "", false},
		{"kaa", "", false},
	} {
		got, ok := Parse(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Parse(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestFromEnvTakesTheFirstUsableVariableInPOSIXOrder(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		want Lang
	}{
		{"nothing set is English", nil, En},
		{"LANG alone", map[string]string{"LANG": "ka_GE.UTF-8"}, Ka},
		{"LC_ALL beats LANG", map[string]string{"LC_ALL": "ru_RU.UTF-8", "LANG": "ka_GE.UTF-8"}, Ru},
		{"LC_MESSAGES beats LANG", map[string]string{"LC_MESSAGES": "ka", "LANG": "en_US.UTF-8"}, Ka},
		{"an unsupported LC_ALL falls through", map[string]string{"LC_ALL": "de_DE.UTF-8", "LANG": "ru_RU"}, Ru},
		{"LANGUAGE list is read in order", map[string]string{"LANGUAGE": "de:ka:ru"}, Ka},
		{"C stops the search", map[string]string{"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, En},
		{"C.UTF-8 stops the search", map[string]string{"LANG": "C.UTF-8", "LANGUAGE": "ru"}, En},
		{"unsupported everywhere is English", map[string]string{"LANG": "fr_FR"}, En},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := FromEnv(func(k string) string { return c.env[k] }); got != c.want {
				t.Errorf("FromEnv = %q, want %q", got, c.want)
			}
		})
	}
}

func TestNewFallsBackToEnglishForAnUnknownLanguage(t *testing.T) {
	if got := New("de").Lang(); got != En {
		t.Errorf("New(de).Lang() = %q, want en", got)
	}
}
