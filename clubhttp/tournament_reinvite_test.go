package clubhttp_test

import (
	"fmt"
	"net/http"
	"testing"
)

// TestTournamentReferee_ChangingTheRefereeMovesTheGamesInvitations: on a
// real server on loopback with a real SQLite file, the clubs and the
// assistant wired as `mafia serve` wires them (clubhttp's InviteWith), a
// game made at a tournament's table invites its referee's account. The
// organiser names another account: that game now invites the new referee
// (under the name shown), and the former's invitation is revoked (gone
// from their list; following it is refused not_cohost). A game of another
// tournament with the same referee keeps its invitation. Naming the same
// account again under another name changes nothing; naming no account
// revokes the invitation.
func TestTournamentReferee_ChangingTheRefereeMovesTheGamesInvitations(t *testing.T) {
	site := newAssistSite(t, "Rustavi club")
	ids, signup := site.ids, site.signup
	first, second := signup("Keti8"), signup("Levan8")

	base := site.url + "/host/api/clubs/" + site.club + "/tournaments"
	tournamentOf := func(name string) tournamentAnswer {
		t.Helper()
		var tr tournamentAnswer
		if code := do(t, "POST", base, site.token, map[string]any{"name": name, "from": "2026-12-06", "to": "2026-12-06",
			"players": ids, "tables": 1, "games": 1, "seed": 3, "final": map[string]any{"size": 0},
			"referee": "ქეთი", "referee_account": "Keti8"}, &tr); code != http.StatusCreated {
			t.Fatalf("make the tournament: %d", code)
		}
		if code := do(t, "POST", base+"/"+tr.ID+"/rounds", site.token, nil, &tr); code != http.StatusOK {
			t.Fatalf("seat: %d", code)
		}
		return tr
	}
	gameAt := func(tr tournamentAnswer) string {
		t.Helper()
		people := tr.Rounds[0].Tables[0].Players
		names := make([]string, len(people))
		for i := range people {
			names[i] = fmt.Sprintf("Seat %d", i+1)
		}
		var made struct{ ID string }
		if code := do(t, "POST", site.url+"/host/api/games", "", map[string]any{"name": tr.Name, "names": names, "deal": "links",
			"club_token": site.token, "club": map[string]any{"club": site.club, "day": "2026-12-06", "table": "1", "number": 1, "people": people,
				"tournament": map[string]any{"id": tr.ID, "round": 1, "table": 1}}}, &made); code != http.StatusCreated {
			t.Fatalf("make the game: %d", code)
		}
		return made.ID
	}
	type invitation struct {
		Game, Name, As string
		Joined         bool
	}
	invited := func(tok string) map[string]string {
		t.Helper()
		var out struct{ Invitations []invitation }
		if code := do(t, "GET", site.url+"/host/api/invitations", tok, nil, &out); code != http.StatusOK {
			t.Fatalf("invitations: %d", code)
		}
		by := map[string]string{}
		for _, x := range out.Invitations {
			by[x.Game] = x.As
		}
		return by
	}
	cup, other := tournamentOf("Cup"), tournamentOf("Other cup")
	game, otherGame := gameAt(cup), gameAt(other)
	if got := invited(first); len(got) != 2 || got[game] != "ქეთი" || got[otherGame] != "ქეთი" {
		t.Fatalf("the first referee's invitations %v, want both games", got)
	}
	referee := func(name, acct string) {
		t.Helper()
		if code := do(t, "PUT", base+"/"+cup.ID+"/referee", site.token, map[string]any{"referee": name, "account": acct}, nil); code != http.StatusOK {
			t.Fatalf("name the referee %q %q: %d", name, acct, code)
		}
	}

	referee("ლევანი", "Levan8")
	if got := invited(second); len(got) != 1 || got[game] != "ლევანი" {
		t.Errorf("the new referee's invitations %v, want the cup's game as ლევანი", got)
	}
	if got := invited(first); len(got) != 1 || got[otherGame] != "ქეთი" {
		t.Errorf("the former referee's invitations %v, want only the other cup's game", got)
	}
	var no refusal
	if code := do(t, "POST", site.url+"/host/api/games/"+game+"/cohosts/account", first, nil, &no); code != http.StatusForbidden ||
		no.Error.Code != "not_cohost" {
		t.Errorf("the former referee follows the cup's game: %d %+v, want not_cohost", code, no)
	}
	var key struct{ Key string }
	if code := do(t, "POST", site.url+"/host/api/games/"+game+"/cohosts/account", second, nil, &key); code != http.StatusOK || key.Key == "" {
		t.Errorf("the new referee follows: %d %+v", code, key)
	}

	referee("Levan", "Levan8") // the same account: the invitation stays, followed
	var out struct{ Invitations []invitation }
	do(t, "GET", site.url+"/host/api/invitations", second, nil, &out)
	if len(out.Invitations) != 1 || !out.Invitations[0].Joined {
		t.Errorf("after naming the same account again: %+v, want the one invitation, followed", out.Invitations)
	}

	referee("Levan", "")
	if got := invited(second); len(got) != 0 {
		t.Errorf("no referee's account: the former's invitations %v, want none", got)
	}
}
