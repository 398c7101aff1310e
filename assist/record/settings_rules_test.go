package record

import (
	"errors"
	"testing"

	"mafia/engine"
)

// TestSettings_ARulesCodeGivesTheRulesAndOptionsChangeThem: a game's
// settings with rules_code play by the code's rules; an option given too
// is set over them; a bad code is refused bad_rules_code (as the server's
// API refuses it), naming the code.
func TestSettings_ARulesCodeGivesTheRulesAndOptionsChangeThem(t *testing.T) {
	base := func() Settings {
		return Settings{Names: []string{"A", "B", "C", "D", "E", "F", "G"}, Seed: "0", Deal: DealManual,
			Roles: []string{"don", "mafia", "detective", "doctor", "citizen", "citizen", "citizen"}, Timings: DefaultTimings()}
	}
	s := base()
	s.RulesCode = "a1h3"
	r, _, _, err := s.Check()
	if err != nil || engine.RulesCode(r) != "a1h3" {
		t.Errorf("rules_code a1h3: %s, %v", engine.RulesCode(r), err)
	}
	s.Options = map[string]string{"second_tie": "nobody"}
	if r, _, _, err = s.Check(); err != nil || engine.RulesCode(r) != "a1f1h3" {
		t.Errorf("a1h3 and second_tie=nobody: %s, %v; want a1f1h3", engine.RulesCode(r), err)
	}
	s.RulesCode = "f1a1"
	var e *engine.Error
	if _, _, _, err = s.Check(); !errors.As(err, &e) || e.Code != engine.CodeBadRulesCode || e.Value != "f1a1" {
		t.Errorf("a bad code: %v; want bad_rules_code f1a1", err)
	}
}
