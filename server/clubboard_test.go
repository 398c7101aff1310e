package server

import (
	"context"
	"strconv"
	"testing"
	"time"

	"mafia/rating"
	"mafia/store"
)

// TestRatings_AClubsBoardListsOnlyItsMembers: GET /api/ratings?club=ID
// lists the club's members alone, in the whole board's order, ranked from
// 1 among themselves, of the kind and season asked; an offset pages them;
// a club of none is not_found; a club without members has an empty board.
func TestRatings_AClubsBoardListsOnlyItsMembers(t *testing.T) {
	ts := startServerWith(t, "", nil)
	ctx := context.Background()
	day := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	var ids []int64
	names := []string{"Nino", "Gio", "Tamar", "Dato", "Levan", "Ana", "Saba", "Eka", "Irakli", "Lasha"}
	for _, n := range names {
		id, err := ts.db.CreateAccount(ctx, store.Account{Name: n, Key: n, PasswordHash: "h", Created: day})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	var seats []rating.Seat
	for i, id := range ids {
		side := rating.Town
		if i == 2 || i == 5 || i == 9 {
			side = rating.Mafia
		}
		seats = append(seats, rating.Seat{Player: strconv.FormatInt(id, 10), Side: side})
	}
	if _, err := ts.db.RateGame(ctx, store.RatedGame{Game: "g1", At: day, Seats: seats, Result: rating.Result{Winner: rating.Mafia}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"c1", "c2"} {
		if err := ts.db.CreateClub(ctx, store.Club{ID: c, Name: "Tbilisi club", CreatedAt: day}); err != nil {
			t.Fatal(err)
		}
	}
	// Members: Gio, Tamar (mafia: won) and Ana (mafia), Eka.
	for _, i := range []int{1, 2, 5, 7} {
		if err := ts.db.SetMember(ctx, store.ClubMembership{Club: "c1", Account: ids[i], Role: store.ClubMember, Added: day}); err != nil {
			t.Fatal(err)
		}
	}
	var all LeaderboardJSON
	if st := getJSON(t, ts.http.URL+"/api/ratings", &all); st != 200 || len(all.Standings) != 10 {
		t.Fatalf("the whole board: %d, %+v", st, all)
	}
	want := []string{}
	for _, r := range all.Standings {
		if r.Name == "Gio" || r.Name == "Tamar" || r.Name == "Ana" || r.Name == "Eka" {
			want = append(want, r.Name)
		}
	}
	var board LeaderboardJSON
	if st := getJSON(t, ts.http.URL+"/api/ratings?club=c1", &board); st != 200 || board.Club != "c1" || len(board.Standings) != 4 {
		t.Fatalf("the club's board: %d, %+v", st, board)
	}
	for i, r := range board.Standings {
		if r.Rank != i+1 || r.Name != want[i] {
			t.Errorf("row %d: %+v; want %s ranked %d", i, r, want[i], i+1)
		}
	}
	if board.Standings[0].Name != "Tamar" && board.Standings[0].Name != "Ana" {
		t.Errorf("the club's first: %+v; want a winning mafia", board.Standings[0])
	}
	var town LeaderboardJSON
	getJSON(t, ts.http.URL+"/api/ratings?club=c1&kind=mafia&season=2026", &town)
	if len(town.Standings) != 2 || town.Kind != "mafia" || town.Season != "2026" {
		t.Errorf("the club's mafia board of 2026: %+v; want Tamar and Ana", town)
	}
	var before LeaderboardJSON
	getJSON(t, ts.http.URL+"/api/ratings?club=c1&season=2025", &before)
	if len(before.Standings) != 0 {
		t.Errorf("the club's board of 2025: %+v; want none", before)
	}
	var paged LeaderboardJSON
	getJSON(t, ts.http.URL+"/api/ratings?club=c1&offset=2", &paged)
	if len(paged.Standings) != 2 || paged.Standings[0].Rank != 3 || paged.Standings[0].Name != want[2] {
		t.Errorf("from the third: %+v", paged.Standings)
	}
	var empty LeaderboardJSON
	if st := getJSON(t, ts.http.URL+"/api/ratings?club=c2", &empty); st != 200 || len(empty.Standings) != 0 {
		t.Errorf("a club with no members: %d %+v", st, empty)
	}
	if st := getJSON(t, ts.http.URL+"/api/ratings?club=none", nil); st != 404 {
		t.Errorf("a club of none: %d; want 404", st)
	}
}
