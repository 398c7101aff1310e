package record

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mafia/engine"
)

// Deal modes: how the cards reach the players.
const (
	DealLinks  = "links"  // each player opens a link (or scans its QR code) on their own phone
	DealPass   = "pass"   // the host's phone is passed round, one card at a time
	DealManual = "manual" // the cards were dealt by hand and the host enters them
)

// MaxName is the longest seat or game name, in characters.
const MaxName = 32

// Timings are the host's clocks, in seconds.
type Timings struct {
	Speech    int `json:"speech"`
	Defence   int `json:"defence"`
	TieSpeech int `json:"tie_speech"`
	LastWords int `json:"last_words"`
}

// DefaultTimings returns the clocks docs/rules.md gives: 60 s speeches and last
// words, 30 s defences and tie speeches.
func DefaultTimings() Timings {
	return Timings{Speech: 60, Defence: 30, TieSpeech: 30, LastWords: 60}
}

// Valid reports whether every clock is between 1 s and 10 minutes.
func (t Timings) Valid() bool {
	for _, s := range []int{t.Speech, t.Defence, t.TieSpeech, t.LastWords} {
		if s < 1 || s > 600 {
			return false
		}
	}
	return true
}

// Settings is everything a host chooses before the game, and the deal.
type Settings struct {
	Name    string            `json:"name"`    // the game's title, e.g. the club night
	Names   []string          `json:"names"`   // the players' names, seat 1 first
	Roles   []string          `json:"roles"`   // the deal, seat 1 first, as docs/rules.md spells roles
	Seed    string            `json:"seed"`    // the deal's seed (decimal; "0" for a deal by hand)
	Options map[string]string `json:"options"` // house rules by docs/rules.md's names
	// RulesCode is the house rules as a code (engine.RulesCode: "std", "f1h3");
	// "": none. Given, the code gives the rules and Options change them
	// further (an option the host set after entering the code).
	RulesCode string  `json:"rules_code,omitempty"`
	Timings   Timings `json:"timings"`        // the host's clocks
	Deal      string  `json:"deal"`           // DealLinks, DealPass or DealManual
	Lang      string  `json:"lang,omitempty"` // the host's language when the game was made
	// Club is the club's part of the protocol (host, referee, table and
	// number of the evening, the seats' roster ids); nil: none given.
	Club *ClubInfo `json:"club,omitempty"`
}

// Players returns the number of seats.
func (s *Settings) Players() int { return len(s.Names) }

// NameOf returns seat n's name, or "" for a seat off the table.
func (s *Settings) NameOf(n int) string {
	if n < 1 || n > len(s.Names) {
		return ""
	}
	return s.Names[n-1]
}

// Check validates the settings and returns what the engine needs to start
// the game. Refusals are *engine.Error values with the engine's codes where
// the engine has one (too few seats, an unknown role or option, a setup the
// rules forbid) and CodeBadSettings otherwise, Name saying which field.
func (s *Settings) Check() (engine.Ruleset, []engine.Role, uint64, error) {
	rules, err := s.rules()
	if err != nil {
		return rules, nil, 0, err
	}
	n := len(s.Names)
	if n < engine.MinSeats {
		return rules, nil, 0, &engine.Error{Code: engine.CodeTooFewSeats, N: engine.MinSeats}
	}
	if n > engine.MaxSeats {
		return rules, nil, 0, &engine.Error{Code: engine.CodeTooManySeats, N: engine.MaxSeats}
	}
	for i, name := range s.Names {
		if strings.TrimSpace(name) == "" || utf8.RuneCountInString(name) > MaxName {
			return rules, nil, 0, &engine.Error{Code: CodeBadSettings, Name: "names", Seat: engine.Seat(i + 1)}
		}
	}
	if utf8.RuneCountInString(s.Name) > MaxName {
		return rules, nil, 0, &engine.Error{Code: CodeBadSettings, Name: "name"}
	}
	if len(s.Roles) != n {
		return rules, nil, 0, &engine.Error{Code: CodeBadSettings, Name: "roles", N: n}
	}
	roles := make([]engine.Role, n)
	for i, r := range s.Roles {
		role, ok := engine.ParseRole(r)
		if !ok {
			return rules, nil, 0, &engine.Error{Code: engine.CodeUnknownRole, Name: r}
		}
		roles[i] = role
	}
	if _, err := engine.SetupOf(roles).Validate(); err != nil {
		return rules, nil, 0, err
	}
	seed, err := strconv.ParseUint(s.Seed, 10, 64)
	if err != nil {
		return rules, nil, 0, &engine.Error{Code: CodeBadSettings, Name: "seed"}
	}
	if !s.Timings.Valid() {
		return rules, nil, 0, &engine.Error{Code: CodeBadSettings, Name: "timings"}
	}
	if err := s.Club.check(n); err != nil {
		return rules, nil, 0, err
	}
	switch s.Deal {
	case DealLinks, DealPass, DealManual:
	default:
		return rules, nil, 0, &engine.Error{Code: CodeBadSettings, Name: "deal", Value: s.Deal}
	}
	return rules, roles, seed, nil
}

// CodeBadSettings refuses settings the engine has no word for: a missing
// name, a deal that does not match the seats, a clock out of range.
const CodeBadSettings engine.Code = "bad_settings"

// RoleNames spells a deal as Settings.Roles holds it.
func RoleNames(roles []engine.Role) []string {
	out := make([]string, len(roles))
	for i, r := range roles {
		out[i] = r.String()
	}
	return out
}

// rules reads the house rules: the rules code's (the defaults without one),
// then Options over them. A code engine.RulesCode could not have written is
// refused engine.CodeBadRulesCode (Value: the code), as the server's API
// refuses it.
func (s *Settings) rules() (engine.Ruleset, error) {
	if s.RulesCode == "" {
		return engine.ParseRules(s.Options)
	}
	r, err := engine.ParseRulesCode(strings.ToLower(strings.TrimSpace(s.RulesCode)))
	if err != nil {
		return r, &engine.Error{Code: engine.CodeBadRulesCode, Value: s.RulesCode}
	}
	opts := r.Map()
	for k, v := range s.Options {
		opts[k] = v
	}
	return engine.ParseRules(opts)
}
