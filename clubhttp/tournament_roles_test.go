package clubhttp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mafia/account"
	"mafia/club"
	"mafia/clubhttp"
	"mafia/internal/sqlitetest"
	"mafia/store"
	"mafia/tournament"
)

// rolesAnswer is a tournament as the API answers it, with who asks and
// the real tables' hosts' extras.
type rolesAnswer struct {
	tournamentAnswer
	Role      string
	HostExtra [][][]club.Extra `json:"host_extra"`
}

// runAnswer is the list of an account's tournaments.
type runAnswer struct {
	Tournaments []account.TournamentRunJSON
}

// TestTournamentRoles_EachViewerIsShownTheirRoleAndTheRefereeGivesARealTablesExtras:
// on a real server on loopback with a real SQLite file and the club's
// games as a keeper offers them, a tournament at real tables whose one
// game is linked (its host gave seats 1 and 2 extras on the assistant).
// The server tells each who asks their role: the club's code, its owner
// and its host "organiser"; the referee's account "referee"; a plain
// member, a stranger and nobody "public". The host's extras count until
// the referee gives the table's on the organiser's screen, which then
// replace them for the whole table (seat 1's and 2's gone, seat 3's in);
// a stranger, a member, a made-up code and nobody are refused with a
// sentence in ka/en/ru and nothing changes; a value past the range names
// its seat; the referee may not unlink. The organiser unlinks and links
// the game again: the host's extras count again. The tournaments each
// account referees or runs are listed for it (the referee's and the
// host's), none for a member or a stranger.
func TestTournamentRoles_EachViewerIsShownTheirRoleAndTheRefereeGivesARealTablesExtras(t *testing.T) {
	ctx := context.Background()
	db, err := sqlitetest.Open(filepath.Join(t.TempDir(), "mafia.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := account.New(account.Config{Store: db, Params: account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}})
	kept := games{}
	h := clubhttp.New(clubhttp.Config{Store: db, Accounts: svc, Games: kept})
	hs := httptest.NewServer(h)
	defer hs.Close()
	signup := func(name string) string {
		_, tok, err := svc.Signup(ctx, name, "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	owner, host, referee, member, stranger := signup("Tamar3"), signup("Irakli3"), signup("Lasha3"), signup("Mari3"), signup("Zura3")

	var c struct{ ID, Token string }
	if code := do(t, "POST", hs.URL+"/host/api/clubs", owner, map[string]any{"name": "Batumi club"}, &c); code != http.StatusCreated {
		t.Fatalf("make a club: %d", code)
	}
	clubURL := hs.URL + "/host/api/clubs/" + c.ID
	for name, role := range map[string]string{"Irakli3": "host", "Mari3": "member", "Lasha3": "member"} {
		if code := do(t, "PUT", clubURL+"/members/"+name, owner, map[string]any{"role": role}, nil); code != http.StatusOK {
			t.Fatalf("make %s a %s: %d", name, role, code)
		}
	}
	var ids []string
	for i := 1; i <= 10; i++ {
		var p club.Person
		if code := do(t, "POST", clubURL+"/people", c.Token, map[string]any{"name": fmt.Sprintf("მოთამაშე %02d", i)}, &p); code != http.StatusCreated {
			t.Fatalf("add: %d", code)
		}
		ids = append(ids, p.ID)
	}
	var tr rolesAnswer
	if code := do(t, "POST", clubURL+"/tournaments", c.Token, map[string]any{"name": "Batumi cup", "from": "2026-12-06", "to": "2026-12-06",
		"players": ids, "tables": 1, "games": 1, "seed": 5, "final": map[string]any{"size": 0}, "referee": "ლევანი",
		"referee_account": "Lasha3"}, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	turl := clubURL + "/tournaments/" + tr.ID
	if code := do(t, "POST", turl+"/rounds", c.Token, nil, &tr); code != http.StatusOK {
		t.Fatalf("seat: %d", code)
	}
	players := tr.Rounds[0].Tables[0].Players
	g := club.Game{Date: "2026-12-06", Rules: "std", Winner: "town",
		Extra: []club.Extra{{Seat: 1, Points: 30}, {Seat: 2, Points: 20}}}
	for s, p := range players {
		g.Seats = append(g.Seats, club.Seat{Seat: s + 1, Person: p, Name: tr.Names[p], Role: seatRoles[s]})
	}
	kept["g1"] = g
	now := time.Now()
	if err := db.CreateTable(ctx, store.Table{ID: "g1", Kind: store.KindInPerson, Name: "g1", Status: "in_person_ended",
		CreatedAt: now, UpdatedAt: now}, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.AddGame(ctx, c.ID, store.ClubGame{TableID: "g1", Day: "2026-12-06"}); err != nil {
		t.Fatal(err)
	}
	if code := do(t, "PUT", turl+"/rounds/1/tables/1/game", c.Token, map[string]any{"game": "g1"}, nil); code != http.StatusOK {
		t.Fatalf("link: %d", code)
	}

	for _, v := range []struct{ who, token, role string }{
		{"the club's code", c.Token, "organiser"}, {"the owner", owner, "organiser"}, {"the host", host, "organiser"},
		{"the referee", referee, "referee"}, {"a member", member, "public"}, {"a stranger", stranger, "public"}, {"nobody", "", "public"},
	} {
		var got rolesAnswer
		if code := do(t, "GET", turl, v.token, nil, &got); code != http.StatusOK || got.Role != v.role {
			t.Errorf("%s is shown the tournament as %q (%d), want %q", v.who, got.Role, code, v.role)
		}
		if x := got.HostExtra; len(x) != 1 || len(x[0]) != 1 || len(x[0][0]) != 2 || x[0][0][0] != (club.Extra{Seat: 1, Points: 30}) {
			t.Errorf("%s: the table host's extras shown %+v", v.who, x)
		}
	}
	extraOf := func() map[int]club.Points {
		t.Helper()
		var rows struct{ Standings []tournament.Standing }
		if code := do(t, "GET", turl+"/standings.json", "", nil, &rows); code != http.StatusOK || len(rows.Standings) != 10 {
			t.Fatalf("standings: %d, %d rows", code, len(rows.Standings))
		}
		out := map[int]club.Points{}
		for _, r := range rows.Standings {
			for s, p := range players {
				if p == r.Person {
					out[s+1] = r.Extra
				}
			}
		}
		return out
	}
	if x := extraOf(); x[1] != 30 || x[2] != 20 || x[3] != 0 {
		t.Fatalf("before the referee's: extras %v, want the host's (1: 30, 2: 20)", x)
	}

	extraURL := turl + "/rounds/1/tables/1/extra"
	give := map[string]any{"extra": []map[string]any{{"seat": 3, "points": 0.4}}}
	for _, c := range []struct {
		who, token, code string
		status           int
	}{
		{"a stranger", stranger, string(tournament.CodeNotReferee), http.StatusForbidden},
		{"a member", member, string(tournament.CodeNotReferee), http.StatusForbidden},
		{"a made-up code", "not-the-clubs-code", "bad_token", http.StatusForbidden},
		{"nobody", "", "bad_token", http.StatusForbidden},
	} {
		for _, lang := range []string{"ka", "en", "ru"} {
			var no refusal
			if code := do(t, "PUT", extraURL+"?lang="+lang, c.token, give, &no); code != c.status || no.Error.Code != c.code ||
				no.Error.Message == "" || strings.Contains(no.Error.Message, "error.") {
				t.Errorf("%s's extras (%s): %d %+v, want %d %s with a sentence", c.who, lang, code, no, c.status, c.code)
			}
		}
	}
	var no refusal
	if code := do(t, "PUT", extraURL, referee, map[string]any{"extra": []map[string]any{{"seat": 7, "points": 0.9}}}, &no); code != http.StatusBadRequest ||
		no.Error.Code != "bad_extra" || !strings.Contains(no.Error.Message, "7") {
		t.Errorf("extras past the range: %d %+v, want bad_extra naming seat 7", code, no)
	}
	if code := do(t, "DELETE", turl+"/rounds/1/tables/1/game", referee, nil, &no); code != http.StatusForbidden || no.Error.Code != "not_club_host" {
		t.Errorf("the referee unlinks: %d %+v, want not_club_host", code, no)
	}
	if x := extraOf(); x[1] != 30 || x[3] != 0 {
		t.Fatalf("after the refusals: extras %v, want the host's still", x)
	}

	if code := do(t, "PUT", extraURL, referee, give, nil); code != http.StatusOK {
		t.Fatalf("the referee's extras at a real table: %d", code)
	}
	var got rolesAnswer
	do(t, "GET", turl, referee, nil, &got)
	if tb := got.Rounds[0].Tables[0]; !tb.Given || len(tb.Extra) != 1 || tb.Extra[0] != (club.Extra{Seat: 3, Points: 40}) {
		t.Errorf("the table after the referee's: given %v, extras %+v", tb.Given, tb.Extra)
	}
	if x := extraOf(); x[1] != 0 || x[2] != 0 || x[3] != 40 {
		t.Errorf("after the referee's: extras %v, want only seat 3's 0.40 (the host's replaced)", x)
	}

	// Unlinked and linked again: the extras were the game's link's; the host's count again.
	if code := do(t, "DELETE", turl+"/rounds/1/tables/1/game", host, nil, nil); code != http.StatusOK {
		t.Fatalf("unlink: %d", code)
	}
	if code := do(t, "PUT", turl+"/rounds/1/tables/1/game", host, map[string]any{"game": "g1"}, nil); code != http.StatusOK {
		t.Fatalf("link again: %d", code)
	}
	if x := extraOf(); x[1] != 30 || x[3] != 0 {
		t.Errorf("linked again: extras %v, want the host's", x)
	}

	// The tournaments each account referees or runs.
	for _, v := range []struct{ who, token, role string }{
		{"the referee", referee, "referee"}, {"the host", host, "organiser"}, {"the owner", owner, "organiser"},
		{"a member", member, ""}, {"a stranger", stranger, ""}, {"nobody", "", ""},
	} {
		var run runAnswer
		if code := do(t, "GET", hs.URL+"/host/api/clubs/mine/tournaments", v.token, nil, &run); code != http.StatusOK {
			t.Fatalf("%s's tournaments: %d", v.who, code)
		}
		switch {
		case v.role == "" && len(run.Tournaments) != 0:
			t.Errorf("%s is listed %+v", v.who, run.Tournaments)
		case v.role != "" && (len(run.Tournaments) != 1 || run.Tournaments[0].Role != v.role || run.Tournaments[0].Tournament != tr.ID ||
			run.Tournaments[0].Link != "/host/clubs/"+c.ID+"/organiser/"+tr.ID || run.Tournaments[0].ClubName != "Batumi club"):
			t.Errorf("%s's tournaments %+v, want the cup as %s", v.who, run.Tournaments, v.role)
		}
	}
	// A referee who is no member of the club (nor on its roster) finds the
	// tournament too, once named; the referee named before no longer does.
	if code := do(t, "PUT", turl+"/referee", host, map[string]any{"referee": "ზურა", "account": "Zura3"}, nil); code != http.StatusOK {
		t.Fatalf("naming a referee from outside the club: %d", code)
	}
	for _, v := range []struct {
		who, token string
		listed     bool
	}{{"the new referee, no member", stranger, true}, {"the referee before", referee, false}} {
		var run runAnswer
		if code := do(t, "GET", hs.URL+"/host/api/clubs/mine/tournaments", v.token, nil, &run); code != http.StatusOK {
			t.Fatalf("%s's tournaments: %d", v.who, code)
		}
		switch {
		case !v.listed && len(run.Tournaments) != 0:
			t.Errorf("%s is still listed %+v", v.who, run.Tournaments)
		case v.listed && (len(run.Tournaments) != 1 || run.Tournaments[0].Role != "referee" || run.Tournaments[0].Tournament != tr.ID ||
			run.Tournaments[0].ClubName != "Batumi club" || run.Tournaments[0].Link != "/host/clubs/"+c.ID+"/organiser/"+tr.ID):
			t.Errorf("%s's tournaments %+v, want the cup as referee", v.who, run.Tournaments)
		}
	}
}
