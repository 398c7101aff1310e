package bridge

// This file reads and writes the rules code (engine.RulesCode) for the
// setup screen: a club publishes "our rules: f1h3", a host enters it.

import (
	"encoding/json"
	"strings"

	"mafia/assist/record"
	"mafia/engine"
)

// rulesReply is RulesCode's and RulesFrom's answer.
type rulesReply struct {
	Code    string            `json:"code"`
	Options map[string]string `json:"options"`
	Error   *Refusal          `json:"error,omitempty"`
}

// RulesCode writes the code of the house rules a setup screen holds
// (options by docs/rules.md's names, JSON; missing ones at their default):
// {code, options} or {error} for an option the engine refuses.
func (b *Bridge) RulesCode(options string) string {
	opts := map[string]string{}
	if err := json.Unmarshal([]byte(options), &opts); err != nil {
		return encode(rulesReply{Error: b.refusal(&engine.Error{Code: record.CodeBadSettings, Name: "json"})})
	}
	r, err := engine.ParseRules(opts)
	if err != nil {
		return encode(rulesReply{Error: b.refusal(err)})
	}
	return encode(rulesReply{Code: engine.RulesCode(r), Options: r.Map()})
}

// RulesFrom reads a rules code a host typed (any case, spaces around it):
// {code, options} with every option's value, or {error} (bad_rules_code,
// as the server's API says) for a code RulesCode could not have written.
func (b *Bridge) RulesFrom(code string) string {
	r, err := engine.ParseRulesCode(strings.ToLower(strings.TrimSpace(code)))
	if err != nil {
		return encode(rulesReply{Error: b.refusal(&engine.Error{Code: engine.CodeBadRulesCode, Value: code})})
	}
	return encode(rulesReply{Code: engine.RulesCode(r), Options: r.Map()})
}
