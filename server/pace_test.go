package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/store"
)

// TestPace_HumanUnlessTheRequestSaysOtherwise: a table made online is at
// human pace unless its create request names instant, or (a client from
// before there was a pace) gives a bot delay and no pace; the lobby says
// which; a pace that is neither is refused in the asker's language, naming
// it, and makes no table.
func TestPace_HumanUnlessTheRequestSaysOtherwise(t *testing.T) {
	ts := startServerWith(t, "", both(localized, func(c *Config) { c.Pace = "" })) // the server's own default
	ctx := within(t, 30*time.Second)
	for _, c := range []struct {
		name string
		req  client.CreateRequest
		want string // the lobby's pace
	}{
		{"no pace", client.CreateRequest{Name: "default", Players: 7}, "human"},
		{"human", client.CreateRequest{Name: "human", Players: 7, Pace: "human"}, "human"},
		{"instant", client.CreateRequest{Name: "instant", Players: 7, Pace: "instant"}, ""},
		{"a bot delay and no pace", client.CreateRequest{Name: "old client", Players: 7, BotDelayMS: 500}, ""},
		{"a bot delay at human pace", client.CreateRequest{Name: "both", Players: 7, BotDelayMS: 500, Pace: "human"}, "human"},
	} {
		created, err := ts.api.Create(ctx, c.req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if created.Lobby.Pace != c.want {
			t.Errorf("%s: the create response's lobby says pace %q, want %q", c.name, created.Lobby.Pace, c.want)
		}
		if l, err := ts.api.Table(ctx, created.Table); err != nil || l.Pace != c.want {
			t.Errorf("%s: the table's lobby says pace %q (%v), want %q", c.name, l.Pace, err, c.want)
		}
	}
	for _, lang := range []string{"en", "ka", "ru"} {
		status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables", lang, "", `{"name":"x","players":7,"pace":"slow"}`)
		var e errorBody
		if err := json.Unmarshal(body, &e); err != nil || status != 400 || e.Error.Code != "bad_pace" {
			t.Errorf("pace slow (%s): %d %s, want 400 bad_pace", lang, status, body)
			continue
		}
		if !strings.Contains(e.Error.Message, "slow") {
			t.Errorf("pace slow (%s): %q does not name it", lang, e.Error.Message)
		}
		checkSentence(t, "pace slow", lang, e.Error.Code, e.Error.Message)
	}
	tables, err := ts.db.Tables(ctx, store.KindOnline, store.TableFilter{Status: store.StatusLobby})
	if err != nil || len(tables) != 5 {
		t.Errorf("%d tables in the lobby, want the five made (%v)", len(tables), err)
	}
}
