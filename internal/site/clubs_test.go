package site_test

import (
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"mafia/assist"
	"mafia/clubhttp"
	"mafia/internal/site"
	"mafia/server"
	"mafia/store/sqlite"
)

// TestWithClubs_TheClubsAnswerAtTheAssistantsPaths: the clubs (package
// clubhttp) are their own handler, mounted beside the assistant at the
// paths its page and the phones that keep it have always called:
// /host/api/clubs… for the API and /host/clubs/… for the printable
// standings, behind the assistant's front door (a secret in the URL is
// refused token_in_url); the site's board sends a club's board
// (/api/ratings?club=) to the club's own (/api/clubs/{club}/ratings).
// Without them, the assistant answers no club.
func TestWithClubs_TheClubsAnswerAtTheAssistantsPaths(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := server.New(server.Config{Store: db})
	defer srv.Close()
	clubs := clubhttp.New(clubhttp.Config{Store: db, Games: assist.ClubGames(db, nil), Files: assist.Version()})
	host := assist.New(assist.Config{Store: db, Clubs: clubs})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer(site.Handler(srv, host, site.WithClubs(clubs)))
	go func() { _ = hs.Serve(srv.Listener(ln)) }()
	defer hs.Close()
	base := "http://" + ln.Addr().String()

	res, body := fetch(t, "POST", base+"/host/api/clubs", `{"name":"Tbilisi club"}`)
	var c struct{ ID, Token string }
	if res.StatusCode != http.StatusCreated || json.Unmarshal([]byte(body), &c) != nil || c.ID == "" || c.Token == "" {
		t.Fatalf("make a club: %s %s", res.Status, body)
	}
	req, _ := http.NewRequest("PUT", base+"/host/api/clubs/"+c.ID+"/seasons/spring",
		strings.NewReader(`{"name":"Spring","from":"2026-03-01","to":"2026-05-31"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("a season: %v %v", res, err)
	}
	if res, body := fetch(t, "GET", base+"/host/api/clubs/"+c.ID+"/seasons/spring/standings.json", ""); res.StatusCode != http.StatusOK ||
		!strings.Contains(body, `"club":"Tbilisi club"`) {
		t.Errorf("the standings: %s %s", res.Status, body)
	}
	res, body = fetch(t, "GET", base+"/host/clubs/"+c.ID+"/seasons/spring", "")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "/host/static/"+assist.Version()+"/print.css") {
		t.Errorf("the printable standings: %s, the assistant's style: %v", res.Status, strings.Contains(body, assist.Version()))
	}
	// The site's board sends a club's to the club (308), with the rest of
	// its query; a client follows.
	if res, err := http.Get(base + "/api/ratings?club=" + c.ID + "&kind=mafia"); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("the club's board by the site's board: %v %v", res, err)
	} else {
		var board struct{ Club, Kind string }
		if err := json.NewDecoder(res.Body).Decode(&board); err != nil || board.Club != c.ID || board.Kind != "mafia" {
			t.Errorf("the club's board: %+v %v", board, err)
		}
		res.Body.Close()
	}
	if res, body := fetch(t, "GET", base+"/host/api/clubs/"+c.ID+"?token="+c.Token, ""); res.StatusCode != http.StatusBadRequest ||
		!strings.Contains(body, `"token_in_url"`) {
		t.Errorf("a club's token in the URL: %s %s, want 400 token_in_url", res.Status, body)
	}
	if res, _ := fetch(t, "POST", start(t)+"/host/api/clubs", `{"name":"Tbilisi club"}`); res.StatusCode != http.StatusNotFound {
		t.Errorf("a club made without the clubs: %s, want 404", res.Status)
	}
}
