package bridge_test

import (
	"encoding/json"
	"strings"
	"testing"

	"mafia/assist/bridge"
)

type rulesReply struct {
	Code    string
	Options map[string]string
	Error   *struct{ Code, Message string }
}

// TestRulesCode_TheSetupScreenReadsAndWritesTheClubsCode: the options the
// setup screen holds give their code, a code typed (any case, spaces
// around) gives the options back, and a code the engine could not have
// written is refused bad_rules_code (the server API's code) with the
// sentence in each language.
func TestRulesCode_TheSetupScreenReadsAndWritesTheClubsCode(t *testing.T) {
	b := bridge.New()
	var r rulesReply
	json.Unmarshal([]byte(b.RulesCode(`{"second_tie":"nobody","foul_limit":"3"}`)), &r)
	if r.Error != nil || r.Code != "f1h3" {
		t.Errorf("options to code: %+v; want f1h3", r)
	}
	r = rulesReply{}
	json.Unmarshal([]byte(b.RulesFrom("  A1H3 ")), &r)
	if r.Error != nil || r.Code != "a1h3" || r.Options["first_night"] != "meeting" || r.Options["foul_limit"] != "3" || r.Options["second_tie"] != "ask" {
		t.Errorf("code to options: %+v", r)
	}
	for lang, word := range map[string]string{"en": "no rules code", "ka": "წესების კოდი არ არის", "ru": "не код правил"} {
		b.SetLang(lang)
		r = rulesReply{}
		json.Unmarshal([]byte(b.RulesFrom("z9")), &r)
		if r.Error == nil || r.Error.Code != "bad_rules_code" || !strings.Contains(r.Error.Message, word) || !strings.Contains(r.Error.Message, "z9") {
			t.Errorf("%s: a bad code: %+v; want bad_rules_code saying %q", lang, r.Error, word)
		}
	}
}
