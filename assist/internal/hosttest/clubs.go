package hosttest

import (
	"context"
	"encoding/json"
	"io"
	"mafia/account"
	"mafia/assist"
	"mafia/assist/record"
	"mafia/engine"
	"mafia/store/sqlite"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sort"
	"sync/atomic"
	"testing"
)

// ClubCreated is the answer to a club made through the API.
type ClubCreated struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Token string `json:"token"`
}

// PersonJSON is a person on a club's roster, as the API gives them.
type PersonJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// NewClubWith makes a club with people of these names, in order.
func NewClubWith(t *testing.T, ts *Server, names ...string) (ClubCreated, []PersonJSON) {
	t.Helper()
	var c ClubCreated
	if code := Call(t, "POST", ts.URL+"/host/api/clubs", "", map[string]any{"name": "Tbilisi club"}, &c); code != http.StatusCreated {
		t.Fatalf("create a club: %d", code)
	}
	var people []PersonJSON
	for _, n := range names {
		var p PersonJSON
		if code := Call(t, "POST", ts.URL+"/host/api/clubs/"+c.ID+"/people", c.Token, map[string]any{"name": n}, &p); code != http.StatusCreated {
			t.Fatalf("add %s: %d", n, code)
		}
		people = append(people, p)
	}
	return c, people
}

// PlayClubGame plays roles7 (1 citizen, 2 don, 3 citizen, 4 mafia, 5
// detective, 6 doctor, 7 citizen) to the town's win through the sync API:
// the don kills 1 on night 1, the host removes 7 by fouls on day 1, and the
// town votes out 2, then 4.
func PlayClubGame(t *testing.T, ts *Server, c Created) {
	t.Helper()
	g, _, err := record.Start(&c.Settings)
	if err != nil {
		t.Fatal(err)
	}
	seq := 0
	send := func(cmd engine.Command) {
		t.Helper()
		if _, err := g.Handle(cmd); err != nil {
			t.Fatalf("%+v: %v", cmd, err)
		}
		if code, a := SyncUp(t, ts, c, Entries(seq, cmd)...); code != http.StatusOK {
			t.Fatalf("sync %+v: %d %+v", cmd, code, a.Error)
		}
		seq++
	}
	killed, fouled := false, false
	for step := 0; !g.Ended() && step < 300; step++ {
		st := record.Snapshot(g)
		switch {
		case st.Phase == "night" && !killed:
			killed = true
			send(engine.Command{Verb: engine.Kill, By: 2, Target: 1})
		case st.Phase == "speech" && !fouled:
			fouled = true
			for range 4 {
				send(engine.Command{Verb: engine.Foul, Target: 7})
			}
		case st.Phase == "speech" && !st.Nominated && slices.Contains(st.Nominate, 2):
			send(engine.Command{Verb: engine.Nominate, By: engine.Seat(st.Speaker), Target: 2})
		case st.Phase == "speech" && !st.Nominated && slices.Contains(st.Nominate, 4):
			send(engine.Command{Verb: engine.Nominate, By: engine.Seat(st.Speaker), Target: 4})
		default:
			send(engine.Command{Verb: engine.Next})
		}
	}
	if w := record.Snapshot(g).Winner; w != "town" {
		t.Fatalf("the game ended with %q; want the town's win", w)
	}
}

// ReadAll reads and closes an answer's body.
func ReadAll(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ListedAt is the ids the history at path lists to a request with a
// bearer token (or none), sorted.
func (ms *MembersServer) ListedAt(t *testing.T, path, token string) []string {
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

// MembersServer is the assistant with the site's accounts, on a real SQLite
// file and a real loopback server, and the accounts' handler (the players'
// pages, with the clubs' part) on another.
type MembersServer struct {
	*Server
	Svc  *account.Service
	Acct string // the accounts' handler's URL
}

// StartMembersServer starts the assistant with accounts beside it (their
// handler at Acct), as StartServer does without.
func StartMembersServer(t *testing.T) *MembersServer {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	var seeds atomic.Uint64
	ts := &Server{DB: db}
	clubs := ts.withClubs(assist.Config{Accounts: svc, Seed: func() uint64 { return seeds.Add(1) }})
	hs := httptest.NewServer(http.HandlerFunc(ts.Serve))
	acct := httptest.NewServer(account.NewHandler(account.HandlerConfig{Service: svc, Clubs: clubs.PlayerClubs}))
	t.Cleanup(func() {
		acct.Close()
		hs.Close()
		db.Close()
	})
	ts.URL = hs.URL
	return &MembersServer{Server: ts, Svc: svc, Acct: acct.URL}
}

// Signup makes an account and returns its login's token (a bearer).
func (ms *MembersServer) Signup(t *testing.T, name string) string {
	t.Helper()
	_, tok, err := ms.Svc.Signup(context.Background(), name, "password1", "")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// ErrJSON is an error answer of the clubs' or accounts' API.
type ErrJSON struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Listed is the ids the history lists to a request with a bearer token
// (or none) and cookies.
func (ms *MembersServer) Listed(t *testing.T, token string, cookies ...*http.Cookie) []string {
	t.Helper()
	req, _ := http.NewRequest("GET", ms.URL+"/host/api/games", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var list struct{ Games []assist.Summary }
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /host/api/games: %s", res.Status)
	}
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
