package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"mafia/client"
	"mafia/wire"
)

// TestStrictJSON_WebSocketFrames: frames that encoding/json would bend
// into a message (a key in another case, a key given twice, text that is
// not UTF-8 or an escape that is no character) are refused as malformed,
// answered by their id, and change nothing: the chat lines they carry reach
// nobody.
func TestStrictJSON_WebSocketFrames(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	tb := newTable(ctx, t, ts.api, client.CreateRequest{Name: "strict", Players: 5}, []int{1, 2}, 1)
	for _, p := range tb.players {
		if _, err := p.connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	sender, other := tb.players[0].c, tb.players[1].c
	drain(ctx, t, sender)
	drain(ctx, t, other)
	for i, frame := range []string{
		`{"v":1,"type":"chat","id":%d,"Channel":"town","text":"upper-case key"}`,
		`{"V":1,"type":"chat","id":%d,"channel":"town","text":"upper-case v"}`,
		`{"v":1,"TYPE":"chat","type":"chat","id":%d,"channel":"town","text":"type twice, one upper-case"}`,
		`{"v":1,"type":"chat","id":%d,"channel":"town","text":"first","text":"second"}`,
		`{"v":1,"type":"chat","id":%d,"channel":"mafia","channel":"town","text":"channel twice"}`,
		`{"v":1,"type":"chat","id":%d,"channel":"town","text":"not UTF-8: ` + "\xff\xfe" + `"}`,
		`{"v":1,"type":"chat","id":%d,"channel":"town","text":"a lone surrogate: \ud800"}`,
		`{"v":1,"type":"host","id":%d,"action":"add_bots","ACTION":"add_bots"}`,
	} {
		id := int64(10 + i)
		data := fmt.Sprintf(frame, id)
		if err := sender.sendRaw(ctx, websocket.MessageText, []byte(data)); err != nil {
			t.Fatal(err)
		}
		m := expectError(ctx, t, data, sender, "malformed", id)
		checkSentence(t, data, "en", m.Code, m.Message)
	}
	// Nothing was posted and no bot sat down: the other seat hears nothing,
	// and the lobby still has three free seats.
	quiet(ctx, t, "the other seat", other)
	quiet(ctx, t, "the sender", sender)
	l, err := ts.api.Table(ctx, tb.id)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range l.Seats {
		if s.Bot {
			t.Errorf("seat %d was given a bot", s.Seat)
		}
	}
	// The same messages spelt right are taken.
	if err := tb.players[0].call(ctx, wire.ClientMessage{Type: "chat", Channel: "town", Text: "spelt right"}); err != nil {
		t.Errorf("a strict chat line was refused: %v", err)
	}
}

// TestStrictJSON_LobbyAPI: the create and join bodies are read as strictly
// as frames: a key in another case, a key given twice (in a nested object
// or a map too) and a body that is not UTF-8 are bad_request, and nothing
// is created or taken.
func TestStrictJSON_LobbyAPI(t *testing.T) {
	ts := startServerWith(t, "", localized)
	ctx := within(t, 30*time.Second)
	base := ts.api.Base
	rooms := func() int {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return len(ts.srv.rooms)
	}
	before := rooms()

	for _, body := range []string{
		`{"Name":"upper-case name","players":5}`,
		`{"name":"x","Players":5}`,
		`{"name":"x","players":5,"PUBLIC":true}`,
		`{"name":"first","name":"second","players":5}`,
		`{"name":"x","players":5,"players":7}`,
		`{"name":"x","setup":{"Don":1,"mafia":1,"detective":1,"doctor":1,"citizens":2}}`,
		`{"name":"x","setup":{"don":1,"don":1,"mafia":1,"detective":1,"doctor":1,"citizens":2}}`,
		`{"name":"x","players":5,"options":{"reveal_on_death":"role","reveal_on_death":"none"}}`,
		`{"name":"x","players":5,"timings_ms":{"speech":5000,"speech":60000}}`,
		`{"name":"not UTF-8 ` + "\xff" + `","players":5}`,
		`{"name":"a lone surrogate \udc00","players":5}`,
		`{"name":"x","players":5} {"name":"y"}`,
	} {
		status, _, resp := apiCall(ctx, t, base, "POST", "/api/tables", "", "", body)
		if status != http.StatusBadRequest || !strings.Contains(string(resp), `"code":"bad_request"`) {
			t.Errorf("create %s: %d %s; want 400 bad_request", body, status, resp)
		}
	}
	if n := rooms(); n != before {
		t.Fatalf("refused creates made %d tables", n-before)
	}
	// The documented spelling is taken, the custom setup's too.
	status, _, resp := apiCall(ctx, t, base, "POST", "/api/tables", "", "",
		`{"name":"Doc game","setup":{"don":1,"mafia":1,"maniac":1,"detective":1,"doctor":1,"citizens":2},"options":{"reveal_on_death":"role"}}`)
	if status != http.StatusCreated {
		t.Fatalf("a strict create: %d %s", status, resp)
	}
	var created client.Created
	if err := json.Unmarshal(resp, &created); err != nil {
		t.Fatal(err)
	}
	if created.Lobby.Players != 7 || created.Lobby.Rules["reveal_on_death"] != "role" {
		t.Fatalf("created %+v", created.Lobby)
	}

	path := "/api/tables/" + created.Table + "/join"
	for _, body := range []string{
		`{"Name":"Nino"}`,
		`{"name":"Nino","Seat":2}`,
		`{"name":"Nino","name":"Giorgi"}`,
		`{"name":"Nino","seat":2,"seat":3}`,
		`{"name":"` + "\xc3" + `"}`,
	} {
		status, _, resp := apiCall(ctx, t, base, "POST", path, "", "", body)
		if status != http.StatusBadRequest || !strings.Contains(string(resp), `"code":"bad_request"`) {
			t.Errorf("join %s: %d %s; want 400 bad_request", body, status, resp)
		}
	}
	l, err := ts.api.Table(ctx, created.Table)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range l.Seats {
		if s.Taken {
			t.Errorf("a refused join took seat %d", s.Seat)
		}
	}
	if status, _, resp := apiCall(ctx, t, base, "POST", path, "", "", `{"name":"Nino","seat":2}`); status != http.StatusOK {
		t.Errorf("a strict join: %d %s", status, resp)
	}
}
