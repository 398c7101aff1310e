package site_test

import (
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"mafia/account"
	"mafia/assist"
	"mafia/internal/site"
	"mafia/server"
	"mafia/store/sqlite"
)

// TestWithAccounts_MountsTheAccountsAndTellsThePage: with the accounts the
// face answers /api/account/ and /api/players/, serves the page at
// /players/{name} and /account, and the page's boot data says accounts are
// on; without them (the other tests' face) the page is told nothing.
func TestWithAccounts_MountsTheAccountsAndTellsThePage(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	srv := server.New(server.Config{Store: db, Accounts: svc})
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer(site.Handler(srv, assist.New(assist.Config{Store: db}),
		site.WithAccounts(account.NewHandler(account.HandlerConfig{Service: svc}))))
	go func() { _ = hs.Serve(srv.Listener(ln)) }()
	defer hs.Close()
	base := "http://" + ln.Addr().String()
	if res, body := fetch(t, "GET", base+"/api/account/me", ""); res.StatusCode != 200 || body != `{"account":null}`+"\n" {
		t.Errorf("me: %s %s", res.Status, body)
	}
	if res, body := fetch(t, "POST", base+"/api/account/signup", `{"name":"Nino","password":"password1"}`); res.StatusCode != 200 {
		t.Errorf("signup: %s %s", res.Status, body)
	}
	if res, body := fetch(t, "GET", base+"/api/players/NINO", ""); res.StatusCode != 200 || !strings.Contains(body, `"name":"Nino"`) {
		t.Errorf("a player's page: %s %s", res.Status, body)
	}
	for _, p := range []string{"/players/Nino", "/account"} {
		res, body := fetch(t, "GET", base+p, "")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, `"accounts":true`) {
			t.Errorf("GET %s: %s, boot data with accounts: %v", p, res.Status, strings.Contains(body, `"accounts":true`))
		}
	}
	if _, body := fetch(t, "GET", start(t)+"/", ""); strings.Contains(body, `"accounts"`) {
		t.Error("the page without accounts is told of them")
	}
}
