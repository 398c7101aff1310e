package clubhttp_test

import (
	"context"
	"encoding/csv"
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

// TestRoles_APlayersGamesByRoleOnTheirPageInTheJSONAndTheCSV: Nino plays
// four games of a season as the Detective (won), the Doctor (lost), the
// Don (won) and a citizen (won). By hand: town 3 games 2 wins 67%, mafia
// 1 of 1 100%, the Don 1 of 1, the Detective 1 of 1, the Doctor 0 of 1
// 0%, the maniac none. The standings' JSON has them in by_role, the CSV
// for machines in its last six columns, and her page of the season shows
// them in the reader's language.
func TestRoles_APlayersGamesByRoleOnTheirPageInTheJSONAndTheCSV(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kept := games{}
	h := clubhttp.New(clubhttp.Config{Store: db, Games: kept})
	hs := httptest.NewServer(h)
	defer hs.Close()
	var c struct{ ID, Token string }
	if code := do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": "Tbilisi"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	var nino club.Person
	do(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token, map[string]any{"name": "ნინო"}, &nino)
	do(t, "PUT", hs.URL+"/host/api/clubs/"+c.ID+"/seasons/s1", c.Token, map[string]any{"name": "Spring", "from": "2026-03-01", "to": "2026-05-31"}, nil)
	roles := []string{"don", "mafia", "maniac", "detective", "doctor", "citizen", "citizen"}
	for i, p := range []struct {
		winner string
		seat   int
	}{{"town", 4}, {"mafia", 5}, {"mafia", 1}, {"town", 6}} {
		g := club.Game{Date: "2026-04-02", Rules: "std", Winner: p.winner}
		for s, role := range roles {
			g.Seats = append(g.Seats, club.Seat{Seat: s + 1, Name: "P", Role: role})
		}
		g.Seats[p.seat-1].Person = nino.ID
		id := "t" + string(rune('1'+i))
		kept[id] = g
		now := time.Now()
		if err := db.CreateTable(context.Background(), store.Table{ID: id, Kind: store.KindInPerson, Name: id, Status: "in_person", CreatedAt: now, UpdatedAt: now}, nil); err != nil {
			t.Fatal(err)
		}
		if err := h.AddGame(context.Background(), c.ID, store.ClubGame{TableID: id, Day: "2026-04-02"}); err != nil {
			t.Fatal(err)
		}
	}
	want := []club.RoleLine{{Role: "town", Games: 3, Wins: 2, WinRate: 67}, {Role: "mafia", Games: 1, Wins: 1, WinRate: 100},
		{Role: "don", Games: 1, Wins: 1, WinRate: 100}, {Role: "detective", Games: 1, Wins: 1, WinRate: 100},
		{Role: "doctor", Games: 1, Wins: 0, WinRate: 0}, {Role: "maniac", Games: 0, Wins: 0, WinRate: 0}}

	var st struct{ Standings []club.Standing }
	do(t, "GET", hs.URL+"/host/api/clubs/"+c.ID+"/seasons/s1/standings.json", "", nil, &st)
	if len(st.Standings) != 1 || len(st.Standings[0].ByRole) != len(want) {
		t.Fatalf("standings: %+v", st)
	}
	for i, w := range want {
		if st.Standings[0].ByRole[i] != w {
			t.Errorf("JSON by_role %d: %+v; want %+v", i, st.Standings[0].ByRole[i], w)
		}
	}

	res, err := http.Get(hs.URL + "/host/api/clubs/" + c.ID + "/seasons/s1/standings.csv?header=ids")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(res.Body).ReadAll()
	res.Body.Close()
	if err != nil || len(rows) != 2 {
		t.Fatalf("CSV: %v, %d rows", err, len(rows))
	}
	head, row := rows[0][len(rows[0])-6:], rows[1][len(rows[1])-6:]
	if got := strings.Join(head, ","); got != "games_don,wins_don,games_detective,wins_detective,games_doctor,wins_doctor" {
		t.Errorf("CSV's last columns: %s", got)
	}
	if got := strings.Join(row, ","); got != "1,1,1,1,1,0" {
		t.Errorf("CSV's by role: %s; want 1,1,1,1,1,0", got)
	}

	res, err = http.Get(hs.URL + "/host/clubs/" + c.ID + "/seasons/s1/people/" + nino.ID + "?lang=ka")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	page := string(b)
	for _, s := range []string{`<tr data-role="town"><td class="c-role">მოქალაქეები</td><td>3</td><td>2</td><td class="c-rate">67%</td>`,
		`<tr data-role="doctor"><td class="c-role">ექიმი</td><td>1</td><td>0</td><td class="c-rate">0%</td>`,
		`<tr data-role="maniac"><td class="c-role">მანიაკი</td><td>0</td><td>0</td><td class="c-rate">—</td>`, "როლების მიხედვით", "ნინო"} {
		if res.StatusCode != http.StatusOK || !strings.Contains(page, s) {
			t.Errorf("her page (%d) lacks %s", res.StatusCode, s)
		}
	}
	if res, _ := http.Get(hs.URL + "/host/clubs/" + c.ID + "/seasons/s1/people/nobody"); res.StatusCode != http.StatusNotFound {
		t.Errorf("the page of nobody on the roster: %d; want 404", res.StatusCode)
	}
}
