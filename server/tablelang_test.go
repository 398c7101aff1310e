package server

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"mafia/room"
	"mafia/store"
)

// TestTableLang_TheCreatorsLanguageElseGeorgian: a table is made in the
// language its creator's request names (the one its bots speak), and in
// Georgian, the club's own, when the request names none.
func TestTableLang_TheCreatorsLanguageElseGeorgian(t *testing.T) {
	ts := startServer(t, "")
	ctx := context.Background()
	for header, want := range map[string]string{"ru-RU,ru;q=0.9": "ru", "en-GB": "en", "ka": "ka", "": "ka", "de-DE": "ka"} {
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
