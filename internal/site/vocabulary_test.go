package site_test

import (
	"encoding/json"
	"maps"
	"net"
	"net/http"
	"path/filepath"
	"testing"

	"mafia/account"
	"mafia/assist"
	"mafia/clubhttp"
	"mafia/cluster"
	"mafia/engine"
	"mafia/internal/httpapi"
	"mafia/internal/site"
	"mafia/room"
	"mafia/server"
	"mafia/store/sqlite"
)

// startFace serves the whole face — the server, the accounts, the
// assistant and the clubs — with one vocabulary given to every part, as
// `mafia serve` gives site.Vocabulary; it returns the base URL.
func startFace(t *testing.T, v *httpapi.Vocabulary) string {
	t.Helper()
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	srv := server.New(server.Config{Store: db, Accounts: svc, Vocabulary: v})
	clubs := clubhttpFor(db, v)
	host := assist.New(assist.Config{Store: db, Clubs: clubs, Vocabulary: v})
	acct := account.NewHandler(account.HandlerConfig{Service: svc, Vocabulary: v, Clubs: clubs.PlayerClubs})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer(site.Handler(srv, host, site.WithAccounts(acct), site.WithClubs(clubs)))
	go func() { _ = hs.Serve(srv.Listener(ln)) }()
	t.Cleanup(func() {
		_ = hs.Close()
		srv.Close()
		_ = db.Close()
	})
	return "http://" + ln.Addr().String()
}

// TestVocabulary_ACodeHasOneStatusFromEveryHandler: every part of the face
// (the server's API, the accounts, the assistant, the clubs) answers a code
// with the status of the one vocabulary it is given, not one of its own:
// a malformed body, bad_request in each, is 400 under site.Vocabulary
// from all four, and 409 from all four under a vocabulary that makes
// bad_request a conflict. The program's vocabulary holds every package's
// codes, the cluster's relay's too, each with its own kind.
func TestVocabulary_ACodeHasOneStatusFromEveryHandler(t *testing.T) {
	real := site.Vocabulary(cluster.Kinds)
	tables := []map[engine.Code]engine.Kind{engine.Kinds, room.Kinds, httpapi.Kinds, account.Kinds, server.Kinds, assist.Kinds, cluster.Kinds}
	for _, table := range tables {
		for c, k := range table {
			if real.Kind(c) != k {
				t.Errorf("code %s: %s in the program's vocabulary, %s in its package's", c, real.Kind(c), k)
			}
		}
	}
	conflict := func(table map[engine.Code]engine.Kind) map[engine.Code]engine.Kind {
		out := maps.Clone(table)
		out[httpapi.CodeBadRequest] = engine.KindConflict
		return out
	}
	other := httpapi.NewVocabulary(engine.Kinds, conflict(room.Kinds), conflict(httpapi.Kinds), account.Kinds, server.Kinds,
		assist.Kinds)
	paths := []string{"/api/tables", "/api/account/signup", "/host/api/games", "/host/api/clubs"}
	for _, c := range []struct {
		name string
		v    *httpapi.Vocabulary
		want int
	}{{"site.Vocabulary", real, http.StatusBadRequest}, {"bad_request a conflict", other, http.StatusConflict}} {
		base := startFace(t, c.v)
		for _, p := range paths {
			res, body := fetch(t, "POST", base+p, "{")
			var got httpapi.ErrorBody
			if err := json.Unmarshal([]byte(body), &got); err != nil || got.Error.Code != string(httpapi.CodeBadRequest) || res.StatusCode != c.want {
				t.Errorf("%s: POST %s with a malformed body: %s %s, want %d bad_request", c.name, p, res.Status, body, c.want)
			}
		}
	}
}

// clubhttpFor is the clubs on db with vocabulary v, wired as `mafia serve`
// wires them.
func clubhttpFor(db *sqlite.DB, v *httpapi.Vocabulary) *clubhttp.Handler {
	return clubhttp.New(clubhttp.Config{Store: db, Games: assist.ClubGames(db, nil), Files: assist.Version(), Vocabulary: v})
}
