package server

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// TestRecord_AFinishedGamesWholeRecordForItsPlayersOnly: GET
// /api/tables/{id}/record is refused with bad_token (403, in the asker's
// language) to a request with no token or another table's, whatever the
// game's state; with not_over (409), the same bytes for every seat's token
// and the host's, before the start and while the game goes on; and once it
// has ended it gives each of them the same whole record: every seat's card,
// every night action with its answer, every vote, in the stored log's
// order, fitting the schema's record.
func TestRecord_AFinishedGamesWholeRecordForItsPlayersOnly(t *testing.T) {
	ts := startServerWith(t, "", both(localized, func(c *Config) { c.Limits.Unlimited = loopback }))
	ctx := within(t, 90*time.Second)
	other, err := ts.api.Create(ctx, client.CreateRequest{Name: "other", Players: 5})
	if err != nil {
		t.Fatal(err)
	}
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "rec", Players: 5, TimingsMS: fastTimings}, []int{1, 2, 3}, 3)
	tokens := []string{tb.host}
	for _, p := range tb.players[1:] {
		tokens = append(tokens, p.token)
	}
	path := "/api/tables/" + tb.id + "/record"
	refusedAlike := func(when string) {
		t.Helper()
		var first []byte
		for i, tok := range tokens {
			status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, "en", tok, "")
			var e errorBody
			if json.Unmarshal(body, &e); status != 409 || e.Error.Code != "not_over" {
				t.Errorf("%s, token %d: %d %s, want 409 not_over", when, i, status, body)
			}
			if first == nil {
				first = body
			} else if string(body) != string(first) {
				t.Errorf("%s: token %d is refused with %s, token 0 with %s", when, i, body, first)
			}
		}
		for _, lang := range []string{"en", "ka", "ru"} {
			for who, tok := range map[string]string{"no token": "", "another table's host token": other.HostToken} {
				status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, lang, tok, "")
				var e errorBody
				if json.Unmarshal(body, &e); status != 403 || e.Error.Code != "bad_token" {
					t.Errorf("%s, %s: %d %s, want 403 bad_token", when, who, status, body)
				}
				checkSentence(t, when+", "+who, lang, e.Error.Code, e.Error.Message)
			}
		}
	}
	refusedAlike("in the lobby")
	for _, p := range tb.players {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []string{"add_bots", "start"} {
		if err := tb.players[0].call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	refusedAlike("on night 1")
	run := playAll(ctx, tb.players)
	if err := <-run.done; err != nil {
		t.Fatal(err)
	}
	stored, err := ts.db.Events(ctx, tb.id)
	if err != nil {
		t.Fatal(err)
	}
	var first []byte
	for i, tok := range tokens {
		status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, "", tok, "")
		if status != 200 {
			t.Fatalf("token %d after the end: %d %s", i, status, body)
		}
		if err := validate("record", body); err != nil {
			t.Errorf("the record does not fit the schema: %v", err)
		}
		if first == nil {
			first = body
		} else if string(body) != string(first) {
			t.Errorf("token %d gets another record", i)
		}
	}
	var rec struct {
		Table   string
		Players int
		Seats   []struct {
			Seat int
			Name string
			Bot  bool
		}
		Events []wire.Event
	}
	if err := json.Unmarshal(first, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Table != tb.id || rec.Players != 5 || len(rec.Seats) != 5 || len(rec.Events) != len(stored) {
		t.Fatalf("record of %s: %d players, %d seats, %d events; want %s, 5, 5, %d", rec.Table, rec.Players, len(rec.Seats), len(rec.Events), tb.id, len(stored))
	}
	kinds := map[string]int{}
	for i, e := range rec.Events {
		want := wire.FromEvent(stored[i], 5)
		if a, b := js(e), js(want); a != b {
			t.Errorf("event %d is %s, the log's %s", i, a, b)
		}
		kinds[e.Kind]++
	}
	if gs := rec.Events[0]; gs.Kind != "game_started" || slices.Contains(gs.Roles, "") {
		t.Errorf("the record's deal does not show every card: %+v", gs)
	}
	if kinds["game_ended"] != 1 || kinds["mafia_chose"]+kinds["checked"]+kinds["healed"]+kinds["shot"]+kinds["skipped"] == 0 {
		t.Errorf("the record holds no end, or no night action: %v", kinds)
	}
	if kinds["vote_closed"] > 0 && kinds["vote_cast"] == 0 {
		t.Errorf("the record has votes but no vote_cast: %v", kinds)
	}
	status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, "", "", "")
	if status != 403 {
		t.Errorf("after the end with no token: %d %s, want 403 bad_token", status, body)
	}
}
