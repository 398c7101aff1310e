package bridge

import (
	"encoding/json"

	"mafia/engine"
)

// setupJSON is engine.Setup as the page spells it.
type setupJSON struct {
	Don       int `json:"don"`
	Mafia     int `json:"mafia"`
	Maniac    int `json:"maniac"`
	Detective int `json:"detective"`
	Doctor    int `json:"doctor"`
	Citizens  int `json:"citizen"`
}

func (s setupJSON) engine() engine.Setup {
	return engine.Setup{Don: s.Don, Mafia: s.Mafia, Maniac: s.Maniac, Detective: s.Detective, Doctor: s.Doctor, Citizens: s.Citizens}
}

// setupCheck is Setup's answer.
type setupCheck struct {
	Setup    setupJSON `json:"setup"`
	Roles    []string  `json:"roles"`    // the cards, unshuffled
	Summary  string    `json:"summary"`  // "11 players: 1 don, ..."
	Warnings []string  `json:"warnings"` // sentences
	Error    *Refusal  `json:"error,omitempty"`
}

// Preset returns the default setup for a player count (5 to 11), checked as
// Setup checks it.
func (b *Bridge) Preset(players int) string {
	p, err := engine.Preset(players)
	if err != nil {
		return encode(setupCheck{Error: b.refusal(err), Roles: []string{}, Warnings: []string{}})
	}
	return b.check(p)
}

// Setup checks a custom setup (JSON of role counts: don, mafia, maniac,
// detective, doctor, citizen) as docs/rules.md states, with its warnings.
func (b *Bridge) Setup(setup string) string {
	var s setupJSON
	if err := json.Unmarshal([]byte(setup), &s); err != nil {
		return encode(setupCheck{Error: b.refusal(&engine.Error{Code: "bad_request"}), Roles: []string{}, Warnings: []string{}})
	}
	return b.check(s.engine())
}

func (b *Bridge) check(s engine.Setup) string {
	out := setupCheck{Setup: setupJSON{Don: s.Don, Mafia: s.Mafia, Maniac: s.Maniac, Detective: s.Detective,
		Doctor: s.Doctor, Citizens: s.Citizens}, Roles: []string{}, Warnings: []string{}}
	warns, err := s.Validate()
	if err != nil {
		out.Error = b.refusal(err)
		return encode(out)
	}
	for _, w := range warns {
		out.Warnings = append(out.Warnings, b.p.Refusal(&engine.Error{Code: w}))
	}
	for _, r := range s.Roles() {
		out.Roles = append(out.Roles, r.String())
	}
	out.Summary = b.p.Setup(s)
	return encode(out)
}

// option is one house rule as the setup screen offers it.
type option struct {
	Name    string   `json:"name"`
	Values  []string `json:"values"` // empty: a number (foul_limit, round_limit), min..max
	Default string   `json:"default"`
	Min     int      `json:"min,omitempty"`
	Max     int      `json:"max,omitempty"`
}

// Options lists the house rules of docs/rules.md with their values and defaults.
func (b *Bridge) Options() string {
	def := engine.DefaultRules()
	out := make([]option, 0, len(engine.Options))
	for _, o := range engine.Options {
		d, _ := def.Get(o.Name)
		op := option{Name: o.Name, Values: o.Values, Default: d}
		if op.Values == nil {
			op.Values, op.Min, op.Max = []string{}, o.Min, o.Max
		}
		out = append(out, op)
	}
	return encode(out)
}
