package clubhttp_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"mafia/assist"
	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
)

// TestTournaments_AGameMadeAtATournamentsTableIsLinkedToIt: the
// assistant's game that names a tournament's round and table (the setup
// opened from the table's link, its seats the table's players from the
// roster) is linked to that table when the server makes it; a second game
// for the table stays a club's game and is not linked; a game whose seats
// are not the table's players is not linked either; the organiser frees
// the table (DELETE …/game) and the next game made there is linked.
func TestTournaments_AGameMadeAtATournamentsTableIsLinkedToIt(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clubs := clubhttp.New(clubhttp.Config{Store: db, Games: assist.ClubGames(db, nil)})
	host := assist.New(assist.Config{Store: db, Clubs: clubs})
	mux := http.NewServeMux()
	mux.Handle("/host/api/clubs", clubs)
	mux.Handle("/host/api/clubs/", clubs)
	mux.Handle("/", host)
	hs := httptest.NewServer(mux)
	defer hs.Close()

	var c struct{ ID, Token string }
	if code := do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Tbilisi club"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	var ids []string
	for i := 1; i <= 20; i++ {
		var p club.Person
		if code := do(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token, map[string]any{"name": fmt.Sprintf("Player %02d", i)},
			&p); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
		ids = append(ids, p.ID)
	}
	base := hs.URL + "/host/api/clubs/" + c.ID + "/tournaments"
	var tr tournamentAnswer
	if code := do(t, "POST", base, c.Token, map[string]any{"name": "Cup", "from": "2026-12-05", "to": "2026-12-05",
		"players": ids, "tables": 2, "games": 10, "seed": 3}, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	turl := base + "/" + tr.ID
	if code := do(t, "POST", turl+"/rounds", c.Token, nil, &tr); code != http.StatusOK {
		t.Fatalf("seat: %d", code)
	}
	make := func(round, table int, people []string) string {
		t.Helper()
		names := make([]string, len(people))
		for i, p := range people {
			names[i] = tr.Names[p]
		}
		var made struct{ ID string }
		body := map[string]any{"name": "Cup", "names": names, "deal": "links", "club_token": c.Token,
			"club": map[string]any{"club": c.ID, "day": "2026-12-05", "table": fmt.Sprint(table), "number": round, "people": people,
				"tournament": map[string]any{"id": tr.ID, "round": round, "table": table}}}
		if code := do(t, "POST", hs.URL+"/host/api/games", "", body, &made); code != http.StatusCreated {
			t.Fatalf("the game of round %d table %d: %d", round, table, code)
		}
		return made.ID
	}
	linked := func(round, table int) string {
		t.Helper()
		var now tournamentAnswer
		if code := do(t, "GET", turl, "", nil, &now); code != http.StatusOK {
			t.Fatalf("read: %d", code)
		}
		return now.Rounds[round-1].Tables[table-1].Game
	}

	first := make(1, 1, tr.Rounds[0].Tables[0].Players)
	if got := linked(1, 1); got != first {
		t.Fatalf("round 1 table 1: linked %q, want the game made there %q", got, first)
	}
	make(1, 1, tr.Rounds[0].Tables[0].Players) // the table played already: not linked
	if got := linked(1, 1); got != first {
		t.Errorf("a second game at the table: linked %q, want %q still", got, first)
	}
	make(1, 2, tr.Rounds[0].Tables[0].Players) // another table's players
	if got := linked(1, 2); got != "" {
		t.Errorf("a game of another table's players was linked: %q", got)
	}
	var freed tournamentAnswer
	if code := do(t, "DELETE", turl+"/rounds/1/tables/1/game", c.Token, nil, &freed); code != http.StatusOK || freed.Rounds[0].Tables[0].Game != "" {
		t.Fatalf("free the table: %d", code)
	}
	again := make(1, 1, tr.Rounds[0].Tables[0].Players)
	if got := linked(1, 1); got != again || again == first {
		t.Errorf("the game made at the freed table: linked %q, want %q", got, again)
	}
}
