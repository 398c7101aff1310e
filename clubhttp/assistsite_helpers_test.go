package clubhttp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"mafia/account"
	"mafia/assist"
	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
)

// assistSite is the clubs and the assistant on one real server on
// loopback with a real SQLite file, wired as `mafia serve` wires them
// (clubhttp's InviteWith), and a club made there with ten players on its
// roster.
type assistSite struct {
	url         string   // the server's base URL
	club, token string   // the club's id and its code
	ids         []string // the roster's ten entries, "Player 01" to "Player 10"
	signup      func(name string) string
}

// newAssistSite starts an assistSite whose club is named clubName.
func newAssistSite(t *testing.T, clubName string) assistSite {
	t.Helper()
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	clubs := clubhttp.New(clubhttp.Config{Store: db, Accounts: svc, Games: assist.ClubGames(db, nil)})
	host := assist.New(assist.Config{Store: db, Clubs: clubs, Accounts: svc})
	clubs.InviteWith(host)
	mux := http.NewServeMux()
	mux.Handle("/host/api/clubs", clubs)
	mux.Handle("/host/api/clubs/", clubs)
	mux.Handle("/", host)
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	s := assistSite{url: hs.URL, signup: func(name string) string {
		t.Helper()
		_, tok, err := svc.Signup(context.Background(), name, "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}}
	var c struct{ ID, Token string }
	if code := do(t, "POST", hs.URL+"/host/api/clubs", "", map[string]any{"name": clubName}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	s.club, s.token = c.ID, c.Token
	for i := 1; i <= 10; i++ {
		var p club.Person
		if code := do(t, "POST", hs.URL+"/host/api/clubs/"+c.ID+"/people", c.Token, map[string]any{"name": fmt.Sprintf("Player %02d", i)},
			&p); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
		s.ids = append(s.ids, p.ID)
	}
	return s
}
