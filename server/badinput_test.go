package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/locale"
	"mafia/wire"
)

// longTimings keep a game where it is for the length of a test.
var longTimings = map[string]int64{"speech": 3600000, "defence": 3600000, "tie_speech": 3600000, "last_words": 3600000, "night": 3600000, "vote": 3600000}

// uncatalogued collects the error codes that have no sentence of their own
// in a language, to be reported rather than failed.
var uncatalogued = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// checkSentence checks that an error's message is a sentence in lang: not
// empty, not the code or a Go error, and in Georgian letters for "ka" when
// the catalog has the code.
func checkSentence(t *testing.T, where, lang, code, msg string) {
	t.Helper()
	if msg == "" || msg == code || strings.HasPrefix(msg, "engine:") {
		t.Errorf("%s: %s: the message %q is not a sentence", where, code, msg)
	}
	l, _ := locale.Parse(lang)
	if !locale.New(l).Has("error." + code) {
		uncatalogued.Lock()
		uncatalogued.m[fmt.Sprintf("%s:error.%s", l, code)] = true
		uncatalogued.Unlock()
		return
	}
	if l == locale.Ka && !nonASCII(msg) {
		t.Errorf("%s: %s in Georgian is %q", where, code, msg)
	}
}

func nonASCII(s string) bool {
	for _, r := range s {
		if r > 127 {
			return true
		}
	}
	return false
}

func reportUncatalogued(t *testing.T) {
	uncatalogued.Lock()
	defer uncatalogued.Unlock()
	if len(uncatalogued.m) == 0 {
		return
	}
	var ids []string
	for id := range uncatalogued.m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	t.Logf("NOTE: no catalog sentence yet (a generic one was sent) for %v", ids)
}

// quiet pings on each connection and fails if anything but the pong comes
// first: nothing was sent to it since it was last drained.
func quiet(ctx context.Context, t *testing.T, who string, c *wsConn) {
	t.Helper()
	id, err := c.send(ctx, wire.ClientMessage{Type: "ping"})
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, m, err := c.read(ctx)
		if err != nil {
			t.Fatalf("%s: %v", who, err)
		}
		if m.Type == "pong" && m.ID == id {
			return
		}
		if m.Type == "pad" {
			continue // the night's padding, every seat's alike at each tick
		}
		t.Errorf("%s received a frame while others misbehaved: %s", who, data)
	}
}

// drain pings and reads everything up to the pong.
func drain(ctx context.Context, t *testing.T, c *wsConn) {
	t.Helper()
	id, err := c.send(ctx, wire.ClientMessage{Type: "ping"})
	if err != nil {
		t.Fatal(err)
	}
	for {
		_, m, err := c.read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "pong" && m.ID == id {
			return
		}
	}
}

// expectError reads the next frame, which must be an error with code (and
// with id when id != 0).
func expectError(ctx context.Context, t *testing.T, where string, c *wsConn, code string, id int64) wire.ServerMessage {
	t.Helper()
	data, m, err := c.read(ctx)
	// A broadcast may come first (the night's tick gives every seat its
	// frames each second, a pad when it has nothing for it): the answer is
	// the next error, reply or pong.
	for err == nil && m.Type != "error" && m.Type != "reply" && m.Type != "pong" {
		data, m, err = c.read(ctx)
	}
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if m.Type != "error" || m.Code != code || (id != 0 && m.ID != id) {
		t.Errorf("%s: got %s, want an error %q for id %d", where, data, code, id)
	}
	return m
}

// badCase is a bad frame and the error it must get.
type badCase struct {
	name string
	typ  websocket.MessageType
	data string
	code string
	id   int64
}

// TestBadInput_WebSocketFrames sends every kind of bad frame: each gets an
// error frame with its code and a sentence in the connection's language,
// nobody else hears a thing, and the stored log does not move.
func TestBadInput_WebSocketFrames(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 60*time.Second)

	// Table A stays in night 1 for an hour; table B passes night 1 at once
	// (nobody acts) and stays in seat 1's speech.
	a := newTable(ctx, t, ts.api, client.CreateRequest{Name: "bad A", Players: 5, TimingsMS: longTimings}, seatsUpTo(5), 1)
	bTimings := map[string]int64{}
	for k, v := range longTimings {
		bTimings[k] = v
	}
	bTimings["night"] = 100
	b := newTable(ctx, t, ts.api, client.CreateRequest{Name: "bad B", Players: 5, TimingsMS: bTimings}, seatsUpTo(5), 2)
	for _, tb := range []*table{a, b} {
		for _, p := range tb.players {
			if _, err := p.connect(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := tb.players[0].call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range a.players {
		if err := p.untilPhase(ctx, "night"); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range b.players {
		if err := p.untilPhase(ctx, "speech"); err != nil {
			t.Fatal(err)
		}
	}
	if sp := b.players[0].view.Speaker; sp != 1 {
		t.Fatalf("table B: speaker %d, want seat 1", sp)
	}

	// On table A the offender is a citizen who is not the host; it also
	// connects in Georgian, by ?lang= and by Accept-Language.
	var off *player
	for _, p := range a.players[1:] {
		if p.view.Role == "citizen" {
			off = p
			break
		}
	}
	if off == nil {
		t.Fatal("table A: no citizen besides the host")
	}
	var victim int // a living seat that is not the offender
	for _, s := range off.view.Seats {
		if s.Seat != off.seat {
			victim = s.Seat
			break
		}
	}
	conns := map[string]*wsConn{"en": off.c}
	for lang, o := range map[string]dialOpts{
		"ka":        {query: url.Values{"lang": {"ka"}}},
		"ka-header": {header: http.Header{"Accept-Language": {"ka-GE,ka;q=0.9,en;q=0.5"}}},
	} {
		c, _, err := dialWS(ctx, ts.api.Base, a.id, off.token, 0, o)
		if err != nil {
			t.Fatal(err)
		}
		defer c.close()
		if _, m, err := c.read(ctx); err != nil || m.Type != "welcome" {
			t.Fatalf("%s: %v %+v", lang, err, m)
		}
		conns[lang] = c
	}
	spect, _, err := dialWS(ctx, ts.api.Base, b.id, "", 0, dialOpts{})
	if err != nil {
		t.Fatal(err)
	}
	defer spect.close()
	if _, m, err := spect.read(ctx); err != nil || m.Type != "welcome" {
		t.Fatalf("spectator: %v %+v", err, m)
	}
	// Everyone has heard everything so far.
	var bystanders []*player
	for _, tb := range []*table{a, b} {
		for _, p := range tb.players {
			drain(ctx, t, p.c)
			if p != off {
				bystanders = append(bystanders, p)
			}
		}
	}
	for _, c := range conns {
		drain(ctx, t, c)
	}
	drain(ctx, t, spect)
	lenA, lenB := logLen(ctx, t, ts, a.id), logLen(ctx, t, ts, b.id)

	big := `{"v":1,"type":"chat","channel":"town","text":"` + strings.Repeat("x", 5000) + `"}`
	cases := []badCase{
		{"malformed JSON", websocket.MessageText, `{"v":1,"type":"command",`, "malformed", 0},
		{"not an object", websocket.MessageText, `[1,2,3]`, "malformed", 0},
		{"oversized frame", websocket.MessageText, big, "too_large", 0},
		{"unknown type", websocket.MessageText, `{"v":1,"type":"dance","id":31}`, "malformed", 31},
		{"wrong version", websocket.MessageText, `{"v":2,"type":"ping","id":32}`, "malformed", 32},
		{"no version", websocket.MessageText, `{"type":"ping","id":33}`, "malformed", 33},
		{"unknown field", websocket.MessageText, `{"v":1,"type":"ping","id":34,"admin":true}`, "malformed", 0},
		{"binary frame", websocket.MessageBinary, `{"v":1,"type":"ping","id":35}`, "malformed", 0},
		{"unknown verb", websocket.MessageText, `{"v":1,"type":"command","id":36,"verb":"dance"}`, "unknown_verb", 36},
		{"vote at night", websocket.MessageText, fmt.Sprintf(`{"v":1,"type":"command","id":37,"verb":"vote","target":%d}`, victim), "wrong_phase", 37},
		{"nominate at night", websocket.MessageText, fmt.Sprintf(`{"v":1,"type":"command","id":38,"verb":"nominate","target":%d}`, victim), "wrong_phase", 38},
		{"a citizen kills", websocket.MessageText, fmt.Sprintf(`{"v":1,"type":"command","id":39,"verb":"kill","target":%d}`, victim), "not_your_role", 39},
		{"a citizen checks", websocket.MessageText, fmt.Sprintf(`{"v":1,"type":"command","id":40,"verb":"check","target":%d}`, victim), "not_your_role", 40},
		{"a citizen heals", websocket.MessageText, fmt.Sprintf(`{"v":1,"type":"command","id":41,"verb":"heal","target":%d}`, victim), "not_your_role", 41},
		{"a non-host pauses", websocket.MessageText, `{"v":1,"type":"host","id":42,"action":"pause"}`, "not_host", 42},
		{"a non-host fouls", websocket.MessageText, fmt.Sprintf(`{"v":1,"type":"host","id":43,"action":"foul","target":%d}`, victim), "not_host", 43},
		{"a non-host starts", websocket.MessageText, `{"v":1,"type":"host","id":44,"action":"start"}`, "not_host", 44},
	}
	for _, lang := range []string{"en", "ka", "ka-header"} {
		c := conns[lang]
		for _, bc := range cases {
			if err := c.sendRaw(ctx, bc.typ, []byte(bc.data)); err != nil {
				t.Fatal(err)
			}
			m := expectError(ctx, t, lang+": "+bc.name, c, bc.code, bc.id)
			checkSentence(t, lang+": "+bc.name, strings.TrimSuffix(lang, "-header"), m.Code, m.Message)
		}
	}

	// Table B, day 1, seat 1 speaking.
	bOff := b.players[1]
	bCases := []badCase{
		{"nominate out of turn", websocket.MessageText, `{"v":1,"type":"command","id":51,"verb":"nominate","target":3}`, "not_speaker", 51},
		{"pass out of turn", websocket.MessageText, `{"v":1,"type":"command","id":52,"verb":"pass"}`, "not_speaker", 52},
		{"kill by day", websocket.MessageText, `{"v":1,"type":"command","id":53,"verb":"kill","target":3}`, "wrong_phase", 53},
		{"vote before any vote", websocket.MessageText, `{"v":1,"type":"command","id":54,"verb":"vote","target":3}`, "wrong_phase", 54},
		{"mafia chat by day", websocket.MessageText, `{"v":1,"type":"chat","id":55,"channel":"mafia","text":"hi"}`, "chat_closed", 55},
		{"town chat out of turn", websocket.MessageText, `{"v":1,"type":"chat","id":56,"channel":"town","text":"hi"}`, "chat_closed", 56},
	}
	for _, bc := range bCases {
		if err := bOff.c.sendRaw(ctx, bc.typ, []byte(bc.data)); err != nil {
			t.Fatal(err)
		}
		m := expectError(ctx, t, "table B: "+bc.name, bOff.c, bc.code, bc.id)
		checkSentence(t, "table B: "+bc.name, "en", m.Code, m.Message)
	}
	// The speaker's own refusals: a seat off the table, near and far.
	for _, target := range []int{9, 99} {
		where := fmt.Sprintf("table B: nominate seat %d", target)
		if _, err := b.players[0].c.send(ctx, wire.ClientMessage{Type: "command", ID: int64(60 + target), Verb: "nominate", Target: target}); err != nil {
			t.Fatal(err)
		}
		m := expectError(ctx, t, where, b.players[0].c, "no_such_seat", int64(60+target))
		checkSentence(t, where, "en", m.Code, m.Message)
	}
	if err := spect.sendRaw(ctx, websocket.MessageText, []byte(`{"v":1,"type":"command","id":61,"verb":"nominate","target":3}`)); err != nil {
		t.Fatal(err)
	}
	m := expectError(ctx, t, "a spectator's command", spect, "spectator", 61)
	checkSentence(t, "a spectator's command", "en", m.Code, m.Message)

	// A wrong token is refused with a coded error; a foreign page may not
	// open a WebSocket at all.
	c, _, err := dialWS(ctx, ts.api.Base, a.id, "0123456789abcdef", 0, dialOpts{query: url.Values{"lang": {"ka"}}})
	if err != nil {
		t.Fatalf("wrong token: the dial failed before the error frame: %v", err)
	}
	m = expectError(ctx, t, "wrong token", c, "bad_token", 0)
	checkSentence(t, "wrong token", "ka", m.Code, m.Message)
	if _, _, err := c.read(ctx); err == nil {
		t.Error("wrong token: the connection stays open")
	}
	c.close()
	_, resp, err := dialWS(ctx, ts.api.Base, a.id, off.token, 0, dialOpts{header: http.Header{"Origin": {"https://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Origin: err %v, response %+v; want 403", err, resp)
	}
	// The same Origin as the server is fine.
	c, _, err = dialWS(ctx, ts.api.Base, a.id, "", 0, dialOpts{header: http.Header{"Origin": {ts.api.Base}}})
	if err != nil {
		t.Errorf("same Origin refused: %v", err)
	} else {
		if _, m, err := c.read(ctx); err != nil || m.Type != "welcome" {
			t.Errorf("same Origin: %v %+v", err, m)
		}
		c.close()
	}

	// A flood: past the burst every message is refused as rate_limited (and
	// changes nothing; pings are harmless anyway).
	flood := conns["ka"]
	for i := 0; i < 100; i++ {
		if _, err := flood.send(ctx, wire.ClientMessage{Type: "ping", ID: int64(1000 + i)}); err != nil {
			t.Fatal(err)
		}
	}
	limited, pongs := 0, 0
	for limited == 0 {
		data, m, err := flood.read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case m.Type == "pad":
			// A night's padding, sent to every seat alike (a slow machine
			// reaches the table's night during the flood).
		case m.Type == "pong":
			pongs++
		case m.Type == "error" && m.Code == "rate_limited":
			limited++
			checkSentence(t, "flood", "ka", m.Code, m.Message)
		default:
			t.Fatalf("flood: unexpected %s", data)
		}
	}
	t.Logf("flood of 100 pings: %d pongs before the first rate_limited", pongs)

	// Nobody else heard any of it, and neither log moved.
	for _, p := range bystanders {
		quiet(ctx, t, fmt.Sprintf("table %s seat %d", p.table, p.seat), p.c)
	}
	quiet(ctx, t, "the offender's English connection", conns["en"])
	quiet(ctx, t, "the spectator", spect)
	if n := logLen(ctx, t, ts, a.id); n != lenA {
		t.Errorf("table A's log went from %d to %d events", lenA, n)
	}
	if n := logLen(ctx, t, ts, b.id); n != lenB {
		t.Errorf("table B's log went from %d to %d events", lenB, n)
	}
	reportUncatalogued(t)
}

func logLen(ctx context.Context, t *testing.T, ts *testServer, table string) int {
	t.Helper()
	log, err := ts.db.Events(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	return len(log)
}

// apiCall is a raw lobby request.
func apiCall(ctx context.Context, t *testing.T, base, method, path, lang, token, body string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if lang != "" {
		req.Header.Set("Accept-Language", lang)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// TestBadInput_LobbyAPI: every bad lobby request gets a 4xx and a JSON
// error {code, message} in the request's language.
func TestBadInput_LobbyAPI(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	base := ts.api.Base

	lobby := newTable(ctx, t, ts.api, client.CreateRequest{Name: "lobby", Players: 5}, []int{1, 2}, 1)
	started := newTable(ctx, t, ts.api, client.CreateRequest{Name: "started", Players: 5, TimingsMS: longTimings}, seatsUpTo(5), 2)
	host := started.players[0]
	if _, err := host.connect(ctx); err != nil {
		t.Fatal(err)
	}
	if err := host.call(ctx, wire.ClientMessage{Type: "host", Action: "start"}); err != nil {
		t.Fatal(err)
	}
	host.c.close()
	full := newTable(ctx, t, ts.api, client.CreateRequest{Name: "full", Players: 5}, seatsUpTo(5), 3)

	tablesBefore, err := ts.api.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, method, path, token, body string
		status                          int
		code                            string
	}{
		{"bad JSON body", "POST", "/api/tables", "", `{"name":"x",`, 400, "bad_request"},
		{"not an object", "POST", "/api/tables", "", `"x"`, 400, "bad_request"},
		{"unknown field", "POST", "/api/tables", "", `{"name":"x","players":5,"colour":"red"}`, 400, "bad_request"},
		{"unknown option", "POST", "/api/tables", "", `{"name":"x","players":5,"options":{"no_such_option":"on"}}`, 400, "unknown_option"},
		{"bad option value", "POST", "/api/tables", "", `{"name":"x","players":5,"options":{"reveal_on_death":"sometimes"}}`, 400, "bad_option_value"},
		{"too few players", "POST", "/api/tables", "", `{"name":"x","players":4}`, 400, "too_few_seats"},
		{"too many players", "POST", "/api/tables", "", `{"name":"x","players":12}`, 400, "too_many_seats"},
		{"negative players", "POST", "/api/tables", "", `{"name":"x","players":-3}`, 400, "too_few_seats"},
		{"no name", "POST", "/api/tables", "", `{"players":5}`, 400, "name_required"},
		{"unknown timing", "POST", "/api/tables", "", `{"name":"x","players":5,"timings_ms":{"nap":1000}}`, 400, "bad_request"},
		{"too short a timing", "POST", "/api/tables", "", `{"name":"x","players":5,"timings_ms":{"speech":5}}`, 400, "bad_timing"},
		{"join: bad JSON", "POST", "/api/tables/" + lobby.id + "/join", "", `{"name":`, 400, "bad_request"},
		{"join: unknown field", "POST", "/api/tables/" + lobby.id + "/join", "", `{"name":"a","seat":3,"role":"don"}`, 400, "bad_request"},
		{"join: a taken seat", "POST", "/api/tables/" + lobby.id + "/join", "", `{"name":"a","seat":2}`, 409, "seat_taken"},
		{"join: no such seat", "POST", "/api/tables/" + lobby.id + "/join", "", `{"name":"a","seat":9}`, 400, "no_such_seat"},
		{"join: no name", "POST", "/api/tables/" + lobby.id + "/join", "", `{"name":"  ","seat":3}`, 400, "name_required"},
		{"join: a full table", "POST", "/api/tables/" + full.id + "/join", "", `{"name":"a"}`, 409, "table_full"},
		{"join after the start", "POST", "/api/tables/" + started.id + "/join", "", `{"name":"late"}`, 409, "already_started"},
		{"join: no such table", "POST", "/api/tables/nosuchtable/join", "", `{"name":"a"}`, 404, "not_found"},
		{"no such table", "GET", "/api/tables/nosuchtable", "", ``, 404, "not_found"},
		{"leave: a wrong token", "POST", "/api/tables/" + lobby.id + "/leave", "wrong", ``, 403, "bad_token"},
		{"leave after the start", "POST", "/api/tables/" + started.id + "/leave", started.players[1].token, ``, 409, "already_started"},
	}
	for _, lang := range []string{"en", "ka"} {
		for _, c := range cases {
			where := lang + ": " + c.name
			status, h, body := apiCall(ctx, t, base, c.method, c.path, lang, c.token, c.body)
			if status != c.status {
				t.Errorf("%s: status %d, want %d: %s", where, status, c.status, body)
			}
			if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("%s: Content-Type %q", where, ct)
			}
			var eb struct {
				Error struct {
					Code    string `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&eb); err != nil {
				t.Errorf("%s: the body is not {\"error\":{code, message}}: %v: %s", where, err, body)
				continue
			}
			if eb.Error.Code != c.code {
				t.Errorf("%s: code %q, want %q", where, eb.Error.Code, c.code)
			}
			checkSentence(t, where, lang, eb.Error.Code, eb.Error.Message)
		}
	}
	// None of it made a table or took a seat.
	tablesAfter, err := ts.api.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tablesAfter) != len(tablesBefore) {
		t.Errorf("public tables went from %d to %d", len(tablesBefore), len(tablesAfter))
	}
	l, err := ts.api.Table(ctx, lobby.id)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range l.Seats {
		if s.Taken != (s.Seat <= 2) {
			t.Errorf("table %s seat %d taken=%v after the bad joins", lobby.id, s.Seat, s.Taken)
		}
	}
	var cerr *client.Error
	if _, err := ts.api.Join(ctx, started.id, "late", 0, ""); !errors.As(err, &cerr) || cerr.Status != 409 {
		t.Errorf("client.API join after the start: %v", err)
	}
	reportUncatalogued(t)
}
