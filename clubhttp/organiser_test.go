package clubhttp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
)

// TestOrganiser_TheScreenIsServedInEachLanguageWithItsSentencesAndFiles:
// the organiser's page of a club (and of one of its tournaments) is served
// in Georgian, English and Russian, its sentences (a JSON block the script
// reads, never run) from that language's catalog, every one of them
// present and the tie-breaks named; its script and style are served with
// their types, and the page loads nothing from elsewhere.
func TestOrganiser_TheScreenIsServedInEachLanguageWithItsSentencesAndFiles(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hs := httptest.NewServer(clubhttp.New(clubhttp.Config{Store: db}))
	defer hs.Close()
	get := func(path string) (*http.Response, string) {
		res, err := http.Get(hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	block := regexp.MustCompile(`(?s)<script type="application/json" id="organiser-data">(.*?)</script>`)
	for lang, words := range map[string][]string{"ka": {"ორგანიზატორის ეკრანი", "ტურნირის შექმნა"},
		"en": {"The organiser's screen", "Make the tournament"}, "ru": {"Экран организатора", "Создать турнир"}} {
		for _, path := range []string{"/host/clubs/c1/organiser", "/host/clubs/c1/organiser/t1"} {
			res, body := get(path + "?lang=" + lang)
			m := block.FindStringSubmatch(body)
			if res.StatusCode != http.StatusOK || m == nil {
				t.Fatalf("%s %s: %d, data block found: %v", lang, path, res.StatusCode, m != nil)
			}
			var d struct {
				Lang      string
				Messages  map[string]string
				TieBreaks []string `json:"tie_breaks"`
				Presets   map[string]json.RawMessage
			}
			if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
				t.Fatalf("%s: the data block: %v", lang, err)
			}
			if d.Lang != lang || d.Messages["organiser.title"] != words[0] || d.Messages["organiser.create"] != words[1] ||
				len(d.Presets) != 2 || len(d.TieBreaks) != 7 {
				t.Errorf("%s %s: %+v", lang, path, d)
			}
			for id, s := range d.Messages {
				if s == "" || s == id {
					t.Errorf("%s: %s has no sentence", lang, id)
				}
			}
			for _, tb := range d.TieBreaks {
				if s := d.Messages["organiser.tie."+tb]; s == "" || s == "organiser.tie."+tb {
					t.Errorf("%s: the tie-break %s is not named", lang, tb)
				}
			}
			if strings.Contains(body, "http://") || strings.Contains(body, "https://") {
				t.Errorf("%s: the page loads from elsewhere", lang)
			}
			if !strings.Contains(body, `data-club="c1"`) || strings.HasSuffix(path, "t1") != strings.Contains(body, `data-tournament="t1"`) {
				t.Errorf("%s %s: the club and tournament are not on the page", lang, path)
			}
		}
	}
	for path, kind := range map[string]string{"/host/clubs/organiser.js": "text/javascript", "/host/clubs/organiser.css": "text/css"} {
		if res, body := get(path); res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), kind) || len(body) < 500 {
			t.Errorf("%s: %d %s, %d bytes", path, res.StatusCode, res.Header.Get("Content-Type"), len(body))
		}
	}
}
