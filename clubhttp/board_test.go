package clubhttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
	"mafia/rating"
	"mafia/store"
	"mafia/store/sqlite"
)

// leaderboardJSON is a board as the API answers it (the site's, and a
// club's with its id).
type leaderboardJSON struct {
	Kind      string
	Season    string
	Club      string
	Standings []struct {
		Rank int
		Name string
	}
}

// boardServer is the clubs' handler on a real SQLite file and a real
// loopback server (base: its URL).
type boardServer struct {
	db   *sqlite.DB
	base string
}

func startBoard(t *testing.T) *boardServer {
	t.Helper()
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(clubhttp.New(clubhttp.Config{Store: db}))
	t.Cleanup(func() {
		hs.Close()
		db.Close()
	})
	return &boardServer{db: db, base: hs.URL}
}

// getJSON answers a GET, decoded into v (nil: not decoded).
func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	if v == nil {
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	return do(t, "GET", url, "", nil, v)
}

// TestRatings_AClubsBoardListsOnlyItsMembers: GET /api/clubs/{ID}/ratings
// (where the site's GET /api/ratings?club=ID is sent) lists the club's members alone, in the whole board's order, ranked from
// 1 among themselves, of the kind and season asked; an offset pages them;
// a club of none is not_found; a club without members has an empty board.
func TestRatings_AClubsBoardListsOnlyItsMembers(t *testing.T) {
	ts := startBoard(t)
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
	for _, c := range []string{"c1", "c2", "all"} {
		if err := ts.db.CreateClub(ctx, store.Club{ID: c, Name: "Tbilisi club", CreatedAt: day}); err != nil {
			t.Fatal(err)
		}
	}
	// Club "all" has every player: its board is the whole board's order.
	for _, id := range ids {
		if err := ts.db.SetMember(ctx, store.ClubMembership{Club: "all", Account: id, Role: store.ClubMember, Added: day}); err != nil {
			t.Fatal(err)
		}
	}
	// Members: Gio, Tamar (mafia: won) and Ana (mafia), Eka.
	for _, i := range []int{1, 2, 5, 7} {
		if err := ts.db.SetMember(ctx, store.ClubMembership{Club: "c1", Account: ids[i], Role: store.ClubMember, Added: day}); err != nil {
			t.Fatal(err)
		}
	}
	var all leaderboardJSON
	if st := getJSON(t, ts.base+"/api/clubs/all/ratings", &all); st != 200 || len(all.Standings) != 10 {
		t.Fatalf("the whole board: %d, %+v", st, all)
	}
	want := []string{}
	for _, r := range all.Standings {
		if r.Name == "Gio" || r.Name == "Tamar" || r.Name == "Ana" || r.Name == "Eka" {
			want = append(want, r.Name)
		}
	}
	var board leaderboardJSON
	if st := getJSON(t, ts.base+"/api/clubs/c1/ratings", &board); st != 200 || board.Club != "c1" || len(board.Standings) != 4 {
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
	var town leaderboardJSON
	getJSON(t, ts.base+"/api/clubs/c1/ratings?kind=mafia&season=2026", &town)
	if len(town.Standings) != 2 || town.Kind != "mafia" || town.Season != "2026" {
		t.Errorf("the club's mafia board of 2026: %+v; want Tamar and Ana", town)
	}
	var before leaderboardJSON
	getJSON(t, ts.base+"/api/clubs/c1/ratings?season=2025", &before)
	if len(before.Standings) != 0 {
		t.Errorf("the club's board of 2025: %+v; want none", before)
	}
	var paged leaderboardJSON
	getJSON(t, ts.base+"/api/clubs/c1/ratings?offset=2", &paged)
	if len(paged.Standings) != 2 || paged.Standings[0].Rank != 3 || paged.Standings[0].Name != want[2] {
		t.Errorf("from the third: %+v", paged.Standings)
	}
	var empty leaderboardJSON
	if st := getJSON(t, ts.base+"/api/clubs/c2/ratings", &empty); st != 200 || len(empty.Standings) != 0 {
		t.Errorf("a club with no members: %d %+v", st, empty)
	}
	if st := getJSON(t, ts.base+"/api/clubs/none/ratings", nil); st != 404 {
		t.Errorf("a club of none: %d; want 404", st)
	}
	for _, q := range []string{"kind=nope", "season=26", "offset=-1"} {
		if st := getJSON(t, ts.base+"/api/clubs/c1/ratings?"+q, nil); st != 400 {
			t.Errorf("?%s: %d; want 400", q, st)
		}
	}
}
