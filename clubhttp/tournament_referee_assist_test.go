package clubhttp_test

import (
	"fmt"
	"net/http"
	"testing"
)

// TestTournamentReferee_AGameMadeAtTheTablesLinkInvitesTheRefereesAccount:
// on a real server on loopback with a real SQLite file, the assistant's
// game made from a tournament's table link (its setup naming the round and
// the table) invites the referee's account the organiser named: the
// referee, logged in, finds the game among "Games you are invited to
// referee" under the referee's name and follows it with one tap (a
// co-host's key, no code); a stranger's account finds nothing and is
// refused not_cohost. A game of a tournament with no referee's account,
// and a club's game of no tournament, invite nobody.
func TestTournamentReferee_AGameMadeAtTheTablesLinkInvitesTheRefereesAccount(t *testing.T) {
	site := newAssistSite(t, "Kutaisi club")
	ids, signup := site.ids, site.signup
	referee, stranger := signup("Keti9"), signup("Levan9")

	base := site.url + "/host/api/clubs/" + site.club + "/tournaments"
	tournamentOf := func(refereeAccount string) tournamentAnswer {
		t.Helper()
		var tr tournamentAnswer
		if code := do(t, "POST", base, site.token, map[string]any{"name": "Cup", "from": "2026-12-06", "to": "2026-12-06",
			"players": ids, "tables": 1, "games": 1, "seed": 3, "final": map[string]any{"size": 0},
			"referee": "ქეთი", "referee_account": refereeAccount}, &tr); code != http.StatusCreated {
			t.Fatalf("make the tournament: %d", code)
		}
		if code := do(t, "POST", base+"/"+tr.ID+"/rounds", site.token, nil, &tr); code != http.StatusOK {
			t.Fatalf("seat: %d", code)
		}
		return tr
	}
	make := func(tr *tournamentAnswer) string {
		t.Helper()
		people := ids
		clubPart := map[string]any{"club": site.club, "day": "2026-12-06", "table": "1", "number": 1, "people": people}
		if tr != nil {
			people = tr.Rounds[0].Tables[0].Players
			clubPart = map[string]any{"club": site.club, "day": "2026-12-06", "table": "1", "number": 1, "people": people,
				"tournament": map[string]any{"id": tr.ID, "round": 1, "table": 1}}
		}
		names := make([]string, len(people))
		for i := range people {
			names[i] = fmt.Sprintf("Seat %d", i+1)
		}
		var made struct{ ID string }
		if code := do(t, "POST", site.url+"/host/api/games", "", map[string]any{"name": "Cup", "names": names, "deal": "links",
			"club_token": site.token, "club": clubPart}, &made); code != http.StatusCreated {
			t.Fatalf("make the game: %d", code)
		}
		return made.ID
	}
	type invitation struct {
		Game, Name, As string
		Joined         bool
	}
	invited := func(tok string) []invitation {
		t.Helper()
		var out struct{ Invitations []invitation }
		if code := do(t, "GET", site.url+"/host/api/invitations", tok, nil, &out); code != http.StatusOK {
			t.Fatalf("invitations: %d", code)
		}
		return out.Invitations
	}

	noReferee := tournamentOf("")
	make(&noReferee)
	make(nil)
	if got := invited(referee); len(got) != 0 {
		t.Fatalf("games of no referee's account invite the referee: %+v", got)
	}
	withReferee := tournamentOf("Keti9")
	id := make(&withReferee)
	got := invited(referee)
	if len(got) != 1 || got[0].Game != id || got[0].As != "ქეთი" || got[0].Joined {
		t.Fatalf("the referee's invitations: %+v, want the game %s as ქეთი", got, id)
	}
	if got := invited(stranger); len(got) != 0 {
		t.Errorf("a stranger is invited: %+v", got)
	}
	var no refusal
	if code := do(t, "POST", site.url+"/host/api/games/"+id+"/cohosts/account", stranger, nil, &no); code != http.StatusForbidden ||
		no.Error.Code != "not_cohost" {
		t.Errorf("a stranger follows: %d %+v, want not_cohost", code, no)
	}
	var key struct{ Key string }
	if code := do(t, "POST", site.url+"/host/api/games/"+id+"/cohosts/account", referee, nil, &key); code != http.StatusOK || key.Key == "" {
		t.Fatalf("the referee follows: %d %+v", code, key)
	}
	if got := invited(referee); len(got) != 1 || !got[0].Joined {
		t.Errorf("after following: %+v", got)
	}
}
