package server

import (
	"encoding/json"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// TestRecord_APublicTablesRecordIsAnyonesAfterTheEnd: at a public table
// the record (the game's review) is refused to a request with no token
// with not_over while the game goes on, the same bytes as a player's
// refusal, and given to it whole once the game has ended, with the
// table's name and "public"; it fits the schema.
func TestRecord_APublicTablesRecordIsAnyonesAfterTheEnd(t *testing.T) {
	ts := startServerWith(t, "", both(localized, func(c *Config) { c.Limits.Unlimited = loopback }))
	ctx := within(t, 90*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "open rec", Players: 5, TimingsMS: fastTimings, Public: true}, []int{1, 2}, 5)
	path := "/api/tables/" + tb.id + "/record"
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
	_, _, player := apiCall(ctx, t, ts.api.Base, "GET", path, "en", tb.players[1].token, "")
	for _, tok := range []string{"", "not-a-token"} {
		status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, "en", tok, "")
		if status != 409 || string(body) != string(player) {
			t.Errorf("token %q during the game: %d %s, want the player's 409 %s", tok, status, body, player)
		}
	}
	run := playAll(ctx, tb.players)
	if err := <-run.done; err != nil {
		t.Fatal(err)
	}
	stored, err := ts.db.Events(ctx, tb.id)
	if err != nil {
		t.Fatal(err)
	}
	status, _, body := apiCall(ctx, t, ts.api.Base, "GET", path, "", "", "")
	if status != 200 {
		t.Fatalf("after the end with no token: %d %s", status, body)
	}
	if err := validate("record", body); err != nil {
		t.Errorf("the record does not fit the schema: %v", err)
	}
	_, _, mine := apiCall(ctx, t, ts.api.Base, "GET", path, "", tb.players[0].token, "")
	if string(mine) != string(body) {
		t.Errorf("anyone's record differs from the host's:\n%s\n%s", body, mine)
	}
	var rec struct {
		Name   string
		Public bool
		Events []wire.Event
	}
	if err := json.Unmarshal(body, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Name != "open rec" || !rec.Public || len(rec.Events) != len(stored) {
		t.Fatalf("record: name %q, public %v, %d events of %d", rec.Name, rec.Public, len(rec.Events), len(stored))
	}
}
