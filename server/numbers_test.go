package server

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafia/store"
)

// TestNumbers_RangeCheckedBeforeNarrowingAndNamedAsSent: a step length or
// a bot delay of 2^58 ms does not wrap into a few seconds and a table; a
// join's seat past 255 or below 0 does not wrap onto a seat; each refusal
// names the number as the client sent it, in every language.
func TestNumbers_RangeCheckedBeforeNarrowingAndNamedAsSent(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	wrap := strconv.FormatInt(1<<58+5000, 10) // ×10^6 ns wraps to 5 s
	status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables", "", "", `{"name":"x","players":5}`)
	if status != 201 {
		t.Fatalf("create: %d %s", status, body)
	}
	var created struct{ Table string }
	if err := json.Unmarshal(body, &created); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path, body, code, number string
	}{
		{"a speech of 2^58+5000 ms", "/api/tables", `{"name":"x","players":5,"timings_ms":{"speech":` + wrap + `}}`, "bad_timing", wrap},
		{"a night of -1 ms", "/api/tables", `{"name":"x","players":5,"timings_ms":{"night":-1}}`, "bad_timing", "-1"},
		{"a bot delay of 2^58 ms", "/api/tables", `{"name":"x","players":5,"bot_delay_ms":288230376151711744}`, "bad_bot_delay", "288230376151711744"},
		{"a bot delay of 2^58+5000 ms", "/api/tables", `{"name":"x","players":5,"bot_delay_ms":` + wrap + `}`, "bad_bot_delay", wrap},
		{"a join at seat -254", "/api/tables/" + created.Table + "/join", `{"name":"a","seat":-254}`, "no_such_seat", "-254"},
		{"a join at seat 2^32+1", "/api/tables/" + created.Table + "/join", `{"name":"a","seat":4294967297}`, "no_such_seat", "4294967297"},
	}
	for _, c := range cases {
		for _, lang := range []string{"en", "ka", "ru"} {
			status, _, body := apiCall(ctx, t, ts.api.Base, "POST", c.path, lang, "", c.body)
			var e errorBody
			if err := json.Unmarshal(body, &e); err != nil || status != 400 || e.Error.Code != c.code {
				t.Errorf("%s (%s): %d %s, want 400 %s", c.name, lang, status, body, c.code)
				continue
			}
			if !strings.Contains(e.Error.Message, c.number) {
				t.Errorf("%s (%s): %q does not name %s", c.name, lang, e.Error.Message, c.number)
			}
			checkSentence(t, c.name, lang, e.Error.Code, e.Error.Message)
		}
	}
	lobby, err := ts.api.Table(ctx, created.Table)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range lobby.Seats {
		if s.Taken {
			t.Errorf("a refused join took seat %d", s.Seat)
		}
	}
	tables, err := ts.db.Tables(ctx, store.KindOnline, store.TableFilter{Status: "lobby"})
	if err != nil || len(tables) != 1 {
		t.Errorf("the refused creations made tables: %d, %v", len(tables), err)
	}
}
