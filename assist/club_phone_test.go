package assist_test

import (
	"context"
	"net/http"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestAGameMadeOnThePhoneCountsForItsClub: a game the phone made offline
// with the club's fields and roster ids is counted for the club when the
// server takes it (on the day the phone gave); one with another club's
// token, or a roster id off the roster, is refused and counts for nobody.
func TestAGameMadeOnThePhoneCountsForItsClub(t *testing.T) {
	ts := hosttest.StartServer(t)
	cl, people := hosttest.NewClubWith(t, ts, hosttest.Names7...)
	ids := make([]string, 7)
	for i, p := range people {
		ids[i] = p.ID
	}
	clubOf := func(people []string) map[string]any {
		return map[string]any{"club": cl.ID, "day": "2026-11-30", "host": "Irakli", "people": people}
	}

	bad := hosttest.PhoneCreate(t, hosttest.Names7, record.DealPass, "777")
	bad["club"], bad["club_token"] = clubOf(ids), "0000"
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", bad, nil); code == http.StatusCreated {
		t.Errorf("a phone's game with a wrong club token was taken")
	}
	off := append([]string{"nobody-of-the-club"}, ids[1:]...)
	bad["club"], bad["club_token"] = clubOf(off), cl.Token
	var r hosttest.Refused
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", bad, &r); code != http.StatusBadRequest || r.Error == nil || r.Error.Code != "bad_settings" {
		t.Errorf("a roster id off the roster: %d %+v", code, r.Error)
	}

	req := hosttest.PhoneCreate(t, hosttest.Names7, record.DealPass, "777")
	req["club"], req["club_token"] = clubOf(ids), cl.Token
	var c hosttest.Created
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("the phone's game: %d", code)
	}
	if c.Settings.Club == nil || c.Settings.Club.PersonOf(3) != ids[2] {
		t.Errorf("the settings' club: %+v", c.Settings.Club)
	}
	games, err := ts.DB.ClubGames(context.Background(), cl.ID)
	if err != nil || len(games) != 1 || games[0].TableID != c.ID || games[0].Day != "2026-11-30" {
		t.Errorf("the club's games: %+v, %v", games, err)
	}
	// The same create again (its answer was lost) is the same game, counted once.
	if code := hosttest.Call(t, "POST", ts.URL+"/host/api/games", "", req, nil); code != http.StatusOK {
		t.Errorf("the create again: %d", code)
	}
	if games, _ := ts.DB.ClubGames(context.Background(), cl.ID); len(games) != 1 {
		t.Errorf("counted %d times", len(games))
	}
}
