package assist_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheHostLinksSeatsToTheRosterAfterTheGame (issue 29, defect 2): a
// club's game made with every seat a guest (as a phone offline made it)
// counts for nobody; after the game its host links the seats to roster
// entries (PUT /host/api/games/{id}/people with the club's code) and the
// season's standings count the players. Without the club's code, with an
// id of another club's roster, one entry on two seats, a list of another
// length, or for a game of no club, it is refused.
func TestTheHostLinksSeatsToTheRosterAfterTheGame(t *testing.T) {
	ts := hosttest.StartServer(t)
	names := []string{"Nino", "Giorgi", "Tamar", "Dato", "Levan", "Ana", "Saba"}
	cl, people := hosttest.NewClubWith(t, ts, names...)
	other, stranger := hosttest.NewClubWith(t, ts, "Eka")
	req := map[string]any{"names": names, "deal": record.DealManual, "roles": hosttest.Roles7, "club_token": cl.Token,
		"club": map[string]any{"club": cl.ID, "day": "2026-12-01"}}
	var c hosttest.Created
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("create the club's game: %d", code)
	}
	hosttest.PlayClubGame(t, ts, c)
	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/clubs/"+cl.ID+"/seasons/winter", cl.Token,
		map[string]any{"name": "Winter", "from": "2026-12-01", "to": "2027-02-28"}, nil); code != http.StatusOK {
		t.Fatalf("the season: %d", code)
	}
	standing := func() []string {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/host/api/clubs/"+cl.ID+"/seasons/winter/standings.csv?lang=en", nil)
		ts.Clubs.ServeHTTP(rec, r)
		var out []string
		for _, row := range hosttest.ReadCSV(t, rec.Body)[1:] {
			out = append(out, row[2]+" "+row[4])
		}
		slices.Sort(out)
		return out
	}
	if got := standing(); len(got) != 0 {
		t.Fatalf("a game of guests counts for %v", got)
	}
	ids := make([]string, 7)
	for i := range ids {
		ids[i] = people[i].ID
	}
	put := func(token string, body map[string]any) (int, string) {
		var out struct{ Error struct{ Code string } }
		code := hosttest.Call(t, "PUT", ts.URL+"/host/api/games/"+c.ID+"/people", token, body, &out)
		return code, out.Error.Code
	}
	twice := slices.Clone(ids)
	twice[1] = ids[0]
	foreign := slices.Clone(ids)
	foreign[6] = stranger[0].ID
	for _, b := range []struct {
		what  string
		token string
		body  map[string]any
		code  int
		error string
	}{
		{"without the club's code", c.HostToken, map[string]any{"people": ids}, http.StatusForbidden, "bad_token"},
		{"with another club's code", c.HostToken, map[string]any{"people": ids, "club_token": other.Token}, http.StatusForbidden, "bad_token"},
		{"not the game's host", "nope", map[string]any{"people": ids, "club_token": cl.Token}, http.StatusForbidden, "bad_token"},
		{"an entry of another club", c.HostToken, map[string]any{"people": foreign, "club_token": cl.Token}, http.StatusBadRequest, "bad_settings"},
		{"one entry on two seats", c.HostToken, map[string]any{"people": twice, "club_token": cl.Token}, http.StatusBadRequest, "bad_settings"},
		{"six seats of seven", c.HostToken, map[string]any{"people": ids[:6], "club_token": cl.Token}, http.StatusBadRequest, "bad_settings"},
	} {
		if code, e := put(b.token, b.body); code != b.code || e != b.error {
			t.Errorf("%s: %d %s; want %d %s", b.what, code, e, b.code, b.error)
		}
	}
	if code, e := put(c.HostToken, map[string]any{"people": ids, "club_token": cl.Token}); code != http.StatusOK {
		t.Fatalf("the host links the seats: %d %s", code, e)
	}
	// name games, sorted: every seat counts now.
	want := []string{"Ana 1", "Dato 1", "Giorgi 1", "Levan 1", "Nino 1", "Saba 1", "Tamar 1"}
	if got := standing(); !slices.Equal(got, want) {
		t.Errorf("the standings after the link:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	var plain hosttest.Created
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", map[string]any{"names": names, "deal": record.DealManual, "roles": hosttest.Roles7}, &plain); code != http.StatusCreated {
		t.Fatal(code)
	}
	var out struct{ Error struct{ Code string } }
	if code := hosttest.Call(t, "PUT", ts.URL+"/host/api/games/"+plain.ID+"/people", plain.HostToken, map[string]any{"people": ids, "club_token": cl.Token}, &out); code != http.StatusBadRequest || out.Error.Code != "bad_settings" {
		t.Errorf("a game of no club: %d %s", code, out.Error.Code)
	}
}
