package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/store"
	"mafia/wire"
)

// TestSandbox_ABotIsTestedAsTheDetective is a bot author's sandbox over
// the real API: created with "card":"detective" (the create request and
// answer fitting the schema, the lobby saying sandbox), the host's seat at
// 3, every other person's join refused with sandbox_table (403, in each
// language), a spectator watching; the host's seat is dealt the
// Detective, the spectator is sent nothing of the deal before the end,
// and the finished game's record and lobby say sandbox. After a restart
// of the server on the same file, the ended sandbox and one still in the
// lobby are sandboxes still, and the second refuses a guest's join.
func TestSandbox_ABotIsTestedAsTheDetective(t *testing.T) {
	ts := startServerWith(t, "", both(localized, func(c *Config) { c.Limits.Unlimited = loopback }))
	ctx := within(t, 120*time.Second)
	timings, _ := json.Marshal(fastTimings)
	req := `{"name":"bot lab","players":7,"sandbox":{"card":"detective"},"timings_ms":` + string(timings) + `}`
	_, body := httpFits(ctx, t, ts, "POST", "/api/tables", "", "create_request", req, "create_response")
	var created client.Created
	if err := json.Unmarshal(body, &created); err != nil {
		t.Fatal(err)
	}
	id := created.Table
	if !created.Lobby.Sandbox || created.Lobby.Public {
		t.Fatalf("the created lobby: sandbox %v, public %v", created.Lobby.Sandbox, created.Lobby.Public)
	}
	_, body = httpFits(ctx, t, ts, "POST", "/api/tables/"+id+"/join", created.HostToken, "join_request", `{"name":"Author","seat":3}`, "join_response")
	var joined client.Joined
	if err := json.Unmarshal(body, &joined); err != nil || joined.Seat != 3 {
		t.Fatalf("the host's join: %s", body)
	}
	guestRefused := func(when, id string) {
		t.Helper()
		for _, lang := range []string{"en", "ka", "ru"} {
			for _, b := range []string{`{"name":"Guest"}`, `{"name":"Guest","seat":2}`} {
				status, _, body := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables/"+id+"/join", lang, "", b)
				var e errorBody
				if json.Unmarshal(body, &e); status != 403 || e.Error.Code != "sandbox_table" {
					t.Errorf("%s: a guest's join %s: %d %s, want 403 sandbox_table", when, b, status, body)
				}
				checkSentence(t, when, lang, e.Error.Code, e.Error.Message)
			}
		}
	}
	guestRefused("in the lobby", id)
	if tables, err := ts.api.Tables(ctx); err != nil || len(tables) != 0 {
		t.Errorf("the public list holds %d tables (%v), want none", len(tables), err)
	}

	host := newPlayer(ts.api.Base, id, created.HostToken, 3, 7)
	spect := newPlayer(ts.api.Base, id, "", 0, 0)
	spect.keep = true
	for _, p := range []*player{host, spect} {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []string{"add_bots", "start"} {
		if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	if err := host.untilPhase(ctx, "night"); err != nil {
		t.Fatal(err)
	}
	if host.view.Role != "detective" {
		t.Fatalf("the host's seat is the %q, not the detective", host.view.Role)
	}
	run := playAll(ctx, []*player{host, spect})
	if err := <-run.done; err != nil {
		t.Fatal(err)
	}
	for _, f := range spect.frames {
		if bytes.Contains(f, []byte(`"game_ended"`)) {
			break
		}
		if bytes.Contains(f, []byte("detective")) || bytes.Contains(f, []byte(`"sandbox":{`)) {
			t.Errorf("a spectator's frame before the end tells of the deal: %.300s", f)
		}
	}

	checkMarked := func(when string) {
		t.Helper()
		_, body := httpFits(ctx, t, ts, "GET", "/api/tables/"+id+"/record", created.HostToken, "", "", "record")
		var rec struct {
			Sandbox bool
			Events  []wire.Event
		}
		if err := json.Unmarshal(body, &rec); err != nil || len(rec.Events) == 0 {
			t.Fatalf("%s: the record: %s", when, body)
		}
		if !rec.Sandbox {
			t.Errorf("%s: the record does not say sandbox", when)
		}
		if gs := rec.Events[0]; gs.Kind != "game_started" || len(gs.Roles) != 7 || gs.Roles[2] != "detective" {
			t.Errorf("%s: the record's deal %+v does not give seat 3 the detective", when, gs)
		}
		_, body = httpFits(ctx, t, ts, "GET", "/api/tables/"+id, "", "", "", "lobby")
		if !bytes.Contains(body, []byte(`"sandbox":true`)) {
			t.Errorf("%s: the lobby does not say sandbox: %s", when, body)
		}
	}
	checkMarked("after the end")

	// A second sandbox waits in the lobby, its host seated, as the server
	// stops.
	waiting, err := ts.api.Create(ctx, client.CreateRequest{Name: "bot lab 2", Players: 5, Sandbox: &client.Sandbox{Deal: []string{"doctor", "don", "citizen", "detective", "citizen"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.api.Join(ctx, waiting.Table, "Author", 1, waiting.HostToken); err != nil {
		t.Fatal(err)
	}
	ts.close()
	ts = startServerWith(t, ts.path, both(localized, func(c *Config) { c.Limits.Unlimited = loopback }))
	checkMarked("after a restart")
	if l, err := ts.api.Table(ctx, waiting.Table); err != nil || !l.Sandbox || l.Status != "lobby" {
		t.Errorf("the waiting sandbox after a restart: %+v, %v", l, err)
	}
	guestRefused("after a restart", waiting.Table)
}

// TestSandbox_BadSandboxesAreRefusedAndNoTableIsMade: a create request
// whose sandbox does not fit its table is refused (400) with the code that
// says why, in a sentence of the asker's language that names what was
// wrong, and no table is made.
func TestSandbox_BadSandboxesAreRefusedAndNoTableIsMade(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 60*time.Second)
	seven := `["citizen","don","citizen","detective","mafia","doctor","citizen"]`
	for _, c := range []struct {
		name, sandbox, extra string
		code                 string
		names                string // the English sentence holds it ("" nothing)
	}{
		{"an empty sandbox", `{}`, "", "sandbox_deal_or_card", ""},
		{"an empty deal", `{"deal":[]}`, "", "sandbox_deal_or_card", ""},
		{"a deal and a card", `{"deal":` + seven + `,"card":"doctor"}`, "", "sandbox_deal_or_card", ""},
		{"a deal and a seat", `{"deal":` + seven + `,"seat":2}`, "", "sandbox_deal_or_card", ""},
		{"a deal of 6 cards for 7 seats", `{"deal":["citizen","don","citizen","detective","mafia","doctor"]}`, "", "sandbox_deal_size", "7 seats"},
		{"two dons", `{"deal":["don","don","citizen","detective","citizen","doctor","citizen"]}`, "", "sandbox_deal_roles", "“don” cards in the setup: 1, in the deal: 2"},
		{"a card that is no role", `{"deal":["wizard","don","citizen","detective","mafia","doctor","citizen"]}`, "", "unknown_role", "wizard"},
		{"a card the setup lacks", `{"card":"maniac"}`, "", "sandbox_card", "maniac"},
		{"a seat off the table", `{"card":"detective","seat":9}`, "", "no_such_seat", "9"},
		{"a public sandbox", `{"card":"detective"}`, `,"public":true`, "sandbox_public", ""},
		{"an unknown field", `{"card":"detective","cards":2}`, "", "bad_request", ""},
	} {
		body := `{"name":"bad lab","players":7,"sandbox":` + c.sandbox + c.extra + `}`
		for _, lang := range []string{"en", "ka", "ru"} {
			status, _, got := apiCall(ctx, t, ts.api.Base, "POST", "/api/tables", lang, "", body)
			var e errorBody
			if json.Unmarshal(got, &e); status != 400 || e.Error.Code != c.code {
				t.Errorf("%s (%s): %d %s, want 400 %s", c.name, lang, status, got, c.code)
				continue
			}
			if err := validate("error_body", got); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			checkSentence(t, c.name, lang, e.Error.Code, e.Error.Message)
			if lang == "en" && c.names != "" && !strings.Contains(e.Error.Message, c.names) {
				t.Errorf("%s: %q does not name %s", c.name, e.Error.Message, c.names)
			}
		}
	}
	for _, st := range []store.Status{store.StatusLobby, store.StatusPlaying} {
		if tables, err := ts.db.Tables(ctx, store.KindOnline, store.TableFilter{Status: st}); err != nil || len(tables) != 0 {
			t.Errorf("%s tables after the refusals: %d, %v", st, len(tables), err)
		}
	}
}
