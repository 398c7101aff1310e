package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"testing"
	"time"

	"mafia/account"
	"mafia/rating"
)

// getJSON GETs url into v and returns the status.
func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == 200 {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}

// TestRatings_TheLeaderboardAndThePagesShowTheRatedGame: after a rated
// game, GET /api/ratings lists its seven players by the ordinal, highest
// first, each with the rating the store holds; the side boards list the
// side's players; a season before the game lists nobody; a player's page
// has their ratings; a bad kind or season is bad_request.
func TestRatings_TheLeaderboardAndThePagesShowTheRatedGame(t *testing.T) {
	as := ratedServer(t, "", false)
	acct := httptest.NewServer(account.NewHandler(account.HandlerConfig{Service: as.svc, Ratings: as.srv.PlayerRatings}))
	t.Cleanup(acct.Close)
	ctx := within(t, 90*time.Second)
	creds, ids := ratedPlayers(t, ctx, as)
	table := playRated(t, ctx, as, creds)
	got := rated(t, ctx, as.db, ids)
	want := wantRatings(t, ctx, as.db, table)
	name := map[string]string{}
	for i, id := range ids {
		name[strconv.FormatInt(id, 10)] = []string{"Nino", "Gio", "Robo1", "Robo2", "Robo3", "Robo4", "Robo5"}[i]
	}
	for _, kind := range rating.Kinds {
		var board LeaderboardJSON
		if st := getJSON(t, as.http.URL+"/api/ratings?kind="+string(kind), &board); st != 200 {
			t.Fatalf("%s: %d", kind, st)
		}
		var rows []StandingJSON
		for k, r := range want {
			if k.Kind == kind {
				rows = append(rows, StandingJSON{Name: name[k.Player], Bot: k.Player != strconv.FormatInt(ids[0], 10) && k.Player != strconv.FormatInt(ids[1], 10),
					RatingJSON: ratingJSON(kind, r, 1, got[k].Wins)})
			}
		}
		sort.SliceStable(rows, func(i, j int) bool {
			if rows[i].Ordinal != rows[j].Ordinal {
				return rows[i].Ordinal > rows[j].Ordinal
			}
			return false
		})
		if len(board.Standings) != len(rows) {
			t.Fatalf("%s: %d rows, want %d: %+v", kind, len(board.Standings), len(rows), board)
		}
		for i, r := range board.Standings {
			if r.Rank != i+1 || (i > 0 && r.Ordinal > board.Standings[i-1].Ordinal) {
				t.Errorf("%s row %d out of order: %+v", kind, i, r)
			}
			w := rows[i]
			if r.Ordinal != w.Ordinal || r.Mu != w.Mu || r.Sigma != w.Sigma || r.Games != 1 {
				t.Errorf("%s row %d: %+v, want %+v", kind, i, r, w)
			}
		}
		if kind == rating.Overall && len(board.Standings) != 7 {
			t.Errorf("overall: %d players, want 7", len(board.Standings))
		}
	}
	var old LeaderboardJSON
	if st := getJSON(t, as.http.URL+"/api/ratings?kind=overall&season=2001", &old); st != 200 || len(old.Standings) != 0 {
		t.Errorf("a season before the game: %d %+v", st, old)
	}
	for _, q := range []string{"kind=maniac", "season=26", "offset=-1"} {
		if st := getJSON(t, as.http.URL+"/api/ratings?"+q, nil); st != 400 {
			t.Errorf("%s: %d, want 400", q, st)
		}
	}
	resp, err := http.Get(acct.URL + "/api/players/Nino")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page struct {
		Ratings []RatingJSON `json:"ratings"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		t.Fatal(err)
	}
	me := strconv.FormatInt(ids[0], 10)
	if len(page.Ratings) < 1 || page.Ratings[0].Kind != "overall" { // two, or one for the Maniac
		t.Fatalf("Nino's page: %+v", page.Ratings)
	}
	for _, r := range page.Ratings {
		w := want[rating.Key{Player: me, Kind: rating.Kind(r.Kind)}]
		if r.Mu != w.Mu || r.Sigma != w.Sigma || r.Ordinal != w.Ordinal() || r.Games != 1 {
			t.Errorf("Nino's %s: %+v, want %+v", r.Kind, r, w)
		}
	}
}
