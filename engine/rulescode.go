package engine

// This file writes a ruleset as a short stable code and reads it back: the
// house rules a club writes on its sheets, types into the assistant's setup
// and gives an online table (docs/rules.md, "The rules code").

import (
	"strconv"
	"strings"
)

// RulesCode writes the house rules in force as a short stable code, for a
// club's sheet: "std" when every option has its default; otherwise each
// option that differs, in the order of Options, as a letter (a for
// the first option, first_night; b for mafia_kill; ...) and its value: the
// value's place among the option's values for a choice (the default is 0,
// so never written), the number itself for a number (foul_limit,
// round_limit). second_tie=nobody and foul_limit=3 are "f1h3". The letters
// stay as they are because Options only ever grows at its end
// (rulescode_test pins them).
func RulesCode(r Ruleset) string {
	def := DefaultRules()
	var b strings.Builder
	for i, o := range Options {
		v, _ := r.Get(o.Name)
		d, _ := def.Get(o.Name)
		if v == d {
			continue
		}
		b.WriteByte(byte('a' + i))
		if o.Values == nil {
			b.WriteString(v)
			continue
		}
		for k, x := range o.Values {
			if x == v {
				b.WriteString(strconv.Itoa(k))
			}
		}
	}
	if b.Len() == 0 {
		return "std"
	}
	return b.String()
}

// ParseRulesCode reads a code RulesCode wrote back into the rules; a code
// it could not have written is refused with CodeBadRulesCode (Value: the
// code as given).
func ParseRulesCode(code string) (Ruleset, error) {
	r := DefaultRules()
	bad := &Error{Code: CodeBadRulesCode, Value: code}
	if code == "std" {
		return r, nil
	}
	if code == "" {
		return r, bad
	}
	last := -1
	for i := 0; i < len(code); {
		k := int(code[i]) - 'a'
		if k <= last || k >= len(Options) {
			return r, bad
		}
		last = k
		j := i + 1
		for j < len(code) && code[j] >= '0' && code[j] <= '9' {
			j++
		}
		if j == i+1 || j-i > 3 {
			return r, bad
		}
		n, _ := strconv.Atoi(code[i+1 : j])
		o := Options[k]
		v := strconv.Itoa(n)
		if o.Values != nil {
			if n < 1 || n >= len(o.Values) || code[i+1] == '0' {
				return r, bad
			}
			v = o.Values[n]
		} else if code[i+1] == '0' && j-i > 2 {
			return r, bad
		}
		if err := r.Set(o.Name, v); err != nil {
			return r, bad
		}
		if d, _ := DefaultRules().Get(o.Name); d == v {
			return r, bad
		}
		i = j
	}
	return r, nil
}
