package wire

import (
	"encoding/json"

	"mafia/engine"
)

// Rules is a game's house rules by option name, as every view carries them.
// The rules do not change during a game, so a room makes them once
// (NewRules) and each frame reuses their encoded form instead of building
// and sorting a map per frame.
type Rules struct {
	m   map[string]string
	raw []byte
}

// NewRules converts a ruleset to its JSON shape.
func NewRules(r engine.Ruleset) Rules {
	m := r.Map()
	return Rules{m: m, raw: appendStringMap(nil, m)}
}

// Map returns the rules by option name (the caller must not change it).
func (r Rules) Map() map[string]string { return r.m }

// Get returns one option's value ("" if the view has no such option).
func (r Rules) Get(name string) string { return r.m[name] }

// MarshalJSON writes the rules as a JSON object of strings.
func (r Rules) MarshalJSON() ([]byte, error) {
	if r.raw == nil {
		return []byte("{}"), nil
	}
	return r.raw, nil
}

// UnmarshalJSON reads a JSON object of strings.
func (r *Rules) UnmarshalJSON(b []byte) error {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	r.m, r.raw = m, appendStringMap(nil, m)
	return nil
}
