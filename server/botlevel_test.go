package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/store"
)

// TestBotsLevel_ChosenAtCreationShownInTheLobbyAndRefusedWhenUnknown: the
// create request's bots gives the table's level (shown in its lobby); an
// unknown level or side is refused with a sentence in the asker's language
// naming what was sent, and makes no table.
func TestBotsLevel_ChosenAtCreationShownInTheLobbyAndRefusedWhenUnknown(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	created, err := ts.api.Create(ctx, client.CreateRequest{Name: "smart", Players: 7, Bots: "town=smart,mafia=smart"})
	if err != nil {
		t.Fatal(err)
	}
	lobby, err := ts.api.Table(ctx, created.Table)
	if err != nil || lobby.Bots != "town=smart,mafia=smart" {
		t.Errorf("the lobby's bots: %q %v", lobby.Bots, err)
	}
	if plain, err := ts.api.Create(ctx, client.CreateRequest{Name: "plain", Players: 7}); err != nil {
		t.Fatal(err)
	} else if l, _ := ts.api.Table(ctx, plain.Table); l.Bots != "" {
		t.Errorf("a table made without bots says %q", l.Bots)
	}
	for _, c := range []struct{ name, bots, code, named string }{
		{"an unknown level", "genius", "unknown_bot_level", "genius"},
		{"an unknown side", "detective=smart", "unknown_bot_side", "detective"},
	} {
		for _, lang := range []string{"en", "ka", "ru"} {
			status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables", lang, "", `{"name":"x","players":7,"bots":"`+c.bots+`"}`)
			var e errorBody
			if err := json.Unmarshal(body, &e); err != nil || status != 400 || e.Error.Code != c.code {
				t.Errorf("%s (%s): %d %s, want 400 %s", c.name, lang, status, body, c.code)
				continue
			}
			if !strings.Contains(e.Error.Message, c.named) {
				t.Errorf("%s (%s): %q does not name %q", c.name, lang, e.Error.Message, c.named)
			}
			checkSentence(t, c.name, lang, e.Error.Code, e.Error.Message)
		}
	}
	tables, err := ts.db.Tables(ctx, store.KindOnline, store.TableFilter{Status: "lobby"})
	if err != nil || len(tables) != 2 {
		t.Errorf("%d tables in the lobby, want the two made (%v)", len(tables), err)
	}
}
