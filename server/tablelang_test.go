package server

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"mafia/locale"
	"mafia/room"
	"mafia/store"
)

// TestTableLang_TheCreatorsLanguageElseTheDefaultErrorsUse: a table is made
// in the language its creator's request names, and, when the request names
// none, in the server's one default: the language a refusal to that same
// request is written in (English), so that a program that sends no
// language reads every sentence, bots' and errors', in one language.
func TestTableLang_TheCreatorsLanguageElseTheDefaultErrorsUse(t *testing.T) {
	ts := startServer(t, "")
	ctx := context.Background()
	status, _, body := apiCall(ctx, t, ts.api.Base, http.MethodPost, "/api/tables", "", "", `{"name":"x","players":99}`)
	var refusal errorBody
	if err := json.Unmarshal(body, &refusal); err != nil || status/100 != 4 {
		t.Fatalf("a bad table: %d %s", status, body)
	}
	if !script(locale.Lang(room.DefaultLang), refusal.Error.Message) || room.DefaultLang != locale.En {
		t.Fatalf("a request with no language is refused in %q (the default: %s)", refusal.Error.Message, room.DefaultLang)
	}
	def := string(room.DefaultLang)
	for header, want := range map[string]string{"ru-RU,ru;q=0.9": "ru", "en-GB": "en", "ka": "ka", "": def, "de-DE": def} {
		status, _, body := apiCall(ctx, t, ts.api.Base, http.MethodPost, "/api/tables", header, "", `{"name":"x","players":7}`)
		if status != http.StatusCreated {
			t.Fatalf("Accept-Language %q: %d %s", header, status, body)
		}
		var resp createResponse
		if err := json.Unmarshal(body, &resp); err != nil {
			t.Fatal(err)
		}
		tb, _, err := ts.db.Table(ctx, store.KindOnline, resp.Table)
		if err != nil {
			t.Fatal(err)
		}
		var set room.Settings
		if err := json.Unmarshal(tb.Data, &set); err != nil {
			t.Fatal(err)
		}
		if set.Lang != want {
			t.Errorf("a table made with Accept-Language %q speaks %q, want %q", header, set.Lang, want)
		}
	}
}
