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

// TestOrganiser_TheScreenGivesExtrasAndNamesTheReferee: the organiser's
// page of a tournament carries, in Georgian, English and Russian, the
// sentences of a finished table's extra points (the range with {Min} and
// {Max} left for the script, saved, a real table's note) and of the
// referee's account, each from that language's catalog and no two
// languages' the same; its script saves a table's extras and names the
// referee through the API.
func TestOrganiser_TheScreenGivesExtrasAndNamesTheReferee(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hs := httptest.NewServer(clubhttp.New(clubhttp.Config{Store: db}))
	defer hs.Close()
	get := func(path string) string {
		res, err := http.Get(hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		return string(b)
	}
	block := regexp.MustCompile(`(?s)<script type="application/json" id="organiser-data">(.*?)</script>`)
	want := map[string]map[string]string{
		"ka": {"organiser.extra": "დამატებითი ქულები", "organiser.extra_save": "დამატებითი ქულების შენახვა",
			"organiser.extra_range":   "თითოეულ მოთამაშეს {Min}‑დან {Max}‑მდე (ტურნირის ქულების წესით); ცარიელი ველი: არაფერი.",
			"organiser.referee_login": "ანგარიში {Name}"},
		"en": {"organiser.extra": "Extra points", "organiser.extra_save": "Save the extra points",
			"organiser.extra_range":   "Each player from {Min} to {Max} (the tournament's scoring); an empty field: none.",
			"organiser.referee_login": "account {Name}"},
		"ru": {"organiser.extra": "Дополнительные баллы", "organiser.extra_save": "Сохранить дополнительные баллы",
			"organiser.extra_range":   "Каждому игроку от {Min} до {Max} (по правилам подсчёта турнира); пустое поле: нет.",
			"organiser.referee_login": "аккаунт {Name}"},
	}
	ids := []string{"organiser.extra_saved", "organiser.extra_at_table", "organiser.referee_account",
		"organiser.referee_change", "organiser.referee_save", "organiser.you_referee", "organiser.you_public",
		"organiser.extra_rule", "organiser.extra_counting_host", "organiser.extra_counting_here"}
	seen := map[string]map[string]bool{}
	for lang, sentences := range want {
		m := block.FindStringSubmatch(get("/host/clubs/c1/organiser/t1?lang=" + lang))
		if m == nil {
			t.Fatalf("%s: no data block", lang)
		}
		var d struct{ Messages map[string]string }
		if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
			t.Fatal(err)
		}
		for id, s := range sentences {
			if d.Messages[id] != s {
				t.Errorf("%s: %s = %q; want %q", lang, id, d.Messages[id], s)
			}
		}
		for _, id := range ids {
			s := d.Messages[id]
			if s == "" || s == id || strings.Contains(s, "{{") {
				t.Errorf("%s: %s has no sentence: %q", lang, id, s)
			}
			if seen[id] == nil {
				seen[id] = map[string]bool{}
			}
			if seen[id][s] {
				t.Errorf("%s: %s is the same sentence as another language's", lang, id)
			}
			seen[id][s] = true
		}
	}
	js := get("/host/clubs/organiser.js")
	for _, call := range []string{"/extra`", "{ extra }", "step('PUT', '/referee'", "referee_account:"} {
		if !strings.Contains(js, call) {
			t.Errorf("the script has no %q", call)
		}
	}
}
