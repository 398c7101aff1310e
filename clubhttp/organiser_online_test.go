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

// TestOrganiser_TheScreenRunsAnOnlineTournament: the organiser's page of a
// tournament carries, in Georgian, English and Russian, the sentences of
// an online tournament (the form's online rules, "Open this round
// online", each table's state, the players it waits for, "Start now"),
// each from that language's catalog; its script calls the online round's
// API (open, state, start) and refreshes the tables' states while open.
func TestOrganiser_TheScreenRunsAnOnlineTournament(t *testing.T) {
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
		"ka": {"organiser.open_online": "ამ რაუნდის ონლაინ გახსნა", "organiser.start_now": "ახლავე დაწყება",
			"organiser.online_waiting_for": "ელოდება: {Names}", "organiser.online_playing": "მიმდინარეობს თამაში"},
		"en": {"organiser.open_online": "Open this round online", "organiser.start_now": "Start now",
			"organiser.online_waiting_for": "Waiting for: {Names}", "organiser.online_playing": "Playing"},
		"ru": {"organiser.open_online": "Открыть этот тур онлайн", "organiser.start_now": "Начать сейчас",
			"organiser.online_waiting_for": "Ждём: {Names}", "organiser.online_playing": "Идёт игра"},
	}
	ids := []string{"organiser.online", "organiser.no_show", "organiser.no_show_stand_in", "organiser.no_show_forfeit",
		"organiser.wait", "organiser.rated", "organiser.online_waiting", "organiser.online_finished", "organiser.online_link"}
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
			if s == "" || s == id {
				t.Errorf("%s: %s has no sentence", lang, id)
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
	for _, call := range []string{"/online`", "/start`", "setInterval(refreshOnline", "no_show:", "wait_s:", "rated:"} {
		if !strings.Contains(js, call) {
			t.Errorf("the script has no %q", call)
		}
	}
}
