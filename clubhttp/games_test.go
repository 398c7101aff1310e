package clubhttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
	"mafia/store"
)

// games are the games a club counts, as a keeper other than the
// assistant would offer them (clubhttp.Games): by table id, each counted
// or not.
type games map[string]club.Game

func (gs games) ClubGame(_ context.Context, id string) (club.Game, bool) {
	g, ok := gs[id]
	return g, ok
}

// do sends a JSON request with the club's code and decodes the answer.
func do(t *testing.T, method, url, token string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %s: %v\n%s", method, url, res.Status, err, b)
		}
	}
	return res.StatusCode
}

// TestGames_TheStandingsCountWhatTheGamesKeeperOffers: the club keeps only
// its index of games; its standings count each game of the index as its
// keeper (Config.Games) reads it, and leave out one the keeper does not
// count (unfinished, gone, unreadable). The clubs know no in-person game
// of their own: any keeper of club.Games will do (a tournament's, next).
func TestGames_TheStandingsCountWhatTheGamesKeeperOffers(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	seats := func(winner string) club.Game {
		g := club.Game{Date: "2026-04-02", Rules: "x", Winner: winner}
		for i, role := range []string{"citizen", "don", "citizen", "mafia", "detective", "doctor", "citizen"} {
			g.Seats = append(g.Seats, club.Seat{Seat: i + 1, Name: string(rune('A' + i)), Role: role})
		}
		return g
	}
	kept := games{"t1": seats("town"), "t2": seats("mafia")}
	h := clubhttp.New(clubhttp.Config{Store: db, Games: kept})
	hs := httptest.NewServer(h)
	defer hs.Close()

	var c struct{ ID, Token string }
	if code := do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Tbilisi club"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	var p club.Person
	if code := do(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token, map[string]any{"name": "Nino"}, &p); code != http.StatusCreated {
		t.Fatalf("add Nino: %d", code)
	}
	g := kept["t1"]
	g.Seats[0].Person = p.ID
	kept["t1"] = g
	if code := do(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID+"/seasons/spring", c.Token,
		map[string]any{"name": "Spring", "from": "2026-03-01", "to": "2026-05-31"}, nil); code != http.StatusOK {
		t.Fatalf("a season: %d", code)
	}
	for _, id := range []string{"t1", "t2", "t3"} { // t3: in the index, not counted by its keeper
		now := time.Now()
		if err := db.CreateTable(context.Background(), store.Table{ID: id, Kind: store.KindInPerson, Name: id, Status: "in_person",
			CreatedAt: now, UpdatedAt: now}, nil); err != nil {
			t.Fatal(err)
		}
		if err := h.AddGame(context.Background(), c.ID, store.ClubGame{TableID: id, Day: "2026-04-02"}); err != nil {
			t.Fatal(err)
		}
	}
	var st struct {
		Games     int
		Standings []struct {
			Person string
			Games  int
		}
	}
	if code := do(t, "GET", hs.URL+"/host/api/clubs/"+c.ID+"/seasons/spring/standings.json", "", nil, &st); code != http.StatusOK {
		t.Fatalf("standings: %d", code)
	}
	if st.Games != 2 || len(st.Standings) != 1 || st.Standings[0].Games != 1 {
		t.Errorf("standings: %+v, want the 2 games counted and Nino's 1", st)
	}
}
