package account

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"mafia/internal/sqlitetest"
	"mafia/rating"
	"mafia/store"
)

// TestAListedGameCarriesWhatItDidToTheRatings: a rated game on a player's
// page holds each rating it changed (overall first, then the side), before
// and after, as the store's history has them; a game not rated holds none.
func TestAListedGameCarriesWhatItDidToTheRatings(t *testing.T) {
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var seats []rating.Seat
	for i := range 7 {
		side := rating.Town
		if i < 2 {
			side = rating.Mafia
		}
		seats = append(seats, rating.Seat{Player: strconv.Itoa(i + 1), Side: side})
	}
	us, err := db.RateGame(bg, store.RatedGame{Game: "rated", At: time.Unix(1700000000, 0), Seats: seats, Result: rating.Result{Winner: rating.Mafia}})
	if err != nil {
		t.Fatal(err)
	}
	games := []GameJSON{{Table: "rated"}, {Table: "unrated"}}
	if err := withRatings(bg, db, 1, games); err != nil {
		t.Fatal(err)
	}
	if len(games[1].Ratings) != 0 {
		t.Errorf("an unrated game carries %+v", games[1].Ratings)
	}
	got := games[0].Ratings
	if len(got) != 2 || got[0].Kind != "overall" || got[1].Kind != "mafia" {
		t.Fatalf("the rated game carries %+v, want overall then mafia", got)
	}
	for _, u := range us {
		if u.Player != "1" {
			continue
		}
		i := 0
		if u.Kind != rating.Overall {
			i = 1
		}
		want := GameRatingJSON{Kind: string(u.Kind), Before: ratingJSON(u.Before), After: ratingJSON(u.After)}
		if got[i] != want {
			t.Errorf("%s: %+v, want %+v", u.Kind, got[i], want)
		}
	}
}
