package clubhttp_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
)

// TestTournaments_ATournamentCountsByTheNamedPreset: a tournament made
// with {"scoring": {"preset": "fiim"}} counts by the FIIM table (not by
// zeros), keeping the preset's name; a number sent beside the preset's
// name overrides the preset's (and the scoring then names no preset);
// none sent is the club's scoring; an unknown preset is refused bad_club
// with the sentence naming it in ka, en and ru.
func TestTournaments_ATournamentCountsByTheNamedPreset(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hs := httptest.NewServer(clubhttp.New(clubhttp.Config{Store: db, Games: games{}}))
	defer hs.Close()
	var c struct{ ID, Token string }
	if code := do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Batumi club"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	var ids []string
	for i := 1; i <= 10; i++ {
		var p club.Person
		if code := do(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token, map[string]any{"name": fmt.Sprintf("Giorgi %02d", i)}, &p); code != http.StatusCreated {
			t.Fatalf("add a player: %d", code)
		}
		ids = append(ids, p.ID)
	}
	base := hs.URL + "/host/api/clubs/" + c.ID + "/tournaments"
	makeOne := func(scoring any) (int, tournamentAnswer) {
		req := map[string]any{"name": "Cup", "from": "2026-12-05", "to": "2026-12-05", "players": ids, "tables": 1,
			"games": 2, "final": map[string]any{"size": 0}}
		if scoring != nil {
			req["scoring"] = scoring
		}
		var tr tournamentAnswer
		code := do(t, "POST", base, c.Token, req, &tr)
		return code, tr
	}
	overridden := club.FIIMScoring()
	overridden.Win, overridden.Preset = 200, ""
	for _, tc := range []struct {
		name    string
		scoring any
		want    club.Scoring
	}{
		{"the preset's numbers", map[string]any{"preset": "fiim"}, club.FIIMScoring()},
		{"a number beside it overrides", map[string]any{"preset": "fiim", "win": 2}, overridden},
		{"the same number keeps the name", map[string]any{"preset": "fiim", "win": 1}, club.FIIMScoring()},
		{"none: the club's", nil, club.DefaultScoring()},
	} {
		code, tr := makeOne(tc.scoring)
		if code != http.StatusCreated || tr.Scoring != tc.want {
			t.Errorf("%s: %d %+v; want %+v", tc.name, code, tr.Scoring, tc.want)
		}
	}
	for lang, word := range map[string]string{"ka": "ქულების სისტემა", "en": "scoring system", "ru": "Системы подсчёта"} {
		var e refusal
		code := do(t, "POST", base+"?lang="+lang, c.Token, map[string]any{"name": "Cup", "from": "2026-12-05", "to": "2026-12-05",
			"players": ids, "tables": 1, "games": 2, "scoring": map[string]any{"preset": "nope"}}, &e)
		if code != http.StatusBadRequest || e.Error.Code != "bad_club" || !strings.Contains(e.Error.Message, "nope") ||
			!strings.Contains(e.Error.Message, word) {
			t.Errorf("%s: an unknown preset: %d %+v; want 400 bad_club naming it", lang, code, e)
		}
	}
}
