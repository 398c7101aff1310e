package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// TestCreate_ARulesCodeSetsTheTablesRules: a table made with a club's rules
// code (any case) plays by its rules, and its lobby shows them and the
// code; an option given with the code is set over it (and the code shown
// is the rules' own); a code no ruleset is written as is refused
// bad_rules_code, naming it, in Georgian, English and Russian, and makes
// no table.
func TestCreate_ARulesCodeSetsTheTablesRules(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	base := ts.api.Base
	for _, c := range []struct {
		body, code string
		rules      map[string]string
	}{
		{`{"name":"club","players":11,"rules_code":" F1H3 "}`, "f1h3", map[string]string{"second_tie": "nobody", "foul_limit": "3"}},
		{`{"name":"club","players":11,"rules_code":"f1h3","options":{"first_night":"meeting"}}`, "a1f1h3",
			map[string]string{"first_night": "meeting", "second_tie": "nobody", "foul_limit": "3"}},
		{`{"name":"club","players":11,"rules_code":"std"}`, "std", nil},
		{`{"name":"club","players":11}`, "std", nil},
	} {
		status, _, body := apiCall(ctx, t, base, "POST", "/api/tables", "en", "", c.body)
		var made struct{ Table string }
		if status != http.StatusCreated || json.Unmarshal(body, &made) != nil {
			t.Fatalf("%s: %d %s", c.body, status, body)
		}
		status, _, body = apiCall(ctx, t, base, "GET", "/api/tables/"+made.Table, "en", "", "")
		var l wire.Lobby
		if status != http.StatusOK || json.Unmarshal(body, &l) != nil {
			t.Fatalf("the lobby: %d %s", status, body)
		}
		if l.RulesCode != c.code {
			t.Errorf("%s: rules_code %q, want %q", c.body, l.RulesCode, c.code)
		}
		for k, v := range c.rules {
			if l.Rules[k] != v {
				t.Errorf("%s: %s=%q, want %q", c.body, k, l.Rules[k], v)
			}
		}
	}
	// The Go client sends it too; the created answer's lobby carries it.
	made, err := ts.api.Create(ctx, client.CreateRequest{Name: "client", Players: 7, RulesCode: "e2"})
	if err != nil || made.Lobby.RulesCode != "e2" || made.Lobby.Rules["reveal_on_death"] != "role" {
		t.Errorf("the client's rules_code e2: %+v, %v", made.Lobby, err)
	}
	before, err := ts.api.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"ka", "en", "ru"} {
		for _, bad := range []string{"f1a1", "h99", "zz", "h4"} {
			status, _, body := apiCall(ctx, t, base, "POST", "/api/tables", lang, "",
				`{"name":"club","players":11,"public":true,"rules_code":"`+bad+`"}`)
			var eb struct {
				Error struct{ Code, Message string }
			}
			if err := json.Unmarshal(body, &eb); err != nil || status != http.StatusBadRequest || eb.Error.Code != "bad_rules_code" ||
				!strings.Contains(eb.Error.Message, bad) {
				t.Errorf("%s %q: %d %s; want 400 bad_rules_code naming it", lang, bad, status, body)
			}
			checkSentence(t, lang+" "+bad, lang, eb.Error.Code, eb.Error.Message)
		}
	}
	if after, err := ts.api.Tables(ctx); err != nil || len(after) != len(before) {
		t.Errorf("a refused code made a table: %d tables, then %d (%v)", len(before), len(after), err)
	}
}
