package assist_test

import (
	"context"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"mafia/assist/internal/hosttest"
	"mafia/assist/record"
)

// TestHistory_ListsAGameToItsHostAndItsClubOnly (issue 25, item 11): the
// history lists a game to the phone that holds its host token (bearer or
// cookie), to the account logged in when it was made, and a club's game
// to the club's code and its members; a visitor with none of these, and
// another account, get an empty list.
func TestHistory_ListsAGameToItsHostAndItsClubOnly(t *testing.T) {
	ms := hosttest.StartMembersServer(t)
	nino, gio, tamar := ms.Signup(t, "Nino"), ms.Signup(t, "Gio"), ms.Signup(t, "Tamar")
	game := map[string]any{"names": hosttest.Names7, "deal": record.DealManual, "roles": hosttest.Roles7}
	var mine, phone, clubs hosttest.Created
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/games", nino, game, &mine); code != http.StatusCreated {
		t.Fatalf("Nino's game: %d", code)
	}
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/games", "", game, &phone); code != http.StatusCreated {
		t.Fatalf("a phone's game: %d", code)
	}
	var c hosttest.ClubCreated
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/clubs", nino, map[string]any{"name": "Tbilisi club"}, &c); code != http.StatusCreated {
		t.Fatalf("the club: %d", code)
	}
	if code := hosttest.Call(t, "PUT", ms.URL+"/host/api/clubs/"+c.ID+"/members/Gio", nino, map[string]any{}, nil); code != http.StatusOK {
		t.Fatalf("Gio joins the club: %d", code)
	}
	clubGame := map[string]any{"names": hosttest.Names7, "deal": record.DealManual, "roles": hosttest.Roles7, "club_token": c.Token,
		"club": map[string]any{"club": c.ID, "day": "2026-12-01"}}
	if code := hosttest.Call(t, "POST", ms.URL+"/host/api/games", "", clubGame, &clubs); code != http.StatusCreated {
		t.Fatalf("the club's game: %d", code)
	}
	sorted := func(ids ...string) []string { sort.Strings(ids); return ids }
	for _, c := range []struct {
		who     string
		token   string
		cookies []*http.Cookie
		want    []string
	}{
		{"a visitor", "", nil, []string{}},
		{"Nino, who made a game and owns the club", nino, nil, sorted(mine.ID, clubs.ID)},
		{"Gio, a member of the club", gio, nil, []string{clubs.ID}},
		{"Tamar, another account", tamar, nil, []string{}},
		{"the phone's game's host token", phone.HostToken, nil, []string{phone.ID}},
		{"the phone's game's cookie", "", []*http.Cookie{{Name: "assist_" + phone.ID, Value: phone.HostToken}}, []string{phone.ID}},
		{"a forged cookie", "", []*http.Cookie{{Name: "assist_" + phone.ID, Value: "0123456789abcdef"}}, []string{}},
		{"the club's code", c.Token, nil, []string{clubs.ID}},
		{"another game's host token", "not-a-token-of-any-game", nil, []string{}},
	} {
		if got := ms.Listed(t, c.token, c.cookies...); !slices.Equal(got, c.want) {
			t.Errorf("%s is listed %v, want %v", c.who, got, c.want)
		}
	}
	// The game moves to another phone (it loads the game with the token
	// it was handed): that phone keeps the game's cookie, and its history
	// lists the game.
	req, _ := http.NewRequest("GET", ms.URL+"/host/api/games/"+phone.ID, nil)
	req.Header.Set("Authorization", "Bearer "+phone.HostToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := ms.Listed(t, "", res.Cookies()...); !slices.Equal(got, []string{phone.ID}) {
		t.Errorf("the phone the game moved to is listed %v, want %v", got, []string{phone.ID})
	}
}

// TestBotToken_IsNoHost (issue 25, item 10): a bot account's token makes
// no club, lists no games and makes no game: 403 bot_credential with a
// sentence, wherever it is sent under /host/.
func TestBotToken_IsNoHost(t *testing.T) {
	ms := hosttest.StartMembersServer(t)
	nino := ms.Signup(t, "Nino")
	p, err := ms.Svc.Authenticate(context.Background(), nino)
	if err != nil {
		t.Fatal(err)
	}
	_, bot, err := ms.Svc.CreateBot(context.Background(), p, "Robo")
	if err != nil {
		t.Fatal(err)
	}
	game := map[string]any{"names": hosttest.Names7, "deal": record.DealManual, "roles": hosttest.Roles7}
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/host/api/clubs", map[string]any{"name": "Bots' club"}},
		{"GET", "/host/api/games", nil},
		{"POST", "/host/api/games", game},
		{"GET", "/host/api/clubs/mine", nil},
	} {
		var e hosttest.ErrJSON
		if code := hosttest.Call(t, c.method, ms.URL+c.path, bot, c.body, &e); code != http.StatusForbidden || e.Error.Code != "bot_credential" ||
			!strings.Contains(e.Error.Message, "bot") {
			t.Errorf("%s %s with a bot's token: %d %+v, want 403 bot_credential", c.method, c.path, code, e.Error)
		}
	}
}
