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

// catalog is the loaded bundle and, for lookups and tests, every message by
// language and id.
type catalog struct {
	bundle *i18n.Bundle
	msgs   map[Lang]map[string]*i18n.Message
}

var (
	loadOnce sync.Once
	loaded   *catalog
	loadErr  error
)

// theCatalog loads the embedded catalogs once. They are part of the build,
// so a broken one is a programming error: it panics (and the tests fail).
func theCatalog() *catalog {
	loadOnce.Do(func() { loaded, loadErr = loadCatalog() })
	if loadErr != nil {
		panic("locale: " + loadErr.Error())
	}
	return loaded
}

func loadCatalog() (*catalog, error) {
	c := &catalog{
		bundle: i18n.NewBundle(language.English),
		msgs:   make(map[Lang]map[string]*i18n.Message),
	}
	c.bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, l := range Langs() {
		path := "catalog/active." + string(l) + ".toml"
		buf, err := catalogFS.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := c.bundle.ParseMessageFileBytes(buf, path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		byID := make(map[string]*i18n.Message, len(f.Messages))
		for _, m := range f.Messages {
			byID[m.ID] = m
		}
		c.msgs[l] = byID
	}
	return c, nil
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
