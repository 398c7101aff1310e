package locale

// Messages returns every message of a language's catalog, by id, as its
// plural forms: "one", "few", "many", "other" and so on as the catalog
// defines them; a plain message has "other" alone. The texts are the
// templates as written ({{.Field}}), for a client that renders them itself
// (the browser client picks the form with the language's plural rules). A
// language the catalogs do not hold gets nil. The map is the caller's own.
func Messages(l Lang) map[string]map[string]string {
	if _, ok := langCatalogs[l]; !ok {
		return nil
	}
	byID := catalogOf(l).msgs
	out := make(map[string]map[string]string, len(byID))
	for id, m := range byID {
		forms := make(map[string]string, 2)
		for _, f := range []struct{ name, text string }{
			{"zero", m.Zero}, {"one", m.One}, {"two", m.Two}, {"few", m.Few}, {"many", m.Many}, {"other", m.Other},
		} {
			if f.text != "" {
				forms[f.name] = f.text
			}
		}
		out[id] = forms
	}
	return out
}
