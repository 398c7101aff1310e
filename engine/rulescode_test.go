package engine_test

import (
	"errors"
	"strconv"
	"testing"

	"mafia/engine"
	"mafia/rng"
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
		if got := engine.RulesCode(r); got != c.code {
			t.Errorf("%v: code %q; want %q", c.opts, got, c.code)
		}
		back, err := engine.ParseRulesCode(c.code)
		if err != nil || back != r {
			t.Errorf("%q read back: %+v, %v; want %+v", c.code, back, err, r)
		}
	}
	for _, bad := range []string{"", "x", "a", "a0", "a9", "f1a1", "f1f1", "h99", "h4", "j0", "z1", "h03"} {
		_, err := engine.ParseRulesCode(bad)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != engine.CodeBadRulesCode || e.Value != bad {
			t.Errorf("%q: %v; want bad_rules_code naming it", bad, err)
		}
	}
}

// TestRulesCode_EveryRulesetReadsBackAsItWas: every value of every option
// alone, and a thousand seeded random rulesets, are written and read back
// unchanged; the code of what was read is the same code.
func TestRulesCode_EveryRulesetReadsBackAsItWas(t *testing.T) {
	var sets []engine.Ruleset
	for _, o := range engine.Options {
		values := o.Values
		for n := o.Min; o.Values == nil && n <= o.Max; n++ {
			values = append(values, strconv.Itoa(n))
		}
		for _, v := range values {
			r := engine.DefaultRules()
			if err := r.Set(o.Name, v); err != nil {
				t.Fatal(err)
			}
			sets = append(sets, r)
		}
	}
	src := rng.New(29)
	for range 1000 {
		sets = append(sets, engine.RandomRules(&src))
	}
	for _, r := range sets {
		code := engine.RulesCode(r)
		back, err := engine.ParseRulesCode(code)
		if err != nil || back != r || engine.RulesCode(back) != code {
			t.Fatalf("%q (%v): read back %v, %v", code, r.Map(), back.Map(), err)
		}
	}
}
