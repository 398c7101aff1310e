package assist_test

import (
	"net/http"
	"testing"

	"mafia/account"
	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

type clubWithMembers struct {
	Members []struct {
		Name, Role, Person string
	} `json:"members"`
	Links map[string]string `json:"links"`
}

// TestClubMembers_AnOwnerHostsAndMembersOverHTTP: a club made by a
// logged-in account is owned by it; the owner makes a host, the host adds
// a member but may not make hosts; a stranger's login changes nothing; the
// club's code keeps every power it had; the last owner cannot leave; each
// refusal is coded and said.
func TestClubMembers_AnOwnerHostsAndMembersOverHTTP(t *testing.T) {
	ms := hosttest.StartMembersServer(t)
	nino, gio, tamar, eka := ms.Signup(t, "Nino"), ms.Signup(t, "Gio"), ms.Signup(t, "Tamar"), ms.Signup(t, "Eka")
	var c hosttest.ClubCreated
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Tbilisi club"}, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	base := ms.URL + "/host/api/clubs/" + c.ID
	refuse := func(what, method, url, tok string, body any, status int, code string) {
		t.Helper()
		var e hosttest.ErrJSON
		if got := hosttest.Call(t, method, url, tok, body, &e); got != status || e.Error.Code != code || e.Error.Message == "" {
			t.Errorf("%s: %d %+v; want %d %s with a sentence", what, got, e.Error, status, code)
		}
	}
	ok := func(what, method, url, tok string, body any) {
		t.Helper()
		if got := hosttest.Call(t, method, url, tok, body, nil); got != http.StatusOK {
			t.Errorf("%s: %d", what, got)
		}
	}
	ok("the owner makes Gio a host", "PUT", base+"/members/gio", nino, map[string]any{"role": "host"})
	ok("the host adds Tamar", "PUT", base+"/members/Tamar", gio, map[string]any{})
	refuse("the host makes Tamar a host", "PUT", base+"/members/Tamar", gio, map[string]any{"role": "host"}, http.StatusForbidden, "not_club_owner")
	refuse("the host removes the owner", "DELETE", base+"/members/Nino", gio, nil, http.StatusForbidden, "not_club_owner")
	refuse("a member adds Eka", "PUT", base+"/members/Eka", tamar, map[string]any{}, http.StatusForbidden, "not_club_host")
	refuse("a stranger reads the club", "GET", base, eka, nil, http.StatusForbidden, "not_club_host")
	refuse("nobody reads the club", "GET", base, "", nil, http.StatusForbidden, "bad_token")
	refuse("an account of no name", "PUT", base+"/members/nobody", nino, map[string]any{}, http.StatusBadRequest, "bad_member")
	refuse("a role of none", "PUT", base+"/members/Eka", nino, map[string]any{"role": "boss"}, http.StatusBadRequest, "bad_member")
	refuse("the last owner leaves", "DELETE", base+"/members/Nino", nino, nil, http.StatusConflict, "last_owner")
	refuse("the last owner made a member", "PUT", base+"/members/Nino", c.Token, map[string]any{"role": "member"}, http.StatusConflict, "last_owner")
	ok("the club's code adds Eka as an owner", "PUT", base+"/members/Eka", c.Token, map[string]any{"role": "owner"})
	ok("Tamar leaves", "DELETE", base+"/members/Tamar", tamar, nil)
	var got clubWithMembers
	if code := hosttest.Call(t, "GET", base+"/members", gio, nil, &got); code != http.StatusOK {
		t.Fatalf("the host reads the members: %d", code)
	}
	want := []string{"Nino owner", "Gio host", "Eka owner"}
	if len(got.Members) != len(want) {
		t.Fatalf("members: %+v; want %v", got.Members, want)
	}
	for i, m := range got.Members {
		if m.Name+" "+m.Role != want[i] {
			t.Errorf("member %d: %+v; want %s", i, m, want[i])
		}
	}
	var saba hosttest.PersonJSON
	if code := hosttest.Call(t, "POST", base+"/people", gio, map[string]any{"name": "Saba"}, &saba); code != http.StatusCreated {
		t.Errorf("a host adds to the roster by their login: %d", code)
	}
	game := map[string]any{"names": []string{"Saba", "B", "C", "D", "E", "F", "G"}, "deal": record.DealManual, "roles": hosttest.Roles7,
		"club": map[string]any{"club": c.ID, "day": "2026-12-01", "people": []string{saba.ID, "", "", "", "", "", ""}}}
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/games", gio, game, nil); code != http.StatusCreated {
		t.Errorf("a host makes the club's game by their login, without the club's token: %d", code)
	}
	for who, want := range map[string]int{nino: 1, gio: 1, tamar: 0, "": 0} {
		var mine struct {
			Clubs []struct{ ID, Name, Role string } `json:"clubs"`
		}
		if code := hosttest.Call(t, "GET", ms.URL+"/host/api/clubs/mine", who, nil, &mine); code != http.StatusOK || len(mine.Clubs) != want ||
			(want == 1 && mine.Clubs[0].ID != c.ID) {
			t.Errorf("the clubs a login runs: %d %+v; want %d", code, mine.Clubs, want)
		}
	}
	refuse("a stranger makes the club's game", "POST", ms.URL+"/host/api/games", tamar, game, http.StatusForbidden, "bad_token")
}

// TestClubMembers_TheLinkedEntrysGamesCountOnTheAccountsPage: a club game
// played through the assistant (roles7: the town wins, seat 7 removed by
// fouls) counts on the pages of the accounts linked to its entries: the
// don's (merged into the linked entry: its game counts under it) a loss
// for the mafia, the detective's a win for the town, the fouled citizen's
// a game and no win; the page lists the clubs with the roles; an account
// with no link counts none.
func TestClubMembers_TheLinkedEntrysGamesCountOnTheAccountsPage(t *testing.T) {
	ms := hosttest.StartMembersServer(t)
	owner := ms.Signup(t, "Irakli")
	for _, n := range []string{"Nino", "Levan", "Saba"} {
		ms.Signup(t, n)
	}
	var cl hosttest.ClubCreated
	hosttest.Call(t, "POST", ms.URL+"/host/api/clubs", owner, map[string]any{"name": "Tbilisi club"}, &cl)
	names := []string{"ნინო", "Гиорги", "Tamar", "Дато", "Levan", "Ana", "Saba", "Giorgi"}
	var people []hosttest.PersonJSON
	for _, n := range names {
		var p hosttest.PersonJSON
		hosttest.Call(t, "POST", ms.URL+"/host/api/clubs/"+cl.ID+"/people", cl.Token, map[string]any{"name": n}, &p)
		people = append(people, p)
	}
	ids := make([]string, 7)
	for i := range ids {
		ids[i] = people[i].ID
	}
	req := map[string]any{"names": names[:7], "deal": record.DealManual, "roles": hosttest.Roles7, "club_token": cl.Token,
		"club": map[string]any{"club": cl.ID, "day": "2026-12-01", "people": ids}}
	var c hosttest.Created
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("create the club's game: %d", code)
	}
	hosttest.PlayClubGame(t, ms.Server, c)
	base := ms.URL + "/host/api/clubs/" + cl.ID
	hosttest.Call(t, "POST", base+"/merges", cl.Token, map[string]any{"from": people[1].ID, "into": people[7].ID}, nil)
	for person, name := range map[string]string{people[7].ID: "Nino", people[4].ID: "Levan", people[6].ID: "Saba"} {
		if code := hosttest.Call(t, "PUT", base+"/people/"+person+"/account", owner, map[string]any{"name": name}, nil); code != http.StatusOK {
			t.Fatalf("link %s: %d", name, code)
		}
	}
	for name, want := range map[string]struct {
		games, wins int
		side        string
		sideWins    int
		role        string
	}{
		"Nino":  {1, 0, "mafia", 0, "member"},
		"Levan": {1, 1, "town", 1, "member"},
		"Saba":  {1, 0, "town", 0, "member"},
	} {
		var p account.ProfileJSON
		if code := hosttest.Call(t, "GET", ms.Acct+"/api/players/"+name, "", nil, &p); code != http.StatusOK {
			t.Fatalf("%s's page: %d", name, code)
		}
		if p.Games != want.games || p.Wins != want.wins || p.InPerson.Games != want.games || p.InPerson.Wins != want.wins ||
			p.BySide[want.side].Games != 1 || p.BySide[want.side].Wins != want.sideWins {
			t.Errorf("%s's page: %d games %d wins, in person %+v, by side %+v; want %+v", name, p.Games, p.Wins, p.InPerson, p.BySide, want)
		}
		if len(p.Clubs) != 1 || p.Clubs[0].Name != "Tbilisi club" || p.Clubs[0].Role != want.role {
			t.Errorf("%s's clubs: %+v", name, p.Clubs)
		}
	}
	var p account.ProfileJSON
	hosttest.Call(t, "GET", ms.Acct+"/api/players/Irakli", "", nil, &p)
	if p.Games != 0 || len(p.Clubs) != 1 || p.Clubs[0].Role != "owner" {
		t.Errorf("the owner's page: %d games, clubs %+v; want none and the club as its owner", p.Games, p.Clubs)
	}
}
