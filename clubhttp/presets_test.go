package clubhttp_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
)

// TestPresets_AClubChoosesAScoringSystemByName: a club made or changed
// with {"scoring": {"preset": "fiim"}} counts by the FIIM table (its
// numbers come back, and are kept); "club" gives the defaults back; an
// unknown preset is refused bad_club with the sentence that names it.
func TestPresets_AClubChoosesAScoringSystemByName(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hs := httptest.NewServer(clubhttp.New(clubhttp.Config{Store: db, Games: games{}}))
	defer hs.Close()

	var c struct {
		ID, Token string
		Scoring   club.Scoring
	}
	if code := do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "FIIM club", "scoring": map[string]any{"preset": "fiim"}}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	if c.Scoring != club.FIIMScoring() {
		t.Errorf("made with fiim: %+v; want %+v", c.Scoring, club.FIIMScoring())
	}
	var got struct{ Scoring club.Scoring }
	do(t, "GET", hs.URL+"/host/api/clubs/"+c.ID, c.Token, nil, &got)
	if got.Scoring != club.FIIMScoring() || got.Scoring.BestMove3 != 40 || got.Scoring.FirstKilled != 25 {
		t.Errorf("kept: %+v; want the FIIM table", got.Scoring)
	}
	got.Scoring = club.Scoring{}
	if code := do(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID, c.Token, map[string]any{"scoring": map[string]any{"preset": "club", "win": 5}}, &got); code != http.StatusOK {
		t.Fatalf("back to the club's defaults: %d", code)
	}
	if want, _ := club.PresetScoring("club"); got.Scoring != want {
		t.Errorf("club preset: %+v; want %+v", got.Scoring, want)
	}
	var bad struct {
		Error struct{ Code, Message string }
	}
	if code := do(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID, c.Token, map[string]any{"scoring": map[string]any{"preset": "nope"}}, &bad); code != http.StatusBadRequest ||
		bad.Error.Code != "bad_club" || !strings.Contains(bad.Error.Message, "nope") {
		t.Errorf("an unknown preset: %d %+v; want 400 bad_club naming it", code, bad)
	}
}
