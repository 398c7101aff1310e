package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mafia/client"
	"mafia/wire"
)

// httpFits calls the API and checks the answer's body against the
// schema's def (error_body for a refusal), and the request's body against
// reqDef when given. It returns the status and body.
func httpFits(ctx context.Context, t *testing.T, ts *testServer, method, path, token, reqDef, body, def string) (int, []byte) {
	t.Helper()
	if reqDef != "" {
		if err := validate(reqDef, []byte(body)); err != nil {
			t.Errorf("%s %s: the request %s does not fit %s: %v", method, path, body, reqDef, err)
		}
	}
	status, _, got := apiCall(ctx, t, ts.api.Base, method, path, "", token, body)
	if status >= 300 {
		def = "error_body"
	}
	if err := validate(def, got); err != nil {
		t.Errorf("%s %s → %d %s does not fit %s: %v", method, path, status, got, def, err)
	}
	return status, got
}

// TestSchema_WholeGamesOfPeopleAndBotsFitTheSchema plays whole games over
// real sockets (three people, one of them the host, bots in the other
// seats, a spectator), with chat in the lobby and in the mafia's night,
// refusals, a reconnect with since, and the end; every frame each
// connection received or sent is held to docs/protocol.schema.json by the
// package's recorder, and every HTTP body of the lobby here by httpFits.
// After the end the table takes no second game (already_started).
func TestSchema_WholeGamesOfPeopleAndBotsFitTheSchema(t *testing.T) {
	ts := startServerWith(t, "", func(c *Config) {
		localized(c)
		c.Rate, c.Burst = 10000, 10000
		c.Limits.Unlimited = loopback
	})
	ctx := within(t, 120*time.Second)
	for game, opts := range []map[string]string{
		{"reveal_on_death": "role"},
		{"second_tie": "ask", "reveal_on_death": "team", "first_night": "meeting"},
	} {
		before := frameCheck.frames
		optsJSON, _ := json.Marshal(opts)
		// a second's speech: a person's statement, sent as its floor opens,
		// is in time on a loaded machine (the seats pass at once after it)
		timings := `{"speech":1000,"defence":200,"tie_speech":200,"last_words":200,"night":1500,"vote":300}`
		req := `{"name":"schema game","players":7,"public":true,"options":` + string(optsJSON) + `,"timings_ms":` + timings + `}`
		_, body := httpFits(ctx, t, ts, "POST", "/api/tables", "", "create_request", req, "create_response")
		var created client.Created
		if err := json.Unmarshal(body, &created); err != nil {
			t.Fatal(err)
		}
		id := created.Table
		httpFits(ctx, t, ts, "POST", "/api/tables", "", "create_request", `{"name":"x","players":12}`, "")
		httpFits(ctx, t, ts, "GET", "/api/tables/nope", "", "", "", "lobby")
		var toks []string
		for i, name := range []string{"Nino", "Gio", "Tamar"} {
			tok := ""
			if i == 0 {
				tok = created.HostToken
			}
			_, body := httpFits(ctx, t, ts, "POST", "/api/tables/"+id+"/join", tok, "join_request", `{"name":"`+name+`"}`, "join_response")
			var j client.Joined
			if err := json.Unmarshal(body, &j); err != nil {
				t.Fatal(err)
			}
			toks = append(toks, j.Token)
		}
		httpFits(ctx, t, ts, "POST", "/api/tables/"+id+"/join", "", "join_request", `{"name":"Eka","seat":2}`, "join_response") // seat_taken
		httpFits(ctx, t, ts, "GET", "/api/tables", "", "", "", "tables_response")

		var ps []*player
		for i, tok := range toks {
			p := newPlayer(ts.api.Base, id, tok, i+1, uint64(game*10+i+1))
			p.talk = true // statements on their floors, so that talk reaches every view
			if _, err := p.connect(ctx); err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		spect := newPlayer(ts.api.Base, id, "", 0, 0)
		if _, err := spect.connect(ctx); err != nil {
			t.Fatal(err)
		}
		host, gio := ps[0], ps[1]
		if err := gio.call(ctx, wire.ClientMessage{Type: "chat", Channel: "town", Text: "Hello, <table> & all"}); err != nil {
			t.Fatal(err)
		}
		if err := spect.call(ctx, wire.ClientMessage{Type: "chat", Channel: "town", Text: "hi"}); err == nil {
			t.Error("a spectator posted")
		}
		if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err == nil {
			t.Error("started with free seats")
		}
		if err := gio.readAfter(ctx, wire.ClientMessage{Type: "ping"}, "pong"); err != nil {
			t.Fatal(err)
		}
		for _, a := range []string{"add_bots", "start"} {
			if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: a}); err != nil {
				t.Fatalf("%s: %v", a, err)
			}
		}
		httpFits(ctx, t, ts, "GET", "/api/tables/"+id, "", "", "", "lobby")
		// Seat 2 drops on night 1 and comes back with since.
		if err := gio.untilPhase(ctx, "night"); err != nil {
			t.Fatal(err)
		}
		gio.c.close()
		if _, err := gio.connect(ctx); err != nil {
			t.Fatal(err)
		}
		// The living mafia among the people talk at night, once each.
		for _, p := range ps {
			talked := false
			p.onFrame = func(p *player, m wire.ServerMessage) {
				if !talked && p.view != nil && p.view.Phase == "night" && (p.view.Role == "mafia" || p.view.Role == "don") {
					talked = true
					p.c.send(ctx, wire.ClientMessage{Type: "chat", Channel: "mafia", Text: "let us take 3"})
				}
			}
		}
		if err := host.call(ctx, wire.ClientMessage{Type: "command", Verb: "dance"}); err == nil {
			t.Error("an unknown verb was accepted")
		}
		run := playAll(ctx, append(ps, spect))
		if err := <-run.done; err != nil {
			t.Fatal(err)
		}
		for _, p := range append(ps, spect) {
			if !p.ended() {
				t.Errorf("seat %d did not see the end", p.seat)
			}
		}
		// One game a table: no second start, no join.
		h := open(ctx, t, ts.api.Base, id, created.HostToken, dialOpts{})
		if _, err := h.send(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
			t.Fatal(err)
		}
		for {
			_, m, err := h.read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if m.Type == "error" || m.Type == "reply" {
				if m.Code != "already_started" {
					t.Errorf("a second start after the end: %+v, want already_started", m)
				}
				break
			}
		}
		h.close()
		if status, _ := httpFits(ctx, t, ts, "POST", "/api/tables/"+id+"/join", "", "join_request", `{"name":"Late"}`, "join_response"); status != 409 {
			t.Errorf("a join after the end: %d, want 409 already_started", status)
		}
		httpFits(ctx, t, ts, "GET", "/api/tables/"+id, "", "", "", "lobby")
		if frameCheck.frames-before < 100 {
			t.Errorf("game %d: only %d frames were checked", game, frameCheck.frames-before)
		}
		talked := 0
		for _, e := range spect.events {
			if e.Kind == "statement" {
				talked++
			}
		}
		if talked == 0 {
			t.Errorf("game %d: nobody made a statement, so no talk was held to the schema", game)
		}
	}
}

// readAfter sends m and reads (absorbing) until a frame of type typ.
func (p *player) readAfter(ctx context.Context, m wire.ClientMessage, typ string) error {
	if _, err := p.c.send(ctx, m); err != nil {
		return err
	}
	return p.readUntil(ctx, func(got wire.ServerMessage) bool { return got.Type == typ })
}

// TestSchema_RefusesWhatTheProtocolLacks: a real frame with a field the
// schema lacks, a zero where the rule says absent, a missing always-present
// field, an unknown event kind and a field of another kind each fail; the
// frames themselves pass.
func TestSchema_RefusesWhatTheProtocolLacks(t *testing.T) {
	good := map[string]string{
		"update":    `{"v":1,"type":"update","seat":1,"seq":4,"events":[{"kind":"mafia_chose","round":1,"actor":1,"target":6}],"view":{"seat":1,"players":5,"phase":"night","round":1,"step":1,"role":"don","candidates":[],"victims":[],"seats":[{"seat":1,"alive":true,"fouls":0,"role":"don","team":"mafia","choice":6},{"seat":2,"alive":true,"fouls":0},{"seat":3,"alive":true,"fouls":0},{"seat":4,"alive":true,"fouls":0},{"seat":5,"alive":true,"fouls":0}],"night":{"kill":6},"legal":{"check":[2,3,4,5],"skip":true},"rules":{"doctor_repeat":"once_per_game","first_night":"full","foul_limit":"4","last_words":"on","mafia_kill":"senior","maniac_check":"not_mafia","maniac_vs_mafia_1x1":"maniac","reveal_on_death":"none","round_limit":"30","second_tie":"ask"}},"deadline":1796120681373,"now":1796120658373}      `,
		"reply":     `{"v":1,"type":"reply","id":3}`,
		"chat":      `{"v":1,"type":"chat","now":1795966170084,"channel":"town","from":6,"name":"Dato","text":"I was a citizen."}`,
		"statement": `{"v":1,"type":"update","seat":2,"seq":9,"events":[{"kind":"statement","round":1,"phase":"speech","actor":1,"target":3,"verb":"vouch"}],"view":{"seat":2,"players":5,"phase":"speech","round":1,"step":2,"speaker":1,"role":"citizen","candidates":[],"talk":[{"round":1,"statements":[{"by":1,"phase":"speech","verb":"claim","role":"detective"},{"by":1,"phase":"speech","verb":"report","target":2,"result":"mafia"},{"by":1,"phase":"speech","verb":"vouch","target":3}]}],"victims":[],"seats":[{"seat":1,"alive":true,"fouls":0},{"seat":2,"alive":true,"fouls":0,"role":"citizen","team":"town"},{"seat":3,"alive":true,"fouls":0},{"seat":4,"alive":true,"fouls":0},{"seat":5,"alive":true,"fouls":0}],"legal":{},"rules":{"doctor_repeat":"once_per_game","first_night":"full","foul_limit":"4","last_words":"on","mafia_kill":"senior","maniac_check":"not_mafia","maniac_vs_mafia_1x1":"maniac","reveal_on_death":"none","round_limit":"30","second_tie":"ask"}},"deadline":1796145651754,"now":1796142051812}`,
	}
	for name, f := range good {
		if err := validate("server_message", []byte(f)); err != nil {
			t.Fatalf("the real %s frame does not fit: %v", name, err)
		}
	}
	bad := []struct{ name, frame string }{
		{"a field the schema lacks at the top", strings.Replace(good["reply"], `"id":3`, `"id":3,"colour":"red"`, 1)},
		{"a field the schema lacks in the view", strings.Replace(good["update"], `"step":1,`, `"step":1,"mood":"tense",`, 1)},
		{"a field the schema lacks in a seat", strings.Replace(good["update"], `"choice":6}`, `"choice":6,"hat":true}`, 1)},
		{"a field of another event kind", strings.Replace(good["update"], `"actor":1,"target":6}`, `"actor":1,"target":6,"result":"mafia"}`, 1)},
		{"an unknown event kind", strings.Replace(good["update"], `"mafia_chose"`, `"mafia_mused"`, 1)},
		{"a zero that the rule leaves out", strings.Replace(good["update"], `"step":1,`, `"step":1,"speaker":0,`, 1)},
		{"false that the rule leaves out", strings.Replace(good["update"], `"step":1,`, `"step":1,"voted":false,`, 1)},
		{"an always-present field missing", strings.Replace(good["update"], `"fouls":0,"role":"don"`, `"role":"don"`, 1)},
		{"a field of another message type", strings.Replace(good["chat"], `"now"`, `"seq":3,"now"`, 1)},
		{"another version", strings.Replace(good["reply"], `"v":1`, `"v":2`, 1)},
		{"a statement at no floor", strings.Replace(good["statement"], `"round":1,"phase":"speech","actor":1`, `"round":1,"phase":"vote","actor":1`, 1)},
		{"a statement without its verb", strings.Replace(good["statement"], `"target":3,"verb":"vouch"}]`, `"target":3}]`, 1)},
		{"a vouch for nobody", strings.Replace(good["statement"], `"actor":1,"target":3,"verb":"vouch"`, `"actor":1,"verb":"vouch"`, 1)},
		{"a claim with a target", strings.Replace(good["statement"], `"verb":"claim","role":"detective"`, `"verb":"claim","target":2,"role":"detective"`, 1)},
		{"a claim without a card", strings.Replace(good["statement"], `"verb":"claim","role":"detective"`, `"verb":"claim"`, 1)},
		{"a report of the Don's answer", strings.Replace(good["statement"], `"result":"mafia"`, `"result":"detective"`, 1)},
		{"an empty day of talk", strings.Replace(good["statement"], `"talk":[{"round":1,`, `"talk":[{"round":1,"statements":[]},{"round":2,`, 1)},
		{"an unknown statement", strings.Replace(good["statement"], `"verb":"vouch"}],"view"`, `"verb":"accuse"}],"view"`, 1)},
	}
	for _, c := range bad {
		if err := validate("server_message", []byte(c.frame)); err == nil {
			t.Errorf("%s: the schema accepts %s", c.name, c.frame)
		}
	}
	if err := validate("client_message", []byte(`{"v":1,"type":"command","verb":"vote","target":3,"step":11,"colour":1}`)); err == nil {
		t.Error("a client message with a field the schema lacks fits")
	}
	for _, m := range []string{
		`{"v":1,"type":"command","id":10,"verb":"claim","role":"detective","step":2}`,
		`{"v":1,"type":"command","id":11,"verb":"report","target":2,"result":"mafia","step":2}`,
		`{"v":1,"type":"command","verb":"will_nominate","target":2}`,
	} {
		if err := validate("client_message", []byte(m)); err != nil {
			t.Errorf("a statement %s does not fit: %v", m, err)
		}
	}
	if err := validate("client_message", []byte(`{"v":1,"type":"command","verb":"claim","role":"wizard"}`)); err == nil {
		t.Error("a claim of no card fits")
	}
}
