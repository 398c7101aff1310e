package clubhttp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
	"mafia/store"
)

// TestExports_AGameAndASeasonInEachCommunitysJSON: a finished game of the
// club comes as our own JSON (with its points), as mafiaratings' and as
// Polemica's; a season's games likewise; an unknown format is refused
// bad_club naming it.
func TestExports_AGameAndASeasonInEachCommunitysJSON(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := club.Game{ID: "t1", Date: "2026-04-02", Rules: "std", Winner: "mafia", Table: "1", Number: 2, Referee: "Eka"}
	for i, role := range []string{"citizen", "don", "citizen", "mafia", "detective", "doctor", "maniac"} {
		g.Seats = append(g.Seats, club.Seat{Seat: i + 1, Name: "P" + string(rune('1'+i)), Role: role})
	}
	kept := games{"t1": g}
	h := clubhttp.New(clubhttp.Config{Store: db, Games: kept})
	hs := httptest.NewServer(h)
	defer hs.Close()
	var c struct{ ID, Token string }
	if code := do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Tbilisi"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	do(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID+"/seasons/s1", c.Token, map[string]any{"name": "Spring", "from": "2026-03-01", "to": "2026-05-31"}, nil)
	now := time.Now()
	if err := db.CreateTable(context.Background(), store.Table{ID: "t1", Kind: store.KindInPerson, Name: "t1", Status: "in_person", CreatedAt: now, UpdatedAt: now}, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.AddGame(context.Background(), c.ID, store.ClubGame{TableID: "t1", Day: "2026-04-02"}); err != nil {
		t.Fatal(err)
	}
	base := hs.URL + "/host/api/clubs/" + c.ID

	var own struct {
		Format string
		Game   struct {
			Game   club.Game
			Points []club.Line
		}
	}
	if code := do(t, "GET", base+"/games/t1/export.json", "", nil, &own); code != http.StatusOK || own.Format != "mafia" ||
		own.Game.Game.ID != "t1" || len(own.Game.Points) != 7 || own.Game.Points[1].Total != 100 {
		t.Errorf("our own: %d %+v", code, own)
	}
	var mr struct {
		Game club.MRGame
	}
	if code := do(t, "GET", base+"/games/t1/export.json?format=mafiaratings", "", nil, &mr); code != http.StatusOK ||
		mr.Game.Winner != "maf" || len(mr.Game.Players) != 7 || mr.Game.Players[1].Role != "don" || mr.Game.Players[6].Role != "" {
		t.Errorf("mafiaratings: %d %+v", code, mr)
	}
	var pg struct {
		Game club.PGame
	}
	if code := do(t, "GET", base+"/games/t1/export.json?format=polemica", "", nil, &pg); code != http.StatusOK ||
		pg.Game.Result == nil || *pg.Game.Result != 1 || pg.Game.Table != 1 || pg.Game.Num != 2 || pg.Game.Referee.Username != "Eka" ||
		*pg.Game.Players[4].Role != 3 {
		t.Errorf("polemica: %d %+v", code, pg)
	}
	var season struct {
		Format string
		Games  []club.PGame
	}
	if code := do(t, "GET", base+"/seasons/s1/games.json?format=polemica", "", nil, &season); code != http.StatusOK || len(season.Games) != 1 {
		t.Errorf("the season's games: %d %+v", code, season)
	}
	var bad struct {
		Error struct{ Code, Message string }
	}
	if code := do(t, "GET", base+"/games/t1/export.json?format=fiim-xml", "", nil, &bad); code != http.StatusBadRequest ||
		bad.Error.Code != "bad_club" || !strings.Contains(bad.Error.Message, "fiim-xml") {
		t.Errorf("an unknown format: %d %+v", code, bad)
	}
	if code := do(t, "GET", base+"/games/nope/export.json", "", nil, &bad); code != http.StatusNotFound {
		t.Errorf("a game not the club's: %d", code)
	}
}

// TestExports_ThePrintableStandingsLinkTheSeasonsGamesInEachFormat.
func TestExports_ThePrintableStandingsLinkTheSeasonsGamesInEachFormat(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hs := httptest.NewServer(clubhttp.New(clubhttp.Config{Store: db, Games: games{}}))
	defer hs.Close()
	var c struct{ ID, Token string }
	do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Tbilisi"}, &c)
	do(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID+"/seasons/s1", c.Token, map[string]any{"name": "Spring", "from": "2026-03-01", "to": "2026-05-31"}, nil)
	res, err := http.Get(hs.URL + "/host/clubs/" + c.ID + "/seasons/s1?lang=ru")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{"Игры в JSON:", "/seasons/s1/games.json\"", "/seasons/s1/games.json?format=mafiaratings\"",
		"/seasons/s1/games.json?format=polemica\"", "/seasons/s1/wall?lang=ru\""} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the printable standings lack %s", want)
		}
	}
}
