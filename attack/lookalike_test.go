package attack

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"mafia/client"
)

// TestAttack_LookalikesAndBotTokens (issue 25, items 10 and 11): an
// outsider signs up names that pass for another's (a Cyrillic letter in a
// Latin name, full-width letters, the site's words), makes a bot whose
// name passes the bot-name check, uses its bot's token as a host's login
// (a club, the assistant's games), sits at a stranger's table under the
// name of a player already there, and reads the assistant's history of
// in-person games. Each look-alike is refused with its code, the bot's
// token hosts nothing (403 bot_credential), the second seat shows another
// name than the first, and the history lists a stranger nothing while the
// host's own phone sees its game.
func TestAttack_LookalikesAndBotTokens(t *testing.T) {
	needAddrs(t)
	t.Parallel()
	tg := start(t, nil)
	ctx := within(t, 60*time.Second)
	jsonHdr := map[string]string{"Content-Type": "application/json"}
	signup := func(ip, name string) answer {
		return ask(ctx, t, from(ip), "POST", tg.base+"/api/account/signup", jsonHdr,
			fmt.Sprintf(`{"name":%q,"password":"a long enough password","bearer":true}`, name))
	}
	if a := signup("127.0.127.1", "ashwcbr"); a.status != http.StatusOK {
		t.Fatalf("the victim's signup: %d %s", a.status, a.code)
	}
	for i, c := range []struct{ name, code string }{
		{"\u0430shwcbr", "name_mixed_scripts"}, // a Cyrillic а, then Latin
		{"ａｓｈｗｃｂｒ", "name_lookalike"},          // full width
		{"ASHWCBR", "name_taken"},
		{"ａｄｍｉｎ", "name_forbidden"},
		{"admin", "name_forbidden"},
		{"system", "name_forbidden"},
		{"Moderator1", "name_forbidden"},
		{"\u0430\u0434\u043c\u0438\u043d", "name_forbidden"}, // админ
	} {
		if a := signup(fmt.Sprintf("127.0.127.%d", 10+i), c.name); a.code != c.code || a.message == "" {
			t.Errorf("signup %q: %d %s %q, want %s with a sentence", c.name, a.status, a.code, a.message, c.code)
		}
	}

	// The attacker's own account and a bot of it.
	a := signup("127.0.127.2", "mallory")
	var me struct{ Token string }
	if err := json.Unmarshal(a.body, &me); err != nil || a.status != http.StatusOK {
		t.Fatalf("the attacker's signup: %d %s", a.status, a.code)
	}
	bearer := map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + me.Token}
	if b := ask(ctx, t, from("127.0.127.2"), "POST", tg.base+"/api/account/bots", bearer, `{"name":"\ua4d0ot5"}`); b.status != http.StatusBadRequest {
		t.Errorf("a bot named ꓐot5 (a Lisu letter): %d %s, want 400", b.status, b.code)
	}
	b := ask(ctx, t, from("127.0.127.2"), "POST", tg.base+"/api/account/bots", bearer, `{"name":"Robo7"}`)
	var bot struct{ Token string }
	if err := json.Unmarshal(b.body, &bot); err != nil || b.status != http.StatusOK {
		t.Fatalf("the attacker's bot: %d %s", b.status, b.code)
	}
	botHdr := map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + bot.Token}
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/host/api/clubs", `{"name":"Bots' club"}`},
		{"GET", "/host/api/games", ""},
		{"POST", "/api/account/bots", `{"name":"Robo8"}`},
	} {
		if a := ask(ctx, t, from("127.0.127.2"), c.method, tg.base+c.path, botHdr, c.body); a.status != http.StatusForbidden || a.code != "bot_credential" {
			t.Errorf("%s %s with the bot's token: %d %s, want 403 bot_credential", c.method, c.path, a.status, a.code)
		}
	}

	// Two seats of one table under names that read alike.
	p := tg.newPlayer(ctx, t, "127.0.127.3") // seat 1: Nino
	for i, name := range []string{"NINO", "N\u0456no"} {
		if st, _, _, code := join(ctx, t, from(fmt.Sprintf("127.0.127.%d", 30+i)), tg.base, p.table, fmt.Sprintf(`{"name":%q}`, name)); st != http.StatusOK {
			t.Fatalf("join as %q: %d %s", name, st, code)
		}
	}
	lobby, err := (&client.API{Base: tg.base}).Table(ctx, p.table)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range lobby.Seats {
		if s.Taken {
			names = append(names, s.Name)
		}
	}
	if !slices.Equal(names, []string{"Nino", "NINO 2", "N\u0456no 3"}) {
		t.Errorf("the seats show %q, want each name apart", names)
	}

	// The assistant's history: a host's phone makes a game; a stranger
	// lists nothing, the phone its game.
	phone := browserFrom(t, "127.0.127.4")
	game := `{"names":["Nino","Giorgi","Tamar","Levan","Ana","Dato","Eka"],"deal":"manual","roles":["citizen","don","citizen","mafia","detective","doctor","citizen"]}`
	made := ask(ctx, t, phone, "POST", tg.base+"/host/api/games", jsonHdr, game)
	var g struct{ ID string }
	if err := json.Unmarshal(made.body, &g); err != nil || made.status != http.StatusCreated {
		t.Fatalf("the host's game: %d %s %s", made.status, made.code, made.body)
	}
	list := func(hc *http.Client) []string {
		a := ask(ctx, t, hc, "GET", tg.base+"/host/api/games", nil, "")
		var l struct{ Games []struct{ ID string } }
		if err := json.Unmarshal(a.body, &l); err != nil || a.status != http.StatusOK {
			t.Fatalf("the history: %d %s", a.status, a.body)
		}
		ids := []string{}
		for _, g := range l.Games {
			ids = append(ids, g.ID)
		}
		return ids
	}
	if got := list(from("127.0.127.5")); len(got) != 0 {
		t.Errorf("a stranger reads the history: %v, want nothing", got)
	}
	if got := list(phone); !slices.Equal(got, []string{g.ID}) {
		t.Errorf("the host's phone reads the history: %v, want its game %s", got, g.ID)
	}
}
