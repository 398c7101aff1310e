package locale

import (
	"embed"
	"fmt"
	"sort"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// The catalogs: one TOML file per language, named active.<lang>.toml. A
// message is a string, or a table of plural forms (one, few, many, other as
// the language needs). Message ids are the tables' keys joined with dots:
// [error] already_healed is "error.already_healed".
//
//go:embed catalog/active.*.toml
var catalogFS embed.FS

// langCatalog is one language's loaded messages: a bundle holding that
// language alone, a localizer of it, and every message by id.
type langCatalog struct {
	loc  *i18n.Localizer
	msgs map[string]*i18n.Message
}

// langCatalogs are the catalogs, each parsed on its first use: a program
// speaking one language (the host's page in WebAssembly, whose start parsed
// all three: about 0.2 of its 0.3 CPU-s in a phone's baseline compiler)
// parses that one, and English only if a message is missing from it.
var langCatalogs = map[Lang]*lazyCatalog{En: {lang: En}, Ka: {lang: Ka}, Ru: {lang: Ru}}

// lazyCatalog loads its language's catalog once, on first use.
type lazyCatalog struct {
	lang Lang
	once sync.Once
	cat  *langCatalog
	err  error
}

// catalogOf returns l's catalog, parsing it on first use. The catalogs are
// part of the build, so a broken one is a programming error: it panics (and
// the tests fail).
func catalogOf(l Lang) *langCatalog {
	lc := langCatalogs[l]
	if lc == nil {
		lc = langCatalogs[En]
	}
	lc.once.Do(func() { lc.cat, lc.err = loadLang(lc.lang) })
	if lc.err != nil {
		panic("locale: " + lc.err.Error())
	}
	return lc.cat
}

// loadLang parses l's embedded catalog.
func loadLang(l Lang) (*langCatalog, error) {
	path := "catalog/active." + string(l) + ".toml"
	buf, err := catalogFS.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseLang(l, buf, path)
}

// parseLang parses buf, l's catalog read from path, into a bundle of its
// own.
func parseLang(l Lang, buf []byte, path string) (*langCatalog, error) {
	bundle := i18n.NewBundle(language.Make(string(l)))
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	f, err := bundle.ParseMessageFileBytes(buf, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	byID := make(map[string]*i18n.Message, len(f.Messages))
	for _, m := range f.Messages {
		byID[m.ID] = m
	}
	return &langCatalog{loc: i18n.NewLocalizer(bundle, string(l)), msgs: byID}, nil
}

// catalog is every language's messages by id (for the tests and Messages).
type catalog struct {
	msgs map[Lang]map[string]*i18n.Message
}

// theCatalog returns every language's catalog, parsing those not yet used.
func theCatalog() *catalog {
	c := &catalog{msgs: make(map[Lang]map[string]*i18n.Message)}
	for _, l := range Langs() {
		c.msgs[l] = catalogOf(l).msgs
	}
	return c
}

// ids returns the message ids of a language's catalog, sorted.
func (c *catalog) ids(l Lang) []string {
	out := make([]string, 0, len(c.msgs[l]))
	for id := range c.msgs[l] {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// forms returns the plural forms a message defines ("other" alone for a
// plain string).
func (c *catalog) forms(l Lang, id string) []string {
	m := c.msgs[l][id]
	if m == nil {
		return nil
	}
	var out []string
	for _, f := range []struct {
		name, text string
	}{{"zero", m.Zero}, {"one", m.One}, {"two", m.Two}, {"few", m.Few}, {"many", m.Many}, {"other", m.Other}} {
		if f.text != "" {
			out = append(out, f.name)
		}
	}
	return out
}

// texts returns every form's text of a message.
func (c *catalog) texts(l Lang, id string) []string {
	m := c.msgs[l][id]
	if m == nil {
		return nil
	}
	var out []string
	for _, t := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}
