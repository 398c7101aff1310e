package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mafia/store"
)

// TestNames_RefusedWithACodedTranslatedSentence: over HTTP, a table name
// or a player name that is too long, holds a control, bidi or zero-width
// character, is not UTF-8, or (a player's) reads as a bot's, is refused
// with its own code and a sentence in the request's language, and makes no
// table and takes no seat.
func TestNames_RefusedWithACodedTranslatedSentence(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables", "", "", `{"name":"Friday club","players":5}`)
	if status != 201 {
		t.Fatalf("create: %d %s", status, body)
	}
	var created struct{ Table string }
	if err := json.Unmarshal(body, &created); err != nil {
		t.Fatal(err)
	}
	join := "/api/tables/" + created.Table + "/join"
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	cases := []struct {
		what, path, body, code string
	}{
		{"a table name of 16300 characters", "/api/tables", `{"players":5,"name":` + quote(strings.Repeat("x", 16300)) + `}`, "name_too_long"},
		{"a table name with a bidi override", "/api/tables", `{"players":5,"name":"\u202eclub"}`, "name_bad_character"},
		{"a table name with NUL", "/api/tables", `{"players":5,"name":"club\u0000"}`, "name_bad_character"},
		// A body that is not UTF-8 is no JSON text: the strict decoder
		// refuses it before any name is read (room.CheckName refuses such a
		// name on every other path).
		{"a table name that is not UTF-8", "/api/tables", "{\"players\":5,\"name\":\"club\xff\"}", "bad_request"},
		{"a player name of 33 characters", join, `{"name":` + quote(strings.Repeat("x", 33)) + `}`, "name_too_long"},
		{"a player name with a bidi isolate", join, `{"name":"Nino\u2066"}`, "name_bad_character"},
		{"a player name with a zero-width space", join, `{"name":"Ni\u200bno"}`, "name_bad_character"},
		{"a player name with a newline", join, `{"name":"Ni\nno"}`, "name_bad_character"},
		{"a player named like a bot", join, `{"name":"bot 3"}`, "name_like_bot"},
		{"a player named like a bot in Russian", join, `{"name":"Бот 3"}`, "name_like_bot"},
		{"a player named like a bot in Georgian", join, `{"name":"ბოტი 3"}`, "name_like_bot"},
	}
	for _, c := range cases {
		for _, lang := range []string{"en", "ka", "ru"} {
			status, _, body := apiCall(ctx, t, ts.api.Base, "POST", c.path, lang, "", c.body)
			var e errorBody
			if err := json.Unmarshal(body, &e); err != nil || status != 400 || e.Error.Code != c.code {
				t.Errorf("%s (%s): %d %.300s, want 400 %s", c.what, lang, status, body, c.code)
				continue
			}
			checkSentence(t, c.what, lang, e.Error.Code, e.Error.Message)
		}
	}
	lobby, err := ts.api.Table(ctx, created.Table)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range lobby.Seats {
		if s.Taken {
			t.Errorf("a refused name took seat %d as %q", s.Seat, s.Name)
		}
	}
	if tables, err := ts.api.Tables(ctx); err != nil || len(tables) != 0 {
		// the first table is private: none is listed
		t.Errorf("listed tables: %d, %v", len(tables), err)
	}
	if all, err := ts.db.Tables(ctx, store.KindOnline, store.TableFilter{Status: "lobby"}); err != nil || len(all) != 1 {
		t.Errorf("refused names made tables: %d, %v", len(all), err)
	}
}
