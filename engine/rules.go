package engine

import (
	"sort"
	"strconv"
)

// Ruleset holds every named option of docs/rules.md, and the engine's own
// round_limit (docs/rulings.md). Build one with DefaultRules and change it
// with Set; the zero value is not the default (foul_limit, round_limit).
type Ruleset struct {
	FirstNight    uint8 // first_night: FirstNightFull | FirstNightMeeting
	MafiaKill     uint8 // mafia_kill: MafiaKillSenior | MafiaKillUnanimous
	DoctorRepeat  uint8 // doctor_repeat: DoctorOncePerGame | DoctorNotTwiceInARow
	ManiacCheck   uint8 // maniac_check: ManiacShowsNotMafia | ManiacShowsMafia | ManiacShowsManiac
	RevealOnDeath uint8 // reveal_on_death: RevealNone | RevealTeam | RevealRole
	SecondTie     uint8 // second_tie: SecondTieAsk | SecondTieNobody | SecondTieAll
	LastWords     uint8 // last_words: LastWordsOn | LastWordsOff
	ManiacVsMafia uint8 // maniac_vs_mafia_1x1: ManiacVsMafiaManiac | ManiacVsMafiaMafia | ManiacVsMafiaDraw
	FoulLimit     uint8 // foul_limit: 0 (fouls only recorded) or 1..MaxFoulLimit
	// RoundLimit (round_limit): a game still going at the end of this
	// round ends in a draw; 1..MaxRoundLimit (0, in a ruleset made by
	// hand, is no limit; Set never gives it).
	RoundLimit uint8
}

// Values of the options. The first of each group is the default.
const (
	FirstNightFull    = 0
	FirstNightMeeting = 1

	MafiaKillSenior    = 0
	MafiaKillUnanimous = 1

	DoctorOncePerGame    = 0
	DoctorNotTwiceInARow = 1

	ManiacShowsNotMafia = 0
	ManiacShowsMafia    = 1
	ManiacShowsManiac   = 2

	RevealNone = 0
	RevealTeam = 1
	RevealRole = 2

	SecondTieAsk    = 0
	SecondTieNobody = 1
	SecondTieAll    = 2

	LastWordsOn  = 0
	LastWordsOff = 1

	ManiacVsMafiaManiac = 0
	ManiacVsMafiaMafia  = 1
	ManiacVsMafiaDraw   = 2

	// DefaultFoulLimit is foul_limit's default: the speech is lost at the
	// 3rd foul, the player removed at the 4th.
	DefaultFoulLimit = 4
	// MaxFoulLimit is the largest foul_limit accepted.
	MaxFoulLimit = 10

	// DefaultRoundLimit is round_limit's default: far more rounds than a
	// game of 20 players can last while it is played (every round of a
	// real game loses a player or two), so that only a game nobody plays
	// meets it.
	DefaultRoundLimit = 30
	// MaxRoundLimit is the largest round_limit accepted.
	MaxRoundLimit = 99
)

// DefaultRules returns the ruleset docs/rules.md gives when no option is named.
func DefaultRules() Ruleset {
	return Ruleset{FoulLimit: DefaultFoulLimit, RoundLimit: DefaultRoundLimit}
}

// Option describes one named option: its name as docs/rules.md and scenarios
// spell it, and its values (the first is the default). A number
// (foul_limit, round_limit) lists no values: it takes Min..Max.
type Option struct {
	Name     string
	Values   []string
	Min, Max int // a number's range
	field    func(*Ruleset) *uint8
}

func choice(name string, values []string, field func(*Ruleset) *uint8) Option {
	return Option{Name: name, Values: values, field: field}
}

func number(name string, min, max int, field func(*Ruleset) *uint8) Option {
	return Option{Name: name, Min: min, Max: max, field: field}
}

// Options lists every named option of docs/rules.md, in the rulebook's order,
// then the engine's own round_limit (docs/rulings.md).
var Options = []Option{
	choice("first_night", []string{"full", "meeting"}, func(r *Ruleset) *uint8 { return &r.FirstNight }),
	choice("mafia_kill", []string{"senior", "unanimous"}, func(r *Ruleset) *uint8 { return &r.MafiaKill }),
	choice("maniac_check", []string{"not_mafia", "mafia", "maniac"}, func(r *Ruleset) *uint8 { return &r.ManiacCheck }),
	choice("doctor_repeat", []string{"once_per_game", "not_twice_in_a_row"}, func(r *Ruleset) *uint8 { return &r.DoctorRepeat }),
	choice("reveal_on_death", []string{"none", "team", "role"}, func(r *Ruleset) *uint8 { return &r.RevealOnDeath }),
	choice("second_tie", []string{"ask", "nobody", "all"}, func(r *Ruleset) *uint8 { return &r.SecondTie }),
	choice("last_words", []string{"on", "off"}, func(r *Ruleset) *uint8 { return &r.LastWords }),
	number("foul_limit", 0, MaxFoulLimit, func(r *Ruleset) *uint8 { return &r.FoulLimit }),
	choice("maniac_vs_mafia_1x1", []string{"maniac", "mafia", "draw"}, func(r *Ruleset) *uint8 { return &r.ManiacVsMafia }),
	number("round_limit", 1, MaxRoundLimit, func(r *Ruleset) *uint8 { return &r.RoundLimit }),
}

func findOption(name string) *Option {
	for i := range Options {
		if Options[i].Name == name {
			return &Options[i]
		}
	}
	return nil
}

// Set changes one option by name and value as docs/rules.md spells them. An
// unknown name or value is refused with CodeUnknownOption or
// CodeBadOptionValue and changes nothing.
func (r *Ruleset) Set(name, value string) error {
	o := findOption(name)
	if o == nil {
		return &Error{Code: CodeUnknownOption, Name: name}
	}
	if o.Values == nil {
		n, err := strconv.Atoi(value)
		if err != nil || n < o.Min || n > o.Max {
			return &Error{Code: CodeBadOptionValue, Name: name, Value: value, N: o.Max}
		}
		*o.field(r) = uint8(n)
		return nil
	}
	for i, v := range o.Values {
		if v == value {
			*o.field(r) = uint8(i)
			return nil
		}
	}
	return &Error{Code: CodeBadOptionValue, Name: name, Value: value}
}

// Get returns an option's value by name as docs/rules.md spells it, and whether
// the name is known.
func (r Ruleset) Get(name string) (string, bool) {
	o := findOption(name)
	if o == nil {
		return "", false
	}
	v := *o.field(&r)
	if o.Values == nil {
		return strconv.Itoa(int(v)), true
	}
	if int(v) < len(o.Values) {
		return o.Values[v], true
	}
	return "", false
}

// Map returns every option's value by name.
func (r Ruleset) Map() map[string]string {
	m := make(map[string]string, len(Options))
	for _, o := range Options {
		m[o.Name], _ = r.Get(o.Name)
	}
	return m
}

// Changed returns the names of the options that differ from the defaults, sorted.
func (r Ruleset) Changed() []string {
	d := DefaultRules()
	var out []string
	for _, o := range Options {
		a, _ := r.Get(o.Name)
		b, _ := d.Get(o.Name)
		if a != b {
			out = append(out, o.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Valid reports whether every option holds a value the rulebook names.
func (r Ruleset) Valid() bool {
	return r.FirstNight <= FirstNightMeeting && r.MafiaKill <= MafiaKillUnanimous &&
		r.DoctorRepeat <= DoctorNotTwiceInARow && r.ManiacCheck <= ManiacShowsManiac &&
		r.RevealOnDeath <= RevealRole && r.SecondTie <= SecondTieAll && r.LastWords <= LastWordsOff &&
		r.ManiacVsMafia <= ManiacVsMafiaDraw && r.FoulLimit <= MaxFoulLimit && r.RoundLimit <= MaxRoundLimit
}

// ParseRules builds a ruleset from the defaults and the named options.
func ParseRules(opts map[string]string) (Ruleset, error) {
	r := DefaultRules()
	names := make([]string, 0, len(opts))
	for k := range opts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if err := r.Set(k, opts[k]); err != nil {
			return DefaultRules(), err
		}
	}
	return r, nil
}
