package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"mafia/internal/static"
	"mafia/locale"
)

// catalogJSON is one language's catalog as the page reads it.
type catalogJSON struct {
	Lang     string                       `json:"lang"`
	Messages map[string]map[string]string `json:"messages"`
}

var (
	catalogsOnce sync.Once
	catalogs     map[locale.Lang]*static.File
)

func loadCatalogs() {
	catalogs = map[locale.Lang]*static.File{}
	for _, l := range locale.Langs() {
		b, err := json.Marshal(catalogJSON{Lang: string(l), Messages: locale.Messages(l)})
		if err != nil {
			panic("web: " + err.Error())
		}
		catalogs[l] = static.NewFile(b, "application/json; charset=utf-8")
	}
}

// serveCatalog serves GET /api/i18n/{lang}: the language's messages by
// id, each as its plural forms ("one", "few", "many", "other"; a plain
// message has "other" alone), with their {{.Field}} templates, as
// {"lang": "ka", "messages": {...}}. The page picks a plural form with
// Intl.PluralRules and fills the fields itself. A language the catalogs do
// not hold is 404.
func serveCatalog(w http.ResponseWriter, r *http.Request) {
	catalogsOnce.Do(loadCatalogs)
	name := r.PathValue("lang")
	l, ok := locale.Parse(name)
	if !ok || string(l) != strings.ToLower(name) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error":{"code":"not_found","message":"no such language"}}` + "\n"))
		return
	}
	catalogs[l].Serve(w, r, "no-cache")
}
