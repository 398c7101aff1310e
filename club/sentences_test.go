package club_test

import (
	"testing"

	"mafia/club"
	"mafia/engine"
	"mafia/locale"
)

// TestEveryCodeHasASentenceInEveryLanguage: the club's refusals are said
// in Georgian, English and Russian, never as the generic sentence.
func TestEveryCodeHasASentenceInEveryLanguage(t *testing.T) {
	for code := range club.Kinds {
		for _, l := range locale.Langs() {
			p := locale.New(l)
			got := p.Refusal(&engine.Error{Code: code, Value: "-0.50 … 0.70"})
			if got == "" || got == p.T("error.generic", nil) {
				t.Errorf("%s in %s: %q", code, l, got)
			}
		}
	}
}
