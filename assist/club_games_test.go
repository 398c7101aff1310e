package assist_test

import (
	"net/http"
	"slices"
	"sort"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestTheClubsListHasTheClubsGamesOnly (issue 29, defect 7): with ?club=
// the history lists that club's games only, to the club's code and its
// members: not the other club's game, not a game of no club made by the
// same login; a request that may not see the club gets an empty list.
func TestTheClubsListHasTheClubsGamesOnly(t *testing.T) {
	ms := hosttest.StartMembersServer(t)
	nino, gio := ms.Signup(t, "Nino"), ms.Signup(t, "Gio")
	var a, b hosttest.ClubCreated
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Tbilisi club"}, &a); code != http.StatusCreated {
		t.Fatalf("club a: %d", code)
	}
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Batumi club"}, &b); code != http.StatusCreated {
		t.Fatalf("club b: %d", code)
	}
	game := func(token string, c *hosttest.ClubCreated) hosttest.Created {
		t.Helper()
		body := map[string]any{"names": hosttest.Names7, "deal": record.DealManual, "roles": hosttest.Roles7}
		if c != nil {
			body["club_token"] = c.Token
			body["club"] = map[string]any{"club": c.ID, "day": "2026-12-01"}
		}
		var g hosttest.Created
		if code := hosttest.Call(t, "POST", ms.URL+"/host/api/games", token, body, &g); code != http.StatusCreated {
			t.Fatalf("a game: %d", code)
		}
		return g
	}
	own := game(nino, nil)
	ofA1, ofA2 := game(nino, &a), game("", &a)
	ofB := game(nino, &b)
	_ = own
	_ = ofB
	want := []string{ofA1.ID, ofA2.ID}
	sort.Strings(want)
	for _, c := range []struct {
		who, token string
		want       []string
	}{
		{"the club's code", a.Token, want},
		{"Nino, the club's owner", nino, want},
		{"Gio, no member", gio, []string{}},
		{"another club's code", b.Token, []string{}},
		{"nobody", "", []string{}},
	} {
		got := ms.ListedAt(t, "/host/api/games?club="+a.ID, c.token)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: the club's list is %v, want %v", c.who, got, c.want)
		}
	}
}

// TestTheClubsHostClosesAnAbandonedGame (issue 29, defect 7): a club's
// game whose phone is gone stays in progress until the club's host closes
// it: the club's code, or a login that owns or hosts the club, deletes it
// (it leaves the club's list); a member who only plays, another club's
// code and a stranger are refused (bad_token); a finished game is kept.
func TestTheClubsHostClosesAnAbandonedGame(t *testing.T) {
	ms := hosttest.StartMembersServer(t)
	nino, gio, tamar := ms.Signup(t, "Nino"), ms.Signup(t, "Gio"), ms.Signup(t, "Tamar")
	var a, b hosttest.ClubCreated
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Tbilisi club"}, &a); code != http.StatusCreated {
		t.Fatalf("club a: %d", code)
	}
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/clubs", "", map[string]any{"name": "Batumi club"}, &b); code != http.StatusCreated {
		t.Fatalf("club b: %d", code)
	}
	if code := hosttest.Call(t, "PUT", ms.URL+"/host/api/clubs/"+a.ID+"/members/Gio", nino, map[string]any{"role": "host"}, nil); code != http.StatusOK {
		t.Fatalf("Gio hosts the club: %d", code)
	}
	if code := hosttest.Call(t, "PUT", ms.URL+"/host/api/clubs/"+a.ID+"/members/Tamar", nino, map[string]any{}, nil); code != http.StatusOK {
		t.Fatalf("Tamar joins the club: %d", code)
	}
	body := map[string]any{"names": hosttest.Names7, "deal": record.DealManual, "roles": hosttest.Roles7, "club_token": a.Token,
		"club": map[string]any{"club": a.ID, "day": "2026-12-01"}}
	var g1, g2, plain hosttest.Created
	for _, g := range []*hosttest.Created{&g1, &g2} {
		if code := hosttest.Call(t, "POST", ms.URL+"/host/api/games", "", body, g); code != http.StatusCreated {
			t.Fatalf("a game: %d", code)
		}
	}
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/games", "", map[string]any{"names": hosttest.Names7, "deal": record.DealManual, "roles": hosttest.Roles7}, &plain); code != http.StatusCreated {
		t.Fatalf("a game of no club: %d", code)
	}
	for _, c := range []struct {
		who, id, token string
	}{
		{"Tamar, a player of the club", g1.ID, tamar},
		{"another club's code", g1.ID, b.Token},
		{"a stranger", g1.ID, ""},
		{"the club's code, for a game of no club", plain.ID, a.Token},
	} {
		var e struct {
			Error struct{ Code, Message string }
		}
		if code := hosttest.Call(t, "DELETE", ms.URL+"/host/api/games/"+c.id, c.token, nil, &e); code != http.StatusForbidden || e.Error.Code != "bad_token" {
			t.Errorf("%s deletes a game: %d %+v; want 403 bad_token", c.who, code, e)
		}
	}
	if code := hosttest.Call(t, "DELETE", ms.URL+"/host/api/games/"+g1.ID, a.Token, nil, nil); code != http.StatusOK {
		t.Fatalf("the club's code closes a game: %d", code)
	}
	if code := hosttest.Call(t, "DELETE", ms.URL+"/host/api/games/"+g2.ID, gio, nil, nil); code != http.StatusOK {
		t.Fatalf("Gio, the club's host, closes a game: %d", code)
	}
	if got := ms.ListedAt(t, "/host/api/games?club="+a.ID, a.Token); len(got) != 0 {
		t.Errorf("the closed games are still listed: %v", got)
	}
}
