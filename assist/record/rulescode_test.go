package record

import (
	"errors"
	"testing"

	"mafia/engine"
)

// TestRulesCode_LettersStayTheOptionsTheyWere: a code's letters name the
// options of engine.Options by their place; a new option must go at the
// end, or every club's old codes would change meaning.
func TestRulesCode_LettersStayTheOptionsTheyWere(t *testing.T) {
	want := []string{"first_night", "mafia_kill", "maniac_check", "doctor_repeat", "reveal_on_death",
		"second_tie", "last_words", "foul_limit", "maniac_vs_mafia_1x1", "round_limit"}
	for i, name := range want {
		if i >= len(engine.Options) || engine.Options[i].Name != name {
			t.Fatalf("letter %c is %s in the codes; engine.Options has changed order", 'a'+i, name)
		}
	}
}

// TestRulesCode_WritesTheOptionsThatDifferAndReadsThemBack.
func TestRulesCode_WritesTheOptionsThatDifferAndReadsThemBack(t *testing.T) {
	for _, c := range []struct {
		opts map[string]string
		code string
	}{
		{nil, "std"},
		{map[string]string{"second_tie": "nobody"}, "f1"},
		{map[string]string{"first_night": "meeting", "foul_limit": "3"}, "a1h3"},
		{map[string]string{"reveal_on_death": "role", "round_limit": "12", "maniac_vs_mafia_1x1": "draw"}, "e2i2j12"},
		{map[string]string{"foul_limit": "0"}, "h0"},
	} {
		r, err := engine.ParseRules(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := RulesCode(r); got != c.code {
			t.Errorf("%v: code %q; want %q", c.opts, got, c.code)
		}
		back, err := ParseRulesCode(c.code)
		if err != nil || back != r {
			t.Errorf("%q read back: %+v, %v; want %+v", c.code, back, err, r)
		}
	}
	for _, bad := range []string{"", "x", "a", "a0", "a9", "f1a1", "f1f1", "h99", "h4", "j0", "z1", "h03"} {
		if _, err := ParseRulesCode(bad); err == nil {
			t.Errorf("%q: no refusal", bad)
		}
	}
}

// TestSettings_ARulesCodeGivesTheRulesAndOptionsChangeThem: a game's
// settings with rules_code play by the code's rules; an option given too
// is set over them; a bad code is refused bad_settings, Name rules.
func TestSettings_ARulesCodeGivesTheRulesAndOptionsChangeThem(t *testing.T) {
	base := func() Settings {
		return Settings{Names: []string{"A", "B", "C", "D", "E", "F", "G"}, Seed: "0", Deal: DealManual,
			Roles: []string{"don", "mafia", "detective", "doctor", "citizen", "citizen", "citizen"}, Timings: DefaultTimings()}
	}
	s := base()
	s.RulesCode = "a1h3"
	r, _, _, err := s.Check()
	if err != nil || RulesCode(r) != "a1h3" {
		t.Errorf("rules_code a1h3: %s, %v", RulesCode(r), err)
	}
	s.Options = map[string]string{"second_tie": "nobody"}
	if r, _, _, err = s.Check(); err != nil || RulesCode(r) != "a1f1h3" {
		t.Errorf("a1h3 and second_tie=nobody: %s, %v; want a1f1h3", RulesCode(r), err)
	}
	s.RulesCode = "f1a1"
	var e *engine.Error
	if _, _, _, err = s.Check(); !errors.As(err, &e) || e.Code != CodeBadSettings || e.Name != "rules" {
		t.Errorf("a bad code: %v; want bad_settings rules", err)
	}
}
