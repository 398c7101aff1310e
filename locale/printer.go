package locale

import (
	"strconv"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"mafia/engine"
)

// Printer renders sentences in one language. It is safe for concurrent use.
type Printer struct {
	lang Lang
}

// New returns a printer for l; a language the catalogs do not hold gets
// English. The language's catalog is parsed on the first sentence any
// printer of it renders, not here.
func New(l Lang) *Printer {
	if _, ok := Parse(string(l)); !ok {
		l = En
	}
	return &Printer{lang: l}
}

// Lang returns the printer's language.
func (p *Printer) Lang() Lang { return p.lang }

// Has reports whether the printer's catalog holds the message id.
func (p *Printer) Has(id string) bool { return catalogOf(p.lang).msgs[id] != nil }

// T renders the message id with data (nil for none). A message missing
// from the language's catalog falls back to English; one missing from every
// catalog renders as its id, so that the gap shows.
func (p *Printer) T(id string, data map[string]any) string {
	return p.localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data}, id)
}

// Plural renders the message id in the plural form count takes in the
// printer's language ("1 голос", "2 голоса", "5 голосов"). data is passed to
// the template; nil passes {"Count": count}.
func (p *Printer) Plural(id string, count int, data map[string]any) string {
	if data == nil {
		data = map[string]any{"Count": count}
	}
	return p.localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count}, id)
}

// localize renders lc in the printer's language, else in English (a
// message the language's catalog lacks: English's catalog is parsed then),
// else as its id.
func (p *Printer) localize(lc *i18n.LocalizeConfig, id string) string {
	s, err := catalogOf(p.lang).loc.Localize(lc)
	if s == "" && err != nil && p.lang != En {
		s, err = catalogOf(En).loc.Localize(lc)
	}
	if s == "" && err != nil {
		return id
	}
	return s
}

// Role returns a role's name ("мирный житель", "დონი").
func (p *Printer) Role(r engine.Role) string { return p.name("role", r.String()) }

// Team returns a team's name.
func (p *Printer) Team(t engine.Team) string { return p.name("team", t.String()) }

// Phase returns a phase's name.
func (p *Printer) Phase(ph engine.Phase) string { return p.name("phase", ph.String()) }

// Result returns a check's answer ("not mafia", "არ არის დეტექტივი").
func (p *Printer) Result(r engine.Result) string { return p.name("result", r.String()) }

// Cause returns why a player left the game, as a short phrase.
func (p *Printer) Cause(c engine.Cause) string { return p.name("cause", c.String()) }

// Winner returns the sentence that announces a result ("The town wins!").
func (p *Printer) Winner(w engine.Winner) string { return p.name("winner", w.String()) }

// name renders group.key, with "group.none" for an empty or unknown key.
func (p *Printer) name(group, key string) string {
	if key == "" || key == "?" || !p.Has(group+"."+key) {
		key = "none"
	}
	return p.T(group+"."+key, nil)
}

// Seat returns a seat number as the language writes it in running text
// ("4", "№4").
func (p *Printer) Seat(s engine.Seat) string {
	return p.T("seat.num", map[string]any{"Seat": int(s)})
}

// Seats returns a list of seats joined the language's way ("3, 5 and 6",
// "№3, №5 и №6").
func (p *Printer) Seats(seats []engine.Seat) string {
	items := make([]string, len(seats))
	for i, s := range seats {
		items[i] = p.Seat(s)
	}
	return p.And(items)
}

// And joins items with commas and the language's "and" before the last.
func (p *Printer) And(items []string) string { return p.join("list.and", items) }

// Or joins items with commas and the language's "or" before the last.
func (p *Printer) Or(items []string) string { return p.join("list.or", items) }

func (p *Printer) join(id string, items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return p.T(id, map[string]any{
		"Init": strings.Join(items[:len(items)-1], ", "),
		"Last": items[len(items)-1],
	})
}

// numbers joins seat numbers with commas only ("1, 2, 4"), for short lists
// inside a sentence (the voters of a tally).
func numbers(seats []engine.Seat) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = strconv.Itoa(int(s))
	}
	return strings.Join(parts, ", ")
}
