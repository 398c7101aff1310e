package main

import (
	"strings"

	"mafia/engine"
)

// parseOptionList reads "k=v,k=v" into a ruleset built on the defaults.
func parseOptionList(s string) (engine.Ruleset, error) {
	r := engine.DefaultRules()
	if strings.TrimSpace(s) == "" {
		return r, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return r, &engine.Error{Code: engine.CodeUnknownOption, Name: strings.TrimSpace(kv)}
		}
		if err := r.Set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return r, err
		}
	}
	return r, nil
}
