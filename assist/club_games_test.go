package assist_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"testing"

	"mafia/assist"
	"mafia/assist/record"
)

// listedAt is the ids the history at path lists to a request with a
// bearer token (or none), sorted.
func (ms *membersServer) listedAt(t *testing.T, path, token string) []string {
	t.Helper()
	req, _ := http.NewRequest("GET", ms.URL+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", path, res.Status)
	}
	var list struct{ Games []assist.Summary }
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, g := range list.Games {
		ids = append(ids, g.ID)
	}
	sort.Strings(ids)
	return ids
}

// TestTheClubsListHasTheClubsGamesOnly (issue 29, defect 7): with ?club=
// the history lists that club's games only, to the club's code and its
// members: not the other club's game, not a game of no club made by the
// same login; a request that may not see the club gets an empty list.
func TestTheClubsListHasTheClubsGamesOnly(t *testing.T) {
	ms := startMembersServer(t)
	nino, gio := ms.signup(t, "Nino"), ms.signup(t, "Gio")
	var a, b clubCreated
	if code := call(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Tbilisi club"}, &a); code != http.StatusCreated {
		t.Fatalf("club a: %d", code)
	}
	if code := call(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Batumi club"}, &b); code != http.StatusCreated {
		t.Fatalf("club b: %d", code)
	}
	game := func(token string, c *clubCreated) created {
		t.Helper()
		body := map[string]any{"names": names7, "deal": record.DealManual, "roles": roles7}
		if c != nil {
			body["club_token"] = c.Token
			body["club"] = map[string]any{"club": c.ID, "day": "2026-12-01"}
		}
		var g created
		if code := call(t, "POST", ms.URL+"/host/api/games", token, body, &g); code != http.StatusCreated {
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
		got := ms.listedAt(t, "/host/api/games?club="+a.ID, c.token)
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
	ms := startMembersServer(t)
	nino, gio, tamar := ms.signup(t, "Nino"), ms.signup(t, "Gio"), ms.signup(t, "Tamar")
	var a, b clubCreated
	if code := call(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Tbilisi club"}, &a); code != http.StatusCreated {
		t.Fatalf("club a: %d", code)
	}
	if code := call(t, "POST", ms.URL+"/host/api/clubs", "", map[string]any{"name": "Batumi club"}, &b); code != http.StatusCreated {
		t.Fatalf("club b: %d", code)
	}
	if code := call(t, "PUT", ms.URL+"/host/api/clubs/"+a.ID+"/members/Gio", nino, map[string]any{"role": "host"}, nil); code != http.StatusOK {
		t.Fatalf("Gio hosts the club: %d", code)
	}
	if code := call(t, "PUT", ms.URL+"/host/api/clubs/"+a.ID+"/members/Tamar", nino, map[string]any{}, nil); code != http.StatusOK {
		t.Fatalf("Tamar joins the club: %d", code)
	}
	body := map[string]any{"names": names7, "deal": record.DealManual, "roles": roles7, "club_token": a.Token,
		"club": map[string]any{"club": a.ID, "day": "2026-12-01"}}
	var g1, g2, plain created
	for _, g := range []*created{&g1, &g2} {
		if code := call(t, "POST", ms.URL+"/host/api/games", "", body, g); code != http.StatusCreated {
			t.Fatalf("a game: %d", code)
		}
	}
	if code := call(t, "POST", ms.URL+"/host/api/games", "", map[string]any{"names": names7, "deal": record.DealManual, "roles": roles7}, &plain); code != http.StatusCreated {
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
		if code := call(t, "DELETE", ms.URL+"/host/api/games/"+c.id, c.token, nil, &e); code != http.StatusForbidden || e.Error.Code != "bad_token" {
			t.Errorf("%s deletes a game: %d %+v; want 403 bad_token", c.who, code, e)
		}
	}
	if code := call(t, "DELETE", ms.URL+"/host/api/games/"+g1.ID, a.Token, nil, nil); code != http.StatusOK {
		t.Fatalf("the club's code closes a game: %d", code)
	}
	if code := call(t, "DELETE", ms.URL+"/host/api/games/"+g2.ID, gio, nil, nil); code != http.StatusOK {
		t.Fatalf("Gio, the club's host, closes a game: %d", code)
	}
	if got := ms.listedAt(t, "/host/api/games?club="+a.ID, a.Token); len(got) != 0 {
		t.Errorf("the closed games are still listed: %v", got)
	}
}
