package assist_test

import (
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
	"mafia/club"
)

// TestEveryCSVHasAMachineTwinWithColumnIDs pins defect 8 (issue 29): beside
// each CSV with the catalogs' column names (the protocol's, the standings',
// the club's games') there is one whose header row is the columns' ids,
// the same in Georgian, English and Russian, over the same rows; the screens
// that offer a CSV link to it.
func TestEveryCSVHasAMachineTwinWithColumnIDs(t *testing.T) {
	ts := hosttest.StartServer(t)
	names := []string{"ნინო", "Гиорги", "Tamar", "Дато", "Levan", "Ana", "Saba"}
	cl, people := hosttest.NewClubWith(t, ts, names...)
	ids := make([]string, 7)
	for i := range ids {
		ids[i] = people[i].ID
	}
	req := map[string]any{"names": names, "deal": record.DealManual, "roles": hosttest.Roles7, "club_token": cl.Token,
		"club": map[string]any{"club": cl.ID, "day": "2026-12-01", "host": "Irakli", "table": "A", "number": 1, "people": ids}}
	var c hosttest.Created
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("create the club's game: %d", code)
	}
	hosttest.PlayClubGame(t, ts, c)
	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/clubs/"+cl.ID+"/seasons/winter", cl.Token,
		map[string]any{"name": "Winter", "from": "2026-12-01", "to": "2027-02-28"}, nil); code != 200 {
		t.Fatalf("the season: %d", code)
	}
	get := func(path string) (*http.Response, [][]string) {
		t.Helper()
		rq, _ := http.NewRequest("GET", ts.URL+path, nil)
		rq.Header.Set("Authorization", "Bearer "+c.HostToken)
		res, err := http.DefaultClient.Do(rq)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		return res, hosttest.ReadCSV(t, res.Body)
	}
	for _, tc := range []struct {
		name, path string
		ids        []string
	}{
		{"the protocol", "/host/api/games/" + c.ID + "/protocol.csv", append([]string{"game"}, record.CSVHeader...)},
		{"the standings", "/host/api/clubs/" + cl.ID + "/seasons/winter/standings.csv", club.StandingsHeader},
		{"the club's games", "/host/api/clubs/" + cl.ID + "/games.csv?season=winter", club.CSVHeader},
	} {
		sep := "?"
		if strings.Contains(tc.path, "?") {
			sep = "&"
		}
		_, named := get(tc.path + sep + "lang=ka")
		if slices.Equal(named[0], tc.ids) {
			t.Errorf("%s: the Georgian CSV's header is the ids", tc.name)
		}
		for _, lang := range []string{"ka", "en", "ru"} {
			res, rows := get(tc.path + sep + "header=ids&lang=" + lang)
			if !slices.Equal(rows[0], tc.ids) {
				t.Errorf("%s (%s): header %v; want the ids %v", tc.name, lang, rows[0], tc.ids)
			}
			if !slices.EqualFunc(rows[1:], named[1:], slices.Equal) {
				t.Errorf("%s (%s): the machines' rows differ from the named CSV's", tc.name, lang)
			}
			if d := res.Header.Get("Content-Disposition"); !strings.Contains(d, ".ids.csv") {
				t.Errorf("%s (%s): file %q; want a name ending .ids.csv", tc.name, lang, d)
			}
		}
	}
	// The screens that offer a CSV link to its twin.
	for _, tc := range []struct{ page, link string }{
		{"/host/games/" + c.ID + "?lang=ka", "/host/api/games/" + c.ID + "/protocol.csv?header=ids"},
		{"/host/clubs/" + cl.ID + "/seasons/winter?lang=ru", "/host/api/clubs/" + cl.ID + "/seasons/winter/standings.csv?header=ids"},
		{"/host/clubs/" + cl.ID + "/seasons/winter?lang=ru", "/host/api/clubs/" + cl.ID + "/games.csv?season=winter&amp;header=ids"},
	} {
		res, err := http.Get(ts.URL + tc.page)
		if err != nil {
			t.Fatal(err)
		}
		if page := hosttest.ReadAll(t, res); !strings.Contains(page, `href="`+tc.link+`"`) {
			t.Errorf("%s has no link to %s", tc.page, tc.link)
		}
	}
	for _, js := range []struct{ file, link string }{
		{"static/js/end.js", "/protocol.csv?header=ids"},
		{"static/js/club_admin.js", "/standings.csv?header=ids"},
		{"static/js/club_admin.js", "/games.csv?header=ids"},
	} {
		src, err := os.ReadFile(js.file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), js.link) {
			t.Errorf("%s has no link to %s", js.file, js.link)
		}
	}
}
