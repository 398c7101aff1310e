package clubhttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"mafia/account"
	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
	"mafia/store"
	"mafia/store/sqlite"
)

// clubServer is the clubs' handler with the site's accounts, on a real
// SQLite file and a real loopback server.
type clubServer struct {
	URL string
	db  *sqlite.DB
	svc *account.Service
}

func startClubs(t *testing.T) *clubServer {
	t.Helper()
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	hs := httptest.NewServer(clubhttp.New(clubhttp.Config{Store: db, Accounts: svc}))
	t.Cleanup(func() {
		hs.Close()
		db.Close()
	})
	return &clubServer{URL: hs.URL, db: db, svc: svc}
}

// signup makes an account and returns its login's token (a bearer).
func (cs *clubServer) signup(t *testing.T, name string) string {
	t.Helper()
	_, tok, err := cs.svc.Signup(context.Background(), name, "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// principal is the login of a token.
func (cs *clubServer) principal(t *testing.T, tok string) account.Principal {
	t.Helper()
	p, err := cs.svc.Authenticate(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type clubCreated struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Token string `json:"token"`
}

type personJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
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

// TestClubMembers_ARosterEntryLinkedToAnAccount: a host links an entry to
// an account (which joins the club), renames it, and the links keep their
// rules over HTTP: one entry per account, one account per entry, no link
// of a merged entry, no merge of two accounts' entries; a merge moves a
// link; unlinking frees the account; a bot's account is no member.
func TestClubMembers_ARosterEntryLinkedToAnAccount(t *testing.T) {
	ms := startClubs(t)
	nino := ms.signup(t, "Nino")
	ms.signup(t, "Gio")
	if _, _, err := ms.svc.CreateBot(context.Background(), ms.principal(t, nino), "Robo"); err != nil {
		t.Fatal(err)
	}
	var c clubCreated
	do(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Tbilisi club"}, &c)
	base := ms.URL + "/host/api/clubs/" + c.ID
	var ids []string
	for _, n := range []string{"ნინო", "Гио", "Gio", "Robo"} {
		var p personJSON
		if code := do(t, "POST", base+"/people", nino, map[string]any{"name": n}, &p); code != http.StatusCreated {
			t.Fatalf("add %s: %d", n, code)
		}
		ids = append(ids, p.ID)
	}
	link := func(person, name, tok string) (int, string) {
		var e errJSON
		code := do(t, "PUT", base+"/people/"+person+"/account", tok, map[string]any{"name": name}, &e)
		return code, e.Error.Code
	}
	if code, e := link(ids[0], "nino", nino); code != http.StatusOK {
		t.Fatalf("link ნინო to Nino: %d %s", code, e)
	}
	if code, e := link(ids[1], "GIO", c.Token); code != http.StatusOK {
		t.Fatalf("link Гио to Gio by the club's code: %d %s", code, e)
	}
	for name, tc := range map[string]struct {
		person, account, code string
		status                int
	}{
		"an account linked to another entry": {ids[2], "Gio", "club_link_taken", http.StatusConflict},
		"an entry linked to another account": {ids[1], "Nino", "club_link_taken", http.StatusConflict},
		"a bot's account":                    {ids[3], "Robo", "bad_member", http.StatusBadRequest},
		"an entry of none":                   {"nope", "Gio", "not_found", http.StatusNotFound},
	} {
		if code, e := link(tc.person, tc.account, nino); code != tc.status || e != tc.code {
			t.Errorf("%s: %d %s; want %d %s", name, code, e, tc.status, tc.code)
		}
	}
	var e errJSON
	if code := do(t, "POST", base+"/merges", nino, map[string]any{"from": ids[0], "into": ids[1]}, &e); code != http.StatusConflict || e.Error.Code != "club_link_taken" {
		t.Errorf("merging two accounts' entries: %d %+v", code, e.Error)
	}
	if code := do(t, "POST", base+"/merges", nino, map[string]any{"from": ids[1], "into": ids[2]}, nil); code != http.StatusOK {
		t.Fatalf("merge Гио into Gio: %d", code)
	}
	if code, e := link(ids[1], "Gio", nino); code != http.StatusConflict || e != "club_link_taken" {
		t.Errorf("linking a merged entry: %d %s", code, e)
	}
	if code := do(t, "PUT", base+"/people/"+ids[2], nino, map[string]any{"name": "Gio B."}, nil); code != http.StatusOK {
		t.Errorf("rename: %d", code)
	}
	if code := do(t, "PUT", base+"/people/"+ids[2], nino, map[string]any{"name": ""}, &e); code != http.StatusBadRequest || e.Error.Code != "bad_club" {
		t.Errorf("an empty name: %d %+v", code, e.Error)
	}
	var got struct {
		clubWithMembers
		People []personJSON `json:"people"`
	}
	do(t, "GET", base, nino, nil, &got)
	if got.Links[ids[0]] != "Nino" || got.Links[ids[2]] != "Gio" || len(got.Links) != 2 {
		t.Errorf("links after the merge: %v; want ნინო Nino's and Gio's entry Gio's", got.Links)
	}
	if len(got.Members) != 2 || got.Members[1].Name != "Gio" || got.Members[1].Role != "member" || got.Members[1].Person != ids[2] {
		t.Errorf("members: %+v; want Gio a member by the link", got.Members)
	}
	for _, p := range got.People {
		if p.ID == ids[2] && p.Name != "Gio B." {
			t.Errorf("renamed: %+v", p)
		}
	}
	if code := do(t, "DELETE", base+"/people/"+ids[2]+"/account", nino, nil, nil); code != http.StatusOK {
		t.Fatalf("unlink: %d", code)
	}
	if code, e := link(ids[3], "Gio", nino); code != http.StatusOK {
		t.Errorf("Gio on another entry once unlinked: %d %s", code, e)
	}
	cs, err := ms.db.AccountClubs(context.Background(), ms.principal(t, nino).Account.ID)
	if err != nil || len(cs) != 1 || cs[0].Role != store.ClubOwner || cs[0].Person != ids[0] {
		t.Errorf("Nino's clubs: %+v, %v", cs, err)
	}
}
