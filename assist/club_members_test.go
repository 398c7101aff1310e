package assist_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"mafia/account"
	"mafia/assist"
	"mafia/assist/record"
	"mafia/store/sqlite"
)

// membersServer is the assistant with the site's accounts, on a real SQLite
// file and a real loopback server, and the accounts' handler (the players'
// pages, with the clubs' part) on another.
type membersServer struct {
	*testServer
	svc  *account.Service
	acct string // the accounts' handler's URL
}

func startMembersServer(t *testing.T) *membersServer {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	var seeds atomic.Uint64
	ts := &testServer{db: db}
	clubs := ts.withClubs(assist.Config{Accounts: svc, Seed: func() uint64 { return seeds.Add(1) }})
	hs := httptest.NewServer(http.HandlerFunc(ts.serve))
	acct := httptest.NewServer(account.NewHandler(account.HandlerConfig{Service: svc, Clubs: clubs.PlayerClubs}))
	t.Cleanup(func() {
		acct.Close()
		hs.Close()
		db.Close()
	})
	ts.URL = hs.URL
	return &membersServer{testServer: ts, svc: svc, acct: acct.URL}
}

// signup makes an account and returns its login's token (a bearer).
func (ms *membersServer) signup(t *testing.T, name string) string {
	t.Helper()
	_, tok, err := ms.svc.Signup(context.Background(), name, "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

type errJSON struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

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
	ms := startMembersServer(t)
	nino, gio, tamar, eka := ms.signup(t, "Nino"), ms.signup(t, "Gio"), ms.signup(t, "Tamar"), ms.signup(t, "Eka")
	var c clubCreated
	if code := call(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Tbilisi club"}, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	base := ms.URL + "/host/api/clubs/" + c.ID
	refuse := func(what, method, url, tok string, body any, status int, code string) {
		t.Helper()
		var e errJSON
		if got := call(t, method, url, tok, body, &e); got != status || e.Error.Code != code || e.Error.Message == "" {
			t.Errorf("%s: %d %+v; want %d %s with a sentence", what, got, e.Error, status, code)
		}
	}
	ok := func(what, method, url, tok string, body any) {
		t.Helper()
		if got := call(t, method, url, tok, body, nil); got != http.StatusOK {
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
	if code := call(t, "GET", base+"/members", gio, nil, &got); code != http.StatusOK {
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
	var saba personJSON
	if code := call(t, "POST", base+"/people", gio, map[string]any{"name": "Saba"}, &saba); code != http.StatusCreated {
		t.Errorf("a host adds to the roster by their login: %d", code)
	}
	game := map[string]any{"names": []string{"Saba", "B", "C", "D", "E", "F", "G"}, "deal": record.DealManual, "roles": roles7,
		"club": map[string]any{"club": c.ID, "day": "2026-12-01", "people": []string{saba.ID, "", "", "", "", "", ""}}}
	if code := call(t, "POST", ms.URL+"/host/api/games", gio, game, nil); code != http.StatusCreated {
		t.Errorf("a host makes the club's game by their login, without the club's token: %d", code)
	}
	for who, want := range map[string]int{nino: 1, gio: 1, tamar: 0, "": 0} {
		var mine struct {
			Clubs []struct{ ID, Name, Role string } `json:"clubs"`
		}
		if code := call(t, "GET", ms.URL+"/host/api/clubs/mine", who, nil, &mine); code != http.StatusOK || len(mine.Clubs) != want ||
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
	ms := startMembersServer(t)
	owner := ms.signup(t, "Irakli")
	for _, n := range []string{"Nino", "Levan", "Saba"} {
		ms.signup(t, n)
	}
	var cl clubCreated
	call(t, "POST", ms.URL+"/host/api/clubs", owner, map[string]any{"name": "Tbilisi club"}, &cl)
	names := []string{"ნინო", "Гиорги", "Tamar", "Дато", "Levan", "Ana", "Saba", "Giorgi"}
	var people []personJSON
	for _, n := range names {
		var p personJSON
		call(t, "POST", ms.URL+"/host/api/clubs/"+cl.ID+"/people", cl.Token, map[string]any{"name": n}, &p)
		people = append(people, p)
	}
	ids := make([]string, 7)
	for i := range ids {
		ids[i] = people[i].ID
	}
	req := map[string]any{"names": names[:7], "deal": record.DealManual, "roles": roles7, "club_token": cl.Token,
		"club": map[string]any{"club": cl.ID, "day": "2026-12-01", "people": ids}}
	var c created
	if code := call(t, "POST", ms.URL+"/host/api/games", "", req, &c); code != http.StatusCreated {
		t.Fatalf("create the club's game: %d", code)
	}
	playClubGame(t, ms.testServer, c)
	base := ms.URL + "/host/api/clubs/" + cl.ID
	call(t, "POST", base+"/merges", cl.Token, map[string]any{"from": people[1].ID, "into": people[7].ID}, nil)
	for person, name := range map[string]string{people[7].ID: "Nino", people[4].ID: "Levan", people[6].ID: "Saba"} {
		if code := call(t, "PUT", base+"/people/"+person+"/account", owner, map[string]any{"name": name}, nil); code != http.StatusOK {
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
		if code := call(t, "GET", ms.acct+"/api/players/"+name, "", nil, &p); code != http.StatusOK {
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
	call(t, "GET", ms.acct+"/api/players/Irakli", "", nil, &p)
	if p.Games != 0 || len(p.Clubs) != 1 || p.Clubs[0].Role != "owner" {
		t.Errorf("the owner's page: %d games, clubs %+v; want none and the club as its owner", p.Games, p.Clubs)
	}
}
