package clubhttp_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"mafia/club"
	"mafia/tournament"
)

// TestTournamentReferee_TheRefereesAccountGivesExtrasAndNothingElse: on a
// real server on loopback with a real SQLite file, the organiser makes an
// online tournament of ten accounts naming its referee's site account (no
// member of the club; an unknown account, or a name too long, is refused
// bad_member), and its
// one table is played to the end by real WebSocket clients. The referee,
// logged in, gives the table's extra points; a stranger's account and a
// plain member's are refused not_referee, no login bad_token, and nothing
// is kept from them; the referee may not change anything else of the
// club's (close the tournament, name another referee: not_club_host); the
// club's host (an account with the host's role) still gives extras, in
// place of the referee's. The standings count the extras kept, and the
// tournament shows the referee's account by its name, never its id.
func TestTournamentReferee_TheRefereesAccountGivesExtrasAndNothingElse(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	s := startOnlineSite(t)
	ids, creds := s.players(t, 10)
	login := func(name string) string {
		_, tok, err := s.svc.Signup(context.Background(), name, "password1", "")
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	referee, stranger, member, host := login("Nino7"), login("Gela7"), login("Dato7"), login("Keti7")
	clubURL := s.URL + "/host/api/clubs/" + s.club.ID
	for name, role := range map[string]string{"Dato7": "member", "Keti7": "host"} {
		if code := do(t, "PUT", clubURL+"/members/"+name, s.club.Token, map[string]any{"role": role}, nil); code != http.StatusOK {
			t.Fatalf("make %s a %s: %d", name, role, code)
		}
	}
	req := map[string]any{"name": "Referee's cup", "from": "2026-12-06", "to": "2026-12-06", "players": ids, "tables": 1,
		"games": 1, "seed": 3, "final": map[string]any{"size": 0}, "referee": "ნინო", "referee_account": "nobody-here",
		"online": map[string]any{"no_show": tournament.NoShowStandIn, "wait_s": 3600,
			"timings_ms": map[string]int64{"speech": 5000, "defence": 5000, "tie_speech": 5000, "last_words": 5000, "night": 150, "vote": 400}}}
	var no refusal
	if code := do(t, "POST", clubURL+"/tournaments", s.club.Token, req, &no); code != http.StatusBadRequest || no.Error.Code != "bad_member" {
		t.Fatalf("a referee's account the site has not: %d %+v, want bad_member", code, no)
	}
	req["referee_account"] = strings.Repeat("n", 200)
	if code := do(t, "POST", clubURL+"/tournaments", s.club.Token, req, &no); code != http.StatusBadRequest || no.Error.Code != "bad_member" {
		t.Fatalf("a referee's account name too long: %d %+v, want bad_member", code, no)
	}
	req["referee_account"] = "Nino7"
	var tr tournamentAnswer
	if code := do(t, "POST", clubURL+"/tournaments", s.club.Token, req, &tr); code != http.StatusCreated {
		t.Fatalf("make the tournament: %d", code)
	}
	if tr.Referee != "ნინო" || tr.RefereeLogin != "Nino7" || tr.RefereeAccount != 0 {
		t.Errorf("the referee shown: %q, account %q, id %d; want ნინო, Referee1 and no id", tr.Referee, tr.RefereeLogin, tr.RefereeAccount)
	}
	base := clubURL + "/tournaments/" + tr.ID
	if code := do(t, "POST", base+"/rounds", s.club.Token, nil, &tr); code != http.StatusOK {
		t.Fatalf("seat the rounds: %d", code)
	}
	if code := do(t, "POST", base+"/rounds/1/online", s.club.Token, nil, nil); code != http.StatusOK {
		t.Fatalf("open round 1: %d", code)
	}
	extraURL := base + "/rounds/1/tables/1/extra"
	// Before the game is over even the referee is told to wait.
	if code := do(t, "PUT", extraURL, referee, map[string]any{"extra": []map[string]any{{"seat": 1, "points": 0.1}}}, &no); code != http.StatusConflict ||
		no.Error.Code != "tournament_table_not_over" {
		t.Errorf("extras before the end: %d %+v, want tournament_table_not_over", code, no)
	}
	s.play(t, ctx, s.sit(t, ctx, base, creds, 1), 7)
	finished(t, ctx, base, 1)

	give := []map[string]any{{"seat": 2, "points": 0.3}, {"seat": 5, "points": -0.2}}
	for _, c := range []struct {
		who, token, code string
		status           int
	}{
		{"a stranger's account", stranger, string(tournament.CodeNotReferee), http.StatusForbidden},
		{"a plain member's account", member, string(tournament.CodeNotReferee), http.StatusForbidden},
		{"no login", "", "bad_token", http.StatusForbidden},
	} {
		var no refusal
		if code := do(t, "PUT", extraURL+"?lang=ka", c.token, map[string]any{"extra": give}, &no); code != c.status || no.Error.Code != c.code ||
			no.Error.Message == "" || strings.Contains(no.Error.Message, "error.") {
			t.Errorf("%s's extras: %d %+v, want %d %s with a sentence", c.who, code, no, c.status, c.code)
		}
	}
	var got tournamentAnswer
	do(t, "GET", base, "", nil, &got)
	if x := got.Rounds[0].Tables[0].Extra; len(x) != 0 {
		t.Fatalf("extras kept from a refused change: %+v", x)
	}

	// The referee gives them; a value past the range is refused naming the seat.
	if code := do(t, "PUT", extraURL, referee, map[string]any{"extra": []map[string]any{{"seat": 6, "points": 0.9}}}, &no); code != http.StatusBadRequest ||
		no.Error.Code != "bad_extra" || !strings.Contains(no.Error.Message, "6") {
		t.Errorf("the referee's extras past the range: %d %+v, want bad_extra naming seat 6", code, no)
	}
	if code := do(t, "PUT", extraURL, referee, map[string]any{"extra": give}, nil); code != http.StatusOK {
		t.Fatalf("the referee's extras: %d", code)
	}
	standing := func() map[string]tournament.Standing {
		var rows struct{ Standings []tournament.Standing }
		if code := do(t, "GET", base+"/standings.json", "", nil, &rows); code != http.StatusOK || len(rows.Standings) != 10 {
			t.Fatalf("standings: %d, %d rows", code, len(rows.Standings))
		}
		out := map[string]tournament.Standing{}
		for _, r := range rows.Standings {
			out[r.Person] = r
		}
		return out
	}
	players := tr.Rounds[0].Tables[0].Players
	for seat, want := range map[int]club.Points{2: 30, 5: -20, 1: 0} {
		if got := standing()[players[seat-1]].Extra; got != want {
			t.Errorf("seat %d's extra in the standings after the referee's: %v, want %v", seat, got, want)
		}
	}

	// Nothing else of the club's is the referee's.
	if code := do(t, "POST", base+"/close", referee, nil, &no); code != http.StatusForbidden || no.Error.Code != "not_club_host" {
		t.Errorf("the referee closes the tournament: %d %+v, want not_club_host", code, no)
	}
	if code := do(t, "PUT", base+"/referee", referee, map[string]any{"referee": "x", "account": "Gela7"}, &no); code != http.StatusForbidden ||
		no.Error.Code != "not_club_host" {
		t.Errorf("the referee names another: %d %+v, want not_club_host", code, no)
	}
	if code := do(t, "PUT", clubURL+"/members/Gela7", referee, map[string]any{"role": "member"}, &no); code != http.StatusForbidden {
		t.Errorf("the referee adds a member: %d %+v, want 403", code, no)
	}

	// The club's host (by their login) still gives extras, in place of the referee's.
	if code := do(t, "PUT", extraURL, host, map[string]any{"extra": []map[string]any{{"seat": 1, "points": 0.4}}}, nil); code != http.StatusOK {
		t.Fatalf("the host's extras: %d", code)
	}
	st := standing()
	for seat, want := range map[int]club.Points{1: 40, 2: 0, 5: 0} {
		if got := st[players[seat-1]].Extra; got != want {
			t.Errorf("seat %d's extra after the host's: %v, want %v", seat, got, want)
		}
	}

	// The host names another referee's account: the first may give no more.
	if code := do(t, "PUT", base+"/referee", s.club.Token, map[string]any{"referee": "", "account": "Gela7"}, &got); code != http.StatusOK ||
		got.Referee != "Gela7" || got.RefereeLogin != "Gela7" {
		t.Fatalf("name another referee: %d, %q %q", code, got.Referee, got.RefereeLogin)
	}
	if code := do(t, "PUT", extraURL, referee, map[string]any{"extra": give}, &no); code != http.StatusForbidden || no.Error.Code != "not_referee" {
		t.Errorf("the former referee's extras: %d %+v, want not_referee", code, no)
	}
	if code := do(t, "PUT", extraURL, stranger, map[string]any{"extra": give}, nil); code != http.StatusOK {
		t.Errorf("the new referee's extras: %d", code)
	}
}
